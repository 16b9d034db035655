import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import type { RecordKind, StoredRecord } from '../../src/core/ports/records';
import { BACKENDS, openService, prepareBackend } from '../helpers/builders';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const tick = () => new Date((clock += 1000)).toISOString();

function rec(over: Partial<StoredRecord> & { kind?: RecordKind } = {}): StoredRecord {
  return {
    rowId: randomUUID(),
    kind: 'fact',
    id: randomUUID(),
    version: 1,
    op: 'create',
    status: 'active',
    keys: ['service-a', 'depends_on', 'postgres'],
    rank: 0.5,
    dueAt: null,
    data: { note: 'x' },
    changedAt: tick(),
    deletedAt: null,
    author: 'ana@example.com',
    ...over,
  };
}

/**
 * `r` as `store` keeps it: a store with database roles (PostgreSQL) records the role of the
 * connection that inserted each row, whatever the row said; the workspace store keeps rows as written.
 */
function kept(store: { dbRole: string | null }, r: StoredRecord): StoredRecord {
  return store.dbRole ? { ...r, dbRole: store.dbRole } : r;
}

/** A next version of `r` with changes. */
function next(r: StoredRecord, over: Partial<StoredRecord> = {}): StoredRecord {
  return { ...r, rowId: randomUUID(), version: r.version + 1, op: 'edit', changedAt: tick(), ...over };
}

