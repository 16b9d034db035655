import { strict as assert } from 'node:assert';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';
import { StorageError } from '../../../src/core/errors';
import { MemoryService } from '../../../src/core/memoryService';
import { analyzeQuery } from '../../../src/core/search/query';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { advanceRecordHeads, insertRecords } from '../../../src/store/postgres/recordRows';
import { MIGRATIONS } from '../../../src/store/postgres/migrations';
import { LIVE_COUNT_SQL } from '../../../src/store/postgres/termCounts';
import { advanceHeads } from '../../../src/store/postgres/versionRows';
import type { StoredRecord } from '../../../src/core/ports/records';
import type { StoredVersion } from '../../../src/core/ports/store';
import { memory, openPg } from '../../helpers/builders';
import { PG_ADMIN_URL, requirePostgres, withClient } from '../../helpers/postgres';

let clock = Date.parse('2026-03-01T00:00:00.000Z');
const tick = () => new Date((clock += 1000)).toISOString();

function rec(over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    rowId: randomUUID(),
    kind: 'report',
    id: randomUUID(),
    version: 1,
    op: 'create',
    status: 'run',
    keys: ['counter', '', ''],
    rank: 0,
    dueAt: null,
    data: { n: 0 },
    changedAt: tick(),
    deletedAt: null,
    author: 'ana@example.com',
    ...over,
  };
}

const next = (r: StoredRecord, over: Partial<StoredRecord> = {}): StoredRecord => ({
  ...r,
  rowId: randomUUID(),
  version: r.version + 1,
  op: 'edit',
  changedAt: tick(),
  ...over,
});

/** Record version rows of a project, counted underneath the store. */
async function rowsOf(url: string, project: string): Promise<number> {
  const { rows } = await withClient(url, (c) =>
    c.query<{ n: number }>('SELECT count(*)::int AS n FROM record_versions WHERE project = $1', [project]),
  );
  return rows[0]!.n;
}

