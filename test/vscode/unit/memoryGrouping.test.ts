import { strict as assert } from 'node:assert';
import { groupByRecency, groupByTag, type ViewMemory } from '../../../src/vscode/memories/memoryGrouping';

const LABELS = { today: 'Today', yesterday: 'Yesterday', week: 'Past 7 days', month: 'Past 30 days', older: 'Older' };
const at = (id: string, local: Date, tags = ['t']): ViewMemory => ({ id, description: id, tags, changedAt: local.toISOString() });

describe('Memories view grouping', () => {
  const now = new Date(2026, 10, 29, 9, 30); // local time, 09:30

  it('puts memories in local-time ranges relative to midnight, keeps their order, and drops empty ranges', () => {
    const list = [
      at('a', new Date(2026, 10, 29, 0, 0, 1)),
      at('b', new Date(2026, 10, 28, 23, 59)),
      at('c', new Date(2026, 10, 28, 0, 0)),
      at('d', new Date(2026, 10, 23, 12, 0)),
      at('e', new Date(2026, 10, 22, 12, 0)),
      at('f', new Date(2025, 0, 1)),
    ];
    const groups = groupByRecency(list, now, LABELS);
    assert.deepEqual(
      groups.map((g) => [g.label, g.memories.map((m) => m.id)]),
      [
        ['Today', ['a']],
        ['Yesterday', ['b', 'c']],
        ['Past 7 days', ['d']],
        ['Past 30 days', ['e']],
        ['Older', ['f']],
      ],
    );
    assert.deepEqual(
      groupByRecency([at('x', new Date(2020, 0, 1))], now, LABELS).map((g) => g.key),
      ['recency:older'],
    );
  });

  it('groups by tag, most used first, ties by name, each memory under every tag it has', () => {
    const groups = groupByTag([at('a', now, ['ci', 'node']), at('b', now, ['node']), at('c', now, ['build'])]);
    assert.deepEqual(
      groups.map((g) => [g.key, g.memories.map((m) => m.id)]),
      [
        ['tag:node', ['a', 'b']],
        ['tag:build', ['c']],
        ['tag:ci', ['a']],
      ],
    );
  });
});