for (const backend of BACKENDS)
  describe(`RecordStore [${backend}] (versioned records of the playbook's tiers)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('writes versions atomically, reads the current one and the whole history', async () => {
      const { store } = await openService({ backend });
      const a = rec({ data: { subject: 'service-a', n: 1 } });
      const written = await store.records.write('fact:service-a', async (r) => {
        assert.equal(await r.get('fact', a.id), undefined);
        assert.equal(await r.maxVersion('fact', a.id), 0);
        return [a];
      });
      assert.deepEqual(written, [kept(store, a)]);
      const a2 = next(a, { status: 'disputed', data: { subject: 'service-a', n: 2 } });
      await store.records.write('fact:service-a', async (r) => {
        assert.deepEqual(await r.get('fact', a.id), kept(store, a));
        assert.equal(await r.maxVersion('fact', a.id), 1);
        return [a2];
      });
      assert.deepEqual(await store.records.get('fact', a.id), kept(store, a2));
      assert.deepEqual(await store.records.history('fact', a.id), [kept(store, a), kept(store, a2)]);
      // Kinds are separate name spaces.
      assert.equal(await store.records.get('skill', a.id), undefined);
      await store.close();
    });

    it('stores nothing when the decision throws, and several rows in one write', async () => {
      const { store } = await openService({ backend });
      const a = rec();
      await assert.rejects(
        store.records.write('s', () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal(await store.records.count({ kind: 'fact' }), 0);
      const b = rec({ keys: ['service-a', 'depends_on', 'mysql'] });
      assert.equal((await store.records.write('s', () => [a, b])).length, 2);
      assert.equal(await store.records.count({ kind: 'fact' }), 2);
      assert.deepEqual(await store.records.write('s', () => []), []);
      await store.close();
    });

    it('queries current versions by keys, status, deletion and due time, ordered by rank then recency, paged', async () => {
      const { store } = await openService({ backend });
      const low = rec({ rank: 0.2, keys: ['api', 'owned_by', 'team-x'] });
      const high = rec({ rank: 0.9, keys: ['api', 'owned_by', 'team-y'] });
      const sameRankNewer = rec({ rank: 0.2, keys: ['api', 'uses', 'redis'] });
      const other = rec({ rank: 1, keys: ['web', 'uses', 'redis'], status: 'retracted' });
      const expiring = rec({ rank: 0.5, keys: ['web', 'owned_by', 'team-x'], dueAt: '2026-02-01T00:00:00.000Z' });
      const skill = rec({ kind: 'skill', keys: ['release', '', ''], rank: 0 });
      await store.records.write('s', () => [low, high, sameRankNewer, other, expiring, skill]);
      const ids = (rs: StoredRecord[]) => rs.map((r) => r.id);

      assert.deepEqual(ids(await store.records.query({ kind: 'fact', keys: ['api'], limit: 10 })), [high.id, sameRankNewer.id, low.id]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', keys: [undefined, undefined, 'redis'], limit: 10 })), [
        other.id,
        sameRankNewer.id,
      ]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', keys: [['api', 'web'], 'owned_by'], limit: 10 })), [
        high.id,
        expiring.id,
        low.id,
      ]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', status: ['retracted'], limit: 10 })), [other.id]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', dueBefore: '2026-03-01T00:00:00.000Z', limit: 10 })), [expiring.id]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', dueBefore: '2026-01-15T00:00:00.000Z', limit: 10 })), []);
      assert.deepEqual(ids(await store.records.query({ kind: 'skill', limit: 10 })), [skill.id]);
      assert.equal(await store.records.count({ kind: 'fact', keys: ['api'] }), 3);

      // Paging walks the same order without repeats.
      const page1 = await store.records.query({ kind: 'fact', limit: 2 });
      const last = page1[page1.length - 1]!;
      const page2 = await store.records.query({
        kind: 'fact',
        limit: 10,
        after: { rank: last.rank, changedAt: last.changedAt, id: last.id },
      });
      assert.deepEqual([...ids(page1), ...ids(page2)], [other.id, high.id, expiring.id, sameRankNewer.id, low.id]);

      // Only the current version answers, and a deleted record only when deleted ones are asked for.
      await store.records.write('s', () => [
        next(high, { keys: ['api', 'owned_by', 'team-z'] }),
        next(low, { op: 'delete', deletedAt: tick() }),
      ]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', keys: [undefined, undefined, 'team-y'], limit: 10 })), []);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', keys: ['api'], limit: 10 })), [high.id, sameRankNewer.id]);
      assert.deepEqual(ids(await store.records.query({ kind: 'fact', deleted: true, limit: 10 })), [low.id]);
      await store.close();
    });

    it('serialises writers of one scope: 20 concurrent read-then-write decisions see each other', async () => {
      const { store } = await openService({ backend });
      const counter = rec({ kind: 'report', keys: ['counter', '', ''], data: { n: 0 } });
      await store.records.write('counter', () => [counter]);
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.records.write('counter', async (r) => {
            const cur = (await r.get('report', counter.id))!;
            return [next(cur, { version: (await r.maxVersion('report', counter.id)) + 1, data: { n: (cur.data.n as number) + 1 } })];
          }),
        ),
      );
      const final = (await store.records.get('report', counter.id))!;
      assert.equal(final.data.n, 20);
      assert.deepEqual(
        (await store.records.history('report', counter.id)).map((r) => r.version),
        Array.from({ length: 21 }, (_, i) => i + 1),
      );
      await store.close();
    });

    it('purges ids for good: gone from history and queries, and an import does not bring them back', async () => {
      const { store, purgedBy } = await openService({ backend });
      const a = rec({ kind: 'episode', keys: ['', '', ''], status: 'success' });
      const b = rec({ kind: 'episode', keys: ['', '', ''], status: 'failure' });
      const a2 = next(a);
      await store.records.write('episodes', () => [a, b]);
      await store.records.write('episodes', () => [a2]);
      assert.equal(await store.records.purge('episode', [a.id], 'bo@example.com'), 2);
      assert.equal(await purgedBy(a.id, 'episode'), 'bo@example.com', 'the tombstone names who purged');
      assert.equal(await purgedBy(b.id, 'episode'), undefined);
      assert.equal(await store.records.get('episode', a.id), undefined);
      assert.deepEqual(await store.records.history('episode', a.id), []);
      assert.equal(await store.records.count({ kind: 'episode' }), 1);
      assert.deepEqual(await store.records.importRecords([a, a2]), { added: 0, skipped: 2 });
      assert.equal(await store.records.get('episode', a.id), undefined);
      assert.equal(await store.records.purge('episode', [a.id], 'tester@example.com'), 0);
      await store.close();
    });

    it('refuses a write of a purged id, of a stored rowId, or of two rows numbered alike, storing none of its rows', async () => {
      const { store } = await openService({ backend });
      const a = rec();
      const gone = rec();
      await store.records.write('s', () => [a, gone]);
      await store.records.purge('fact', [gone.id], 'tester@example.com');
      const fresh = rec();
      const attempts: Array<[string, StoredRecord[], RegExp]> = [
        ['a purged id', [fresh, next(gone)], /purged/],
        ['a stored rowId', [fresh, { ...next(a), rowId: a.rowId }], /already stored/],
        ['two rows of one version', [fresh, next(a), next(a)], /two rows of fact .* version 2/],
        ['a version already stored', [fresh, { ...next(a), version: 1 }], /version 1|already|version number/i],
      ];
      for (const [what, rows, re] of attempts) {
        await assert.rejects(
          store.records.write('s', () => rows),
          re,
          what,
        );
        assert.equal(await store.records.get('fact', fresh.id), undefined, `${what}: nothing of the write is stored`);
      }
      assert.deepEqual(await store.records.history('fact', a.id), [kept(store, a)]);
      assert.deepEqual(await store.records.history('fact', gone.id), []);
      await store.close();
    });

    it('exports every row and imports them idempotently into another store', async () => {
      const { store } = await openService({ backend });
      const a = rec();
      const a2 = next(a, { status: 'retracted' });
      const s = rec({ kind: 'skill', keys: ['release', '', ''] });
      await store.records.write('x', () => [a, s]);
      await store.records.write('x', () => [a2]);
      const rows: StoredRecord[] = [];
      for await (const r of store.records.exportRecords()) rows.push(r);
      assert.deepEqual(
        rows,
        [a, s, a2].map((r) => kept(store, r)),
      );
      const { store: other } = await openService({ backend });
      assert.deepEqual(await other.records.importRecords(rows), { added: 3, skipped: 0 });
      assert.deepEqual(await other.records.importRecords(rows), { added: 0, skipped: 3 });
      assert.deepEqual(await other.records.get('fact', a.id), kept(other, a2));
      assert.deepEqual(await other.records.history('skill', s.id), [kept(other, s)]);
      // Memories and records do not see each other.
      assert.deepEqual(await other.list({ deleted: false, limit: 10 }), []);
      await Promise.all([store.close(), other.close()]);
    });

    it('decides the current version by changedAt, not arrival (an import of an older version does not win)', async () => {
      const { store } = await openService({ backend });
      const a = rec();
      const newer = next(a, { status: 'disputed' });
      const older = { ...next(a, { status: 'retracted' }), changedAt: new Date(Date.parse(a.changedAt) + 1).toISOString() };
      await store.records.importRecords([a, newer]);
      await store.records.importRecords([older]);
      assert.equal((await store.records.get('fact', a.id))!.status, 'disputed');
      assert.equal((await store.records.history('fact', a.id)).length, 3);
      await store.close();
    });
  });
