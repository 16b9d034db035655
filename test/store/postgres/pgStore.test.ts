import { strict as assert } from 'node:assert';
import { randomBytes, randomUUID } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import { ConflictError, StorageError } from '../../../src/core/errors';
import { MemoryService } from '../../../src/core/memoryService';
import { analyzeQuery } from '../../../src/core/search/query';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { MIGRATIONS } from '../../../src/store/postgres/migrations';
import { LIVE_COUNT_SQL } from '../../../src/store/postgres/termCounts';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import type { StoredVersion } from '../../../src/core/ports/store';
import { memory, openPg } from '../../helpers/builders';
import { blockedCall, PG_ADMIN_URL, requirePostgres, withClient } from '../../helpers/postgres';
import { PG_WRITER, runWriter } from '../../helpers/processes';
import { rejects } from '../../helpers/assertions';

describe('PostgreSQL store: concurrency, projects, schema, connection errors', function () {
  this.timeout(180_000);
  let url: string;
  before(async function () {
    url = await requirePostgres(this);
  });

  it('loses nothing when 4 processes each create 50 memories at once', async () => {
    const { store, service, project } = await openPg();
    const runs = await Promise.all([1, 2, 3, 4].map((i) => runWriter([url, project, 'create', '50', `proc-${i}`], PG_WRITER)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const acked = runs.flatMap((r) => r.acks.map((a) => a.split(' ')[1]!));
    assert.equal(acked.length, 200);
    assert.equal(new Set(acked).size, 200);
    assert.equal(await store.countVersions(), 200);
    for (const id of acked) assert.equal((await service.read({ id })).version, 1);
    assert.deepEqual(
      (await service.tags({})).tags.map((t) => t.count),
      [50, 50, 50, 50],
    );
    await store.close();
  });

  it('keeps every version, numbered 1..N without gaps, when 4 processes edit one memory at once', async () => {
    const { store, service, project } = await openPg();
    const { id } = await service.create(memory());
    const runs = await Promise.all([1, 2, 3, 4].map(() => runWriter([url, project, 'edit', '25', id], PG_WRITER)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const versions = runs.flatMap((r) => r.acks.map((a) => Number(a.split(' ')[2])));
    assert.equal(new Set(versions).size, 100, 'each acknowledged edit got its own version number');
    const history = await service.history({ id });
    assert.deepEqual(
      history.map((h) => h.version),
      Array.from({ length: 101 }, (_, i) => i + 1),
    );
    for (let i = 1; i < history.length; i++) assert.ok(history[i]!.changedAt > history[i - 1]!.changedAt);
    assert.equal(new Set(history.slice(1).map((h) => h.author)).size, 4);
    assert.equal((await service.read({ id })).version, 101);
    await store.close();
  });

  it('serialises writers on separate pools in one process: creates and same-id edits all kept', async () => {
    const first = await openPg();
    const others = await Promise.all([1, 2].map(() => openPg({ project: first.project })));
    const all = [first, ...others];
    const created = await Promise.all(
      all.flatMap((o, c) => Array.from({ length: 20 }, (_, i) => o.service.create(memory({ description: `pool ${c} note ${i}` })))),
    );
    assert.equal(new Set(created.map((r) => r.id)).size, 60);
    const { id } = created[0]!;
    const edits = await Promise.all(
      all.flatMap((o, c) => Array.from({ length: 10 }, (_, i) => o.service.edit({ id, content: `pool ${c} edit ${i}` }))),
    );
    assert.deepEqual(
      edits.map((e) => e.version).sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, i) => i + 2),
    );
    assert.equal(await first.store.countVersions(), 90);
    for (const o of all) await o.store.close();
  });

  it('refuses an edit from another client with a stale expected version, naming the current version', async () => {
    const a = await openPg();
    const b = await openPg({ project: a.project });
    const { id } = await a.service.create(memory());
    await a.service.edit({ id, content: 'second', expectedVersion: 1 });
    const err = await rejects(b.service.edit({ id, content: 'stale', expectedVersion: 1 }), ConflictError, /is at version 2, not 1/);
    assert.equal(err.currentVersion, 2);
    assert.equal((await b.service.read({ id })).content, 'second');
    await a.store.close();
    await b.store.close();
  });

  it('retries a write whose version number another transaction took first (the UNIQUE backstop)', async () => {
    const { store, service, project } = await openPg();
    const { id } = await service.create(memory({ content: 'v1' }));
    const current = (await store.current(id))!;
    const rival: StoredVersion = {
      ...current,
      rowId: randomUUID(),
      version: 2,
      op: 'edit',
      content: 'rival v2',
      changedAt: new Date(Date.parse(current.changedAt) + 1).toISOString(),
    };
    await withClient(url, async (raw) => {
      // An import-like writer that takes no per-id lock: its version 2 is inserted but not committed.
      await raw.query('BEGIN');
      await advanceHeads(raw, project, await insertVersions(raw, project, [rival]));
      const write = service.edit({ id, content: 'mine' });
      // Until the edit is blocked on the rival's uncommitted row.
      await blockedCall(url, 'INSERT INTO memory_versions');
      await raw.query('COMMIT');
      assert.deepEqual(await write, { id, version: 3, changed: true, changedFields: ['content'] });
    });
    assert.deepEqual(
      (await service.history({ id })).map((h) => [h.version, h.content]),
      [
        [1, 'v1'],
        [2, 'rival v2'],
        [3, 'mine'],
      ],
    );
    await store.close();
  });

  it('imports a row reusing a stored version number as a twin: both kept, the newer current, a write still numbered after both', async () => {
    const { store, service, upkeep } = await openPg();
    const { id } = await service.create(memory({ content: 'v1' }));
    await service.edit({ id, content: 'ours v2' });
    const ours = (await store.current(id))!;
    // The other clone's version 2: another rowId, one millisecond later, so it is the current one.
    const theirs: StoredVersion = {
      ...ours,
      rowId: randomUUID(),
      content: 'theirs v2',
      changedAt: new Date(Date.parse(ours.changedAt) + 1).toISOString(),
    };
    assert.deepEqual(await upkeep.importVersions([theirs]), { added: 1, skipped: 0 });
    assert.deepEqual(await upkeep.importVersions([theirs, ours]), { added: 0, skipped: 2 }, 'idempotent by rowId');
    assert.equal((await store.current(id))!.rowId, theirs.rowId);
    assert.equal((await store.version(id, 2))!.rowId, theirs.rowId, 'the newer twin answers for its number');
    assert.deepEqual(
      (await store.history(id)).map((h) => h.content),
      ['v1', 'ours v2', 'theirs v2'],
    );
    assert.equal((await service.edit({ id, content: 'v3' })).version, 3);
    await store.close();
  });

  it('keeps projects apart in one database', async () => {
    const a = await openPg();
    const b = await openPg();
    const { id } = await a.service.create(memory({ description: 'Only in project a', tags: ['alpha'] }));
    assert.equal((await a.service.search({ keywords: ['alpha'] })).length, 1);
    assert.deepEqual(await b.service.search({ keywords: ['alpha'] }), []);
    assert.deepEqual((await b.service.list({})).items, []);
    assert.deepEqual((await b.service.tags({})).tags, []);
    await assert.rejects(b.service.read({ id }), /does not exist/);
    assert.equal(await b.store.purge(id, 'tester@example.com'), 0);
    assert.equal((await a.service.read({ id })).version, 1);
    await a.store.close();
    await b.store.close();
  });

  it('does not bring a purged memory back when an old export is imported', async () => {
    const { store, service, upkeep } = await openPg();
    const { id } = await service.create(memory());
    const rows: StoredVersion[] = [];
    for await (const r of upkeep.exportVersions()) rows.push(r);
    await upkeep.purge({ id });
    assert.deepEqual(await upkeep.importVersions(rows), { added: 0, skipped: 1 });
    await assert.rejects(service.read({ id }), /does not exist/);
    await store.close();
  });

  it('keeps the live-memory count search weighs by exact through concurrent creates, deletes, restores, imports and purges', async () => {
    const first = await openPg();
    const others = await Promise.all([1, 2].map(() => openPg({ project: first.project })));
    const clients = [first, ...others];
    const created = await Promise.all(
      clients.flatMap((o, c) => Array.from({ length: 15 }, (_, i) => o.service.create(memory({ description: `counted ${c} ${i}` })))),
    );
    const exported: StoredVersion[] = [];
    for await (const r of first.upkeep.exportVersions()) exported.push(r);
    const other = await openPg();
    await Promise.all([
      ...created.slice(0, 12).map((m, i) => clients[i % 3]!.service.delete({ id: m.id })),
      other.upkeep.importVersions(exported),
      first.upkeep.importVersions(exported),
    ]);
    // Purges race restores, not imports: an import racing a purge can still bring the memory back
    // (it does not see the uncommitted purge), which is another matter than the count.
    await Promise.all([
      ...created.slice(0, 5).map((m, i) => clients[i % 3]!.service.restore({ id: m.id })),
      ...created.slice(12, 16).map((m, i) => clients[i % 3]!.store.purge(m.id, 'tester@example.com')),
    ]);
    const counts = await withClient(first.url, (c) =>
      Promise.all(
        [first.project, other.project].map(async (project) => {
          const { rows } = await c.query<{ counted: number; live: number }>(
            `SELECT ${LIVE_COUNT_SQL}::int AS counted, (SELECT count(*)::int FROM memory_heads WHERE project = $1 AND NOT deleted) AS live`,
            [project],
          );
          return { project, ...rows[0]! };
        }),
      ),
    );
    assert.deepEqual(counts.map((r) => [r.project === first.project, r.counted]).sort(), [
      [false, 45],
      [true, 45 - 12 - 4 + 5],
    ]);
    for (const r of counts) assert.equal(r.counted, r.live, r.project);
    for (const o of [...clients, other]) await o.store.close();
  });

  describe('schema on a fresh database', () => {
    let db: string;
    let dbUrl: string;
    before(async () => {
      db = `agent_memory_test_${randomBytes(6).toString('hex')}`;
      await withClient(PG_ADMIN_URL, (c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${db}`;
      dbUrl = u.toString();
    });
    after(async () => {
      await withClient(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`));
    });

    it('is created once when several clients connect at the same moment', async () => {
      const stores = await Promise.all(Array.from({ length: 6 }, (_, i) => PgStore.open({ connectionString: dbUrl, project: `p${i}` })));
      const versions = await withClient(dbUrl, (c) => c.query('SELECT version FROM agent_memory_schema ORDER BY version'));
      assert.deepEqual(
        versions.rows,
        MIGRATIONS.map((m) => ({ version: m.version })),
        'every migration applied once',
      );
      await Promise.all(stores.map((s, i) => new MemoryService(s, { author: 'x' }).create(memory({ description: `store ${i}` }))));
      for (const s of stores) await s.close();
    });

    it('refuses a database made by a newer release, and leaves it as it is', async () => {
      await withClient(dbUrl, (c) => c.query('INSERT INTO agent_memory_schema (version) VALUES (99)'));
      await rejects(PgStore.open({ connectionString: dbUrl, project: 'p' }), StorageError, /schema version 99, newer than this release/);
      const versions = await withClient(dbUrl, (c) => c.query('SELECT version FROM agent_memory_schema ORDER BY version'));
      assert.deepEqual(versions.rows, [...MIGRATIONS.map((m) => ({ version: m.version })), { version: 99 }]);
    });
  });

  it('upgrades a schema-1 database in place: its rows kept, live count seeded, found by both search paths, twins accepted afterwards', async () => {
    const db = `agent_memory_test_${randomBytes(6).toString('hex')}`;
    await withClient(PG_ADMIN_URL, (c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
    try {
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${db}`;
      const id = randomUUID();
      await withClient(u.toString(), async (c) => {
        // The database as release 1 left it: schema 1 and one stored row.
        await c.query('CREATE TABLE agent_memory_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        await c.query(MIGRATIONS[0]!.sql);
        await c.query('INSERT INTO agent_memory_schema (version) VALUES (1)');
        const rowId = randomUUID();
        const { rows } = await c.query<{ seq: string }>(
          `INSERT INTO memory_versions (project, row_id, id, version, op, description, tags, content, changed_at, author)
           VALUES ('p', $1, $2, 1, 'create', 'old row', '{old}', 'c', '2026-01-01T00:00:00Z', 'x') RETURNING seq`,
          [rowId, id],
        );
        await advanceHeads(c, 'p', [
          {
            rowId,
            id,
            version: 1,
            op: 'create',
            description: 'old row',
            tags: ['old'],
            content: 'c',
            changedAt: '2026-01-01T00:00:00.000Z',
            deletedAt: null,
            author: 'x',
            seq: rows[0]!.seq,
          },
        ]);
      });
      const store = await PgStore.open({ connectionString: u.toString(), project: 'p' });
      const [row] = await store.history(id);
      assert.equal(row?.description, 'old row');
      // The migrations seeded the live count from the heads; both search paths find the old memory.
      const live = await withClient(u.toString(), (c) => c.query<{ n: number }>(`SELECT ${LIVE_COUNT_SQL}::int AS n`, ['p']));
      assert.equal(live.rows[0]!.n, 1);
      for (const localIndex of ['off', 'eager'] as const) {
        const s = await PgStore.open({ connectionString: u.toString(), project: 'p', localIndex });
        assert.deepEqual(
          (await s.search(analyzeQuery(['old'], [], 5))).map((h) => h.id),
          [id],
          localIndex,
        );
        await s.close();
      }
      const twin: StoredVersion = { ...row!, rowId: randomUUID(), description: 'twin', changedAt: '2026-01-01T00:00:00.001Z' };
      assert.deepEqual(await store.importVersions([twin]), { added: 1, skipped: 0 });
      assert.deepEqual(
        (await store.history(id)).map((h) => `${h.version}:${h.description}`),
        ['1:old row', '1:twin'],
      );
      await store.close();
    } finally {
      await withClient(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`));
    }
  });

  it('reports an unreachable server as a StorageError naming the host, never the password', async () => {
    const err = await rejects(
      PgStore.open({
        connectionString: 'postgres://someone:hunter2secret@127.0.0.1:1/nowhere',
        project: 'p',
        pool: { connectionTimeoutMillis: 5000 },
      }),
      StorageError,
      /cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(database nowhere, user someone\)/,
    );
    assert.ok(!err.message.includes('hunter2secret'));
  });
});
