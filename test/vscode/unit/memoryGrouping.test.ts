import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { groupByRecency, groupByTag, MAX_TAG_GROUPS, OTHER_TAGS_KEY, type ViewMemory } from '../../../src/vscode/memories/memoryGrouping';

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
    const groups = groupByTag([at('a', now, ['ci', 'node']), at('b', now, ['node']), at('c', now, ['build'])], 'Other tags');
    assert.deepEqual(
      groups.map((g) => [g.key, g.memories.map((m) => m.id)]),
      [
        ['tag:node', ['a', 'b']],
        ['tag:build', ['c']],
        ['tag:ci', ['a']],
      ],
    );
  });

  /** An evaluation set's memories as the view lists them (its tags as written: a realistic distribution). */
  const evalSet = (set: string): ViewMemory[] =>
    fs
      .readFileSync(path.join(__dirname, '..', '..', 'data', set, 'memories.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; description: string; tags: string[] })
      .map((m) => ({ id: m.id, description: m.description, tags: m.tags, changedAt: now.toISOString() }));

  it('folds rarely used tags into one last "Other tags" group on a realistic store (issue 14, item 10)', () => {
    const memories = evalSet('eval');
    const tags = new Set(memories.flatMap((m) => m.tags));
    assert.ok(tags.size > 200, `the eval set carries ${tags.size} tags`);
    const groups = groupByTag(memories, 'Other tags');
    const tagGroups = groups.filter((g) => g.key !== OTHER_TAGS_KEY);
    const other = groups.at(-1)!;
    assert.equal(other.key, OTHER_TAGS_KEY, 'the other tags come last');
    assert.equal(other.label, 'Other tags');
    assert.ok(tagGroups.length <= MAX_TAG_GROUPS, `${tagGroups.length} tag groups`);
    assert.ok(tagGroups.length >= 15, `${tagGroups.length} tag groups: too few to browse by`);
    assert.ok(
      tagGroups.every((g) => g.memories.length >= 2),
      'no group of one memory',
    );
    // Sorted by size, then by name.
    const order = tagGroups.map((g) => [g.memories.length, g.label] as const);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => b[0] - a[0] || a[1].localeCompare(b[1])),
    );
    assert.equal(tagGroups[0]!.label, 'github-actions');
    // The cut is at a count: a tag as used as a shown one is shown too.
    const smallest = Math.min(...tagGroups.map((g) => g.memories.length));
    const count = (tag: string) => memories.filter((m) => m.tags.includes(tag)).length;
    assert.deepEqual(
      [...tags].filter((t) => count(t) >= smallest && !tagGroups.some((g) => g.label === t)),
      [],
    );
    // Every memory is reachable: under a shown tag, or in Other tags (and only there if under none).
    const shown = new Set(tagGroups.map((g) => g.label));
    for (const m of memories) {
      const inOther = other.memories.includes(m);
      assert.equal(inOther, !m.tags.some((t) => shown.has(t)), m.id);
    }
    assert.ok(other.memories.length < memories.length / 5, `${other.memories.length} memories in Other tags`);
    assert.equal(new Set(groups.map((g) => g.key)).size, groups.length, 'keys are unique');
  });

  it('shows every tag, even one used once, while they fit; untagged memories go to Other tags', () => {
    const groups = groupByTag(
      [at('a', now, ['ci']), at('b', now, ['node', 'ci']), at('c', now, ['other']), at('d', now, [])],
      'Other tags',
    );
    assert.deepEqual(
      groups.map((g) => [g.key, g.memories.map((m) => m.id)]),
      [
        ['tag:ci', ['a', 'b']],
        ['tag:node', ['b']],
        ['tag:other', ['c']],
        [OTHER_TAGS_KEY, ['d']],
      ],
    );
  });

  it('past the limit, cuts at a count: equally used tags are shown or folded together, never split by name', () => {
    // Four tags on two memories each, four on one each: with room for 6 groups, the four of two show.
    const list = ['a', 'b', 'c', 'd'].flatMap((t) => [at(`${t}1`, now, [t]), at(`${t}2`, now, [t])]);
    list.push(...['e', 'f', 'g', 'h'].map((t) => at(`${t}1`, now, [t])));
    const groups = groupByTag(list, 'Other tags', 6);
    assert.deepEqual(
      groups.map((g) => [g.label, g.memories.length]),
      [
        ['a', 2],
        ['b', 2],
        ['c', 2],
        ['d', 2],
        ['Other tags', 4],
      ],
    );
    // Room for 3, but only the four tags of two are more used than the rest: they show, rather than no group at all.
    assert.deepEqual(
      groupByTag(list, 'Other tags', 3).map((g) => g.label),
      ['a', 'b', 'c', 'd', 'Other tags'],
    );
  });
});
