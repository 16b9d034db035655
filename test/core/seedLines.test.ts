import { strict as assert } from 'node:assert';
import { parseInput, SeedMemoryLine } from '../../src/core/contract';
import type { StoredVersion } from '../../src/core/ports/store';
import { seedVersionRowId, seedVersionsOf, stableUuid } from '../../src/core/seedLines';
import { refusal } from '../helpers/assertions';

const ID = '3f2a9c1e-8b4d-4e6f-a1b2-c3d4e5f60718';
const line = (changedAt: string, extra: Record<string, unknown> = {}, where = 'line 1') => ({
  line: parseInput(SeedMemoryLine, { id: ID, description: `as of ${changedAt}`, tags: ['jest'], content: 'x', changedAt, ...extra }),
  where,
});

describe('seed memory lines as versions (core/seedLines.ts)', () => {
  it('gives stable UUIDs that the contract accepts as ids', () => {
    assert.equal(stableUuid('a'), stableUuid('a'));
    assert.notEqual(stableUuid('a'), stableUuid('b'));
    assert.match(stableUuid('a'), /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The same instant written two ways is one version.
    assert.equal(line('2026-01-05T10:00:00Z').line.changedAt, line('2026-01-05T11:00:00+01:00').line.changedAt);
  });

  it('orders lines by changedAt: create, edit, delete (deletedAt), restore; numbered after the stored versions', () => {
    const rows = seedVersionsOf(
      [line('2026-03-01T00:00:00Z'), line('2026-01-01T00:00:00Z'), line('2026-02-01T00:00:00Z', { deletedAt: '2026-02-01T00:00:00Z' })],
      [],
      'ana@example.com',
    );
    assert.deepEqual(
      rows.map((r) => [r.version, r.op, r.changedAt, r.deletedAt, r.author]),
      [
        [1, 'create', '2026-01-01T00:00:00.000Z', null, 'ana@example.com'],
        [2, 'delete', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'ana@example.com'],
        [3, 'restore', '2026-03-01T00:00:00.000Z', null, 'ana@example.com'],
      ],
    );
    // Stored already (by id and changedAt): skipped; a new line is numbered past every stored version.
    const stored = rows.slice(0, 2) as StoredVersion[];
    const again = seedVersionsOf([line('2026-01-01T00:00:00Z'), line('2026-03-01T00:00:00Z')], stored, 'bo@example.com');
    assert.deepEqual(
      again.map((r) => [r.version, r.op, r.rowId]),
      [[3, 'restore', seedVersionRowId(ID, '2026-03-01T00:00:00.000Z')]],
    );
  });

  it('keeps one of two identical lines and refuses two different versions at one time, naming both lines', () => {
    assert.equal(seedVersionsOf([line('2026-01-01T00:00:00Z'), line('2026-01-01T00:00:00Z')], [], 'a').length, 1);
    assert.match(
      refusal(() => seedVersionsOf([line('2026-01-01T00:00:00Z'), line('2026-01-01T00:00:00Z', { content: 'y' }, 'line 7')], [], 'a'))
        .message,
      /line 7: memory 3f2a9c1e-\S+ has two different versions at changedAt 2026-01-01T00:00:00\.000Z \(also line 1\)/,
    );
  });
});