/** Resolves once `n` sessions of this database wait on a lock (the interleaving a test needs). */
async function lockWaiters(admin: Client, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} lock waiters after 30 s`);
}

describe('PostgreSQL store: records (what only the server has)', function () {
  this.timeout(120_000);
  before(async function () {
    await requirePostgres(this);
  });

  it('upgrades a schema-3 database holding memories to schema 4: memories kept and still written, searched, counted; records work', async () => {
    const db = `agent_memory_test_${randomBytes(6).toString('hex')}`;
    await withClient(PG_ADMIN_URL, (c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${db}`;
    const url = u.toString();
    try {
      const ids = [randomUUID(), randomUUID()];
      await withClient(url, async (c) => {
        // The database as release 3 left it: schemas 1–3 and two memories, one edited.
        await c.query('CREATE TABLE agent_memory_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        for (const m of MIGRATIONS.filter((m) => m.version <= 3)) {
          await c.query(m.sql);
          await c.query('INSERT INTO agent_memory_schema (version) VALUES ($1)', [m.version]);
        }
        const rows: StoredVersion[] = ids.map((id, i) => ({
          rowId: randomUUID(),
          id,
          version: 1,
          op: 'create',
          description: `kept memory ${i}`,
          tags: ['kept'],
          content: 'c',
          changedAt: `2026-01-01T00:00:0${i}.000Z`,
          deletedAt: null,
          author: 'x',
          restoredFrom: null,
        }));
        rows.push({
          ...rows[0]!,
          rowId: randomUUID(),
          version: 2,
          op: 'edit',
          description: 'kept memory 0, edited',
          changedAt: '2026-01-02T00:00:00.000Z',
        });
        // Inserted with release 3's columns (insertVersions writes the columns of later schemas).
        await c.query('BEGIN');
        const inserted: Array<StoredVersion & { seq: string }> = [];
        for (const r of rows) {
          const { rows: out } = await c.query<{ seq: string }>(
            `INSERT INTO memory_versions (project, row_id, id, version, op, description, tags, content, changed_at, deleted_at, author, restored_from)
             VALUES ('p', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING seq`,
            [r.rowId, r.id, r.version, r.op, r.description, r.tags, r.content, r.changedAt, r.deletedAt, r.author, r.restoredFrom],
          );
          inserted.push({ ...r, seq: out[0]!.seq });
        }
        await advanceHeads(c, 'p', inserted);
        await c.query('COMMIT');
      });
      const store = await PgStore.open({ connectionString: url, project: 'p', localIndex: 'off' });
      try {
        const versions = await withClient(url, (c) =>
          c.query<{ version: number }>('SELECT version FROM agent_memory_schema ORDER BY version'),
        );
        assert.deepEqual(
          versions.rows.map((r) => r.version),
          MIGRATIONS.map((m) => m.version),
        );
        assert.deepEqual(
          (await store.history(ids[0]!)).map((v) => `${v.version}:${v.description}`),
          ['1:kept memory 0', '2:kept memory 0, edited'],
        );
        assert.equal((await store.current(ids[1]!))?.description, 'kept memory 1');
        assert.deepEqual((await store.search(analyzeQuery(['kept'], [], 5))).map((h) => h.id).sort(), [...ids].sort());
        const service = new MemoryService(store, { author: 'x' });
        assert.equal((await service.edit({ id: ids[1]!, content: 'after the upgrade' })).version, 2);
        await service.create(memory({ description: 'written after the upgrade' }));
        const live = await withClient(url, (c) => c.query<{ n: number }>(`SELECT ${LIVE_COUNT_SQL}::int AS n`, ['p']));
        assert.equal(live.rows[0]!.n, 3);
        const r = rec();
        await store.records.write('s', () => [r]);
        // Stored with the role the database recorded for the connection that wrote it.
        assert.deepEqual(await store.records.get('report', r.id), { ...r, dbRole: store.dbRole! });
      } finally {
        await store.close();
      }
      // A second open finds the schema current and migrates nothing.
      const again = await PgStore.open({ connectionString: url, project: 'p', localIndex: 'off' });
      assert.equal(await again.records.count({ kind: 'report' }), 1);
      await again.close();
    } finally {
      await withClient(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`));
    }
  });

  it('serialises writers of one scope on two separate stores: 2 × 20 read-then-increment decisions, 40 increments, versions 1..41', async () => {
    const a = await openPg({ localIndex: 'off' });
    const b = await openPg({ project: a.project, localIndex: 'off' });
    try {
      const counter = rec();
      await a.store.records.write('counter', () => [counter]);
      const increment = (store: PgStore) =>
        store.records.write('counter', async (r) => {
          const cur = (await r.get('report', counter.id))!;
          return [next(cur, { version: (await r.maxVersion('report', counter.id)) + 1, data: { n: (cur.data.n as number) + 1 } })];
        });
      await Promise.all([a.store, b.store].flatMap((s) => Array.from({ length: 20 }, () => increment(s))));
      assert.equal((await b.store.records.get('report', counter.id))!.data.n, 40);
      assert.deepEqual(
        (await a.store.records.history('report', counter.id)).map((r) => r.version),
        Array.from({ length: 41 }, (_, i) => i + 1),
      );
    } finally {
      await a.store.close();
      await b.store.close();
    }
  });

  it('stores no row of a write whose decision throws, nor of one whose later row cannot go in', async () => {
    const { store, url, project } = await openPg({ localIndex: 'off' });
    try {
      const gone = rec();
      await store.records.write('s', () => [gone]);
      await store.records.purge('report', [gone.id], 'tester@example.com');
      const before = await rowsOf(url, project);
      await assert.rejects(
        store.records.write('s', async (r) => {
          await r.query({ kind: 'report', limit: 10 });
          throw new Error('refused by the decision');
        }),
        (err: Error) => err.message === 'refused by the decision' && !(err instanceof StorageError),
      );
      // The first row would go in; the second is of a purged id: neither is kept.
      const fresh = rec();
      await assert.rejects(
        store.records.write('s', () => [fresh, next(gone)]),
        /was purged; it cannot be written again/,
      );
      assert.equal(await rowsOf(url, project), before);
      assert.equal(await store.records.get('report', fresh.id), undefined);
    } finally {
      await store.close();
    }
  });

  it('keeps the records of two projects in one database invisible to each other', async () => {
    const a = await openPg({ localIndex: 'off' });
    const b = await openPg({ localIndex: 'off' });
    try {
      const r = rec({ kind: 'fact', keys: ['api', 'owned_by', 'team-x'], status: 'active' });
      await a.store.records.write('fact:api', () => [r]);
      assert.equal(await b.store.records.get('fact', r.id), undefined);
      assert.equal(await b.store.records.maxVersion('fact', r.id), 0);
      assert.deepEqual(await b.store.records.history('fact', r.id), []);
      assert.deepEqual(await b.store.records.query({ kind: 'fact', keys: ['api'], limit: 10 }), []);
      assert.equal(await b.store.records.count({ kind: 'fact' }), 0);
      const exported: StoredRecord[] = [];
      for await (const row of b.store.records.exportRecords()) exported.push(row);
      assert.deepEqual(exported, []);
      assert.equal(await b.store.records.purge('fact', [r.id], 'tester@example.com'), 0);
      // Project b may hold the same rows as its own copy; a purge there leaves a's alone.
      assert.deepEqual(await b.store.records.importRecords([r]), { added: 1, skipped: 0 });
      assert.equal(await b.store.records.purge('fact', [r.id], 'tester@example.com'), 1);
      assert.deepEqual(await a.store.records.history('fact', r.id), [{ ...r, dbRole: a.store.dbRole! }]);
    } finally {
      await a.store.close();
      await b.store.close();
    }
  });

  it('holds a purge until a write of the project in flight commits, then purges its row too (the id does not come back)', async () => {
    const { store, url } = await openPg({ localIndex: 'off' });
    const admin = new Client({ connectionString: url });
    await admin.connect();
    let release = () => {};
    try {
      const r = rec();
      await store.records.write('s', () => [r]);
      let reached!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const deciding = new Promise<void>((resolve) => (reached = resolve));
      const writing = store.records.write('s', async (reader) => {
        const cur = (await reader.get('report', r.id))!;
        reached();
        await gate;
        return [next(cur)];
      });
      await deciding;
      const purging = store.records.purge('report', [r.id], 'tester@example.com');
      await lockWaiters(admin, 1);
      release();
      assert.equal((await writing).length, 1);
      assert.equal(await purging, 2, 'the purge removed the version written while it waited');
      assert.equal(await store.records.get('report', r.id), undefined);
      assert.deepEqual(await store.records.history('report', r.id), []);
    } finally {
      release(); // a failed wait must not leave the write (and the pool) hanging
      await admin.end();
      await store.close();
    }
  });

  it('decides a write again when another transaction numbered the version first (the unique backstop)', async () => {
    const { store, url, project } = await openPg({ localIndex: 'off' });
    const holder = new Client({ connectionString: url });
    const admin = new Client({ connectionString: url });
    await holder.connect();
    await admin.connect();
    try {
      const r = rec();
      await store.records.write('s', () => [r]);
      // Another client (an import takes no scope lock) gives out version 2 and has not committed.
      await holder.query('BEGIN');
      await advanceRecordHeads(holder, project, await insertRecords(holder, project, [next(r, { data: { n: 'theirs' } })], true));
      let decisions = 0;
      const writing = store.records.write('s', async (reader) => {
        decisions++;
        return [next(r, { version: (await reader.maxVersion('report', r.id)) + 1, data: { n: 'ours' } })];
      });
      await lockWaiters(admin, 1);
      await holder.query('COMMIT');
      const [written] = await writing;
      assert.equal(decisions, 2);
      assert.equal(written!.version, 3);
      assert.deepEqual(
        (await store.records.history('report', r.id)).map((h) => `${h.version}:${h.data.n}`),
        ['1:0', '2:theirs', '3:ours'],
      );
    } finally {
      await holder.end();
      await admin.end();
      await store.close();
    }
  });

  it('refuses a query limit outside 1–1000 and a match of more than 500 values, as the workspace store does (checkRecordQuery)', async () => {
    const { store } = await openPg({ localIndex: 'off' });
    try {
      for (const limit of [0, 1001, 1.5]) await assert.rejects(store.records.query({ kind: 'fact', limit }), RangeError);
      const many = Array.from({ length: 501 }, (_, i) => `k${i}`);
      await assert.rejects(store.records.query({ kind: 'fact', keys: [many], limit: 10 }), /at most 500 values/);
      await assert.rejects(store.records.count({ kind: 'fact', status: many }), /at most 500 values/);
      assert.deepEqual(await store.records.query({ kind: 'fact', keys: [many.slice(0, 500)], limit: 1000 }), []);
    } finally {
      await store.close();
    }
  });
});
