import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import { analyzeMemory, flatTerms } from '../../../src/core/search/analysis';
import type { StoredVersion } from '../../../src/core/ports/store';
import { MIGRATIONS } from '../../../src/store/postgres/migrations';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { foldTermChanges, LIVE_COUNT_SQL, LIVE_TERM, STEM_MARK, TAG_MARK, termStats } from '../../../src/store/postgres/termCounts';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import { liveMemories, memory, openPg, syntheticRows } from '../../helpers/builders';
import { PG_ADMIN_URL, requirePostgres, withClient } from '../../helpers/postgres';
import { MemoryService } from '../../../src/core/memoryService';

type Pg = Awaited<ReturnType<typeof openPg>>;

/**
 * How many live memories hold each lexeme (flatTerms: content terms marked), carry each tag and
 * tag stem (marked), recounted from the versions; and how many are live (LIVE_TERM).
 */
function recount(rows: StoredVersion[]): Map<string, number> {
  const df = new Map<string, number>();
  const live = liveMemories(rows);
  if (live.length) df.set(LIVE_TERM, live.length);
  for (const m of live) {
    const a = analyzeMemory(m);
    for (const t of new Set([...flatTerms(a), ...m.tags.map((tag) => TAG_MARK + tag), ...a.tagStems.map((s) => STEM_MARK + s)]))
      df.set(t, (df.get(t) ?? 0) + 1);
  }
  return df;
}

/** Every term count the database keeps for the project (the totals plus the changes not folded), zero counts left out. */
async function kept(url: string, project: string): Promise<Map<string, number>> {
  const { rows } = await withClient(url, (c) =>
    c.query<{ term: string; n: string }>(
      `SELECT term, sum(n) AS n FROM (
         SELECT term, n FROM memory_term_counts WHERE project = $1 UNION ALL SELECT term, d FROM memory_term_changes WHERE project = $1
       ) c GROUP BY term HAVING sum(n) <> 0`,
      [project],
    ),
  );
  return new Map(rows.map((r) => [r.term, Number(r.n)]));
}

async function changeRows(url: string, project: string): Promise<number> {
  const { rows } = await withClient(url, (c) =>
    c.query<{ n: number }>('SELECT count(*)::int AS n FROM memory_term_changes WHERE project = $1', [project]),
  );
  return rows[0]!.n;
}

async function exported(pg: Pg): Promise<StoredVersion[]> {
  const out: StoredVersion[] = [];
  for await (const v of pg.store.exportVersions()) out.push(v);
  return out;
}

/** Fails unless the kept counts are the recount of `rows` (by default the project's versions), term by term. */
async function assertExact(pg: Pick<Pg, 'url' | 'project'> & Partial<Pg>, what: string, rows?: StoredVersion[]): Promise<void> {
  const want = recount(rows ?? (await exported(pg as Pg)));
  const got = await kept(pg.url, pg.project);
  const wrong = [...new Set([...want.keys(), ...got.keys()])].filter((t) => want.get(t) !== got.get(t));
  assert.deepEqual(
    wrong.slice(0, 5).map((t) => [t, got.get(t), want.get(t)]),
    [],
    `${what}: ${wrong.length} of ${want.size} terms miscounted (term, kept, recounted)`,
  );
  assert.ok(want.size > 0, 'something is counted');
}

async function fold(pg: Pg): Promise<boolean> {
  return withClient(pg.url, async (c) => {
    await c.query('BEGIN');
    const folded = await foldTermChanges(c, pg.project);
    await c.query('COMMIT');
    return folded;
  });
}

/**
 * The document frequencies a search on the server weighs a keyword's words by (termCounts.ts):
 * kept by triggers on memory_heads as changes, folded into totals now and then. They must be
 * exactly what counting the live memories gives, or the server would rank otherwise than
 * SearchIndex.
 */
describe('PostgreSQL term counts: kept by the heads’ triggers (termCounts.ts)', function () {
  this.timeout(180_000);
  before(async function () {
    await requirePostgres(this);
  });

  it('count the live memories a statement adds, deletes or revives with one change row, whatever their number (schema 13)', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const rows = syntheticRows(400).filter((r) => r.op === 'create');
    const liveChanges = async (c: Parameters<Parameters<typeof withClient>[1]>[0]) =>
      (
        await c.query<{ n: number; d: number }>(
          'SELECT count(*)::int AS n, coalesce(sum(d), 0)::int AS d FROM memory_term_changes WHERE project = $1 AND term = $2',
          [pg.project, LIVE_TERM],
        )
      ).rows[0]!;
    await withClient(pg.url, async (c) => {
      await c.query('BEGIN');
      await advanceHeads(c, pg.project, await insertVersions(c, pg.project, rows, true));
      // Schema 3's row triggers updated one counter row once per head (their commit took time
      // in the square of the heads); the statement's trigger adds one change row for all of them.
      assert.deepEqual(await liveChanges(c), { n: 1, d: rows.length });
      await c.query('UPDATE memory_heads SET deleted_at = now() WHERE project = $1 AND id = ANY ($2)', [
        pg.project,
        rows.slice(0, 150).map((r) => r.id),
      ]);
      assert.deepEqual(await liveChanges(c), { n: 2, d: rows.length - 150 });
      await c.query('COMMIT');
    });
    const { rows: live } = await withClient(pg.url, (c) => c.query<{ n: number }>(`SELECT ${LIVE_COUNT_SQL}::int AS n`, [pg.project]));
    assert.equal(live[0]!.n, rows.length - 150);
    await pg.store.close();
  });

  it('equal a recount of the live memories after an import, edits, deletes, restores and purges, folded or not', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const rows = syntheticRows(600);
    await pg.store.importVersions(rows);
    await assertExact(pg, 'after the import');
    assert.equal(await changeRows(pg.url, pg.project), 0, 'an import folds what it added');

    const ids = liveMemories(rows).map((m) => m.id);
    for (const [i, id] of ids.slice(0, 60).entries()) {
      if (i % 4 === 0) {
        await pg.service.delete({ id });
        if (i % 8 === 0) await pg.service.restore({ id });
      } else
        await pg.service.edit({
          id,
          description: `Rewrote the ${i % 2 ? 'flaky webpack' : 'kotlin-config'} note number ${i}`,
          content: i % 3 ? `The zookeeper quorum fell to ${i} nodes` : 'Nothing else to add here.',
          tags: i % 2 ? ['webpack', `w${i}`] : ['kotlin-config'],
        });
    }
    // The last write must not be one that folds (one in 32 does, at random), or no change would be left.
    const random = Math.random;
    Math.random = () => 0.999;
    const made = await pg.service.create(memory({ description: 'A memory about quokkas', tags: ['quokka'] })).finally(() => {
      Math.random = random;
    });
    await assertExact(pg, 'after edits, deletes and restores');
    assert.ok((await changeRows(pg.url, pg.project)) > 0, 'writes add changes; most do not fold');
    assert.equal(await fold(pg), true);
    assert.equal(await changeRows(pg.url, pg.project), 0, 'a fold takes every committed change');
    await assertExact(pg, 'after a fold');

    assert.equal(await pg.store.purge(made.id, 'tester'), 1);
    assert.ok((await pg.store.purge(ids[0]!, 'tester')) >= 3, 'created, deleted, restored');
    await assertExact(pg, 'after purges');
    // What a search reads: a term's count in the description and tags plus among content terms.
    const want = recount(await exported(pg));
    const both = [...want.keys()].filter((t) => !t.startsWith('~') && want.has(`~${t}`));
    const terms = [...both.slice(0, 5), 'quokka', 'nowhere'];
    assert.ok(both.length > 0, 'some terms are held in the description by some memories, in the content by others');
    const stats = await withClient(pg.url, async (c) => termStats(c, pg.project, terms, ['webpack', 'nowhere']));
    for (const t of terms) assert.equal(stats.df(t), (want.get(t) ?? 0) + (want.get(`~${t}`) ?? 0), t);
    assert.equal(stats.live, liveMemories(await exported(pg)).length);
    const live = liveMemories(await exported(pg));
    for (const tag of ['webpack', 'nowhere'])
      assert.equal(stats.tagged(tag), live.filter((m) => m.tags.includes(tag)).length, `tag ${tag}`);
    assert.ok(stats.tagged('webpack') > 0);
    await pg.store.close();
  });

  it('stay exact when six clients write at once while others fold, and a second fold finds the lock taken', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const url = pg.url;
    const stores = await Promise.all(
      Array.from({ length: 6 }, () => PgStore.open({ connectionString: url, project: pg.project, localIndex: 'off', pool: { max: 2 } })),
    );
    const services = stores.map((s) => new MemoryService(s, { author: 'w' }));
    let stop = false;
    const folder = (async () => {
      let folds = 0;
      while (!stop) if (await fold(pg)) folds++;
      return folds;
    })();
    await Promise.all(
      services.map(async (service, w) => {
        for (let i = 0; i < 25; i++) {
          const { id } = await service.create(
            memory({ description: `Writer ${w} note ${i} about build caches`, tags: ['build', `w${w}`] }),
          );
          if (i % 2) await service.edit({ id, description: `Writer ${w} note ${i} about flaky tests`, tags: ['test'] });
          if (i % 5 === 0) await service.delete({ id });
        }
      }),
    );
    stop = true;
    assert.ok((await folder) > 0, 'folds ran beside the writers');
    await assertExact(pg, 'after concurrent writers and folds');

    // A fold holding the lock: another one gives way at once instead of waiting.
    await withClient(url, async (holder) => {
      await holder.query('BEGIN');
      assert.equal(await foldTermChanges(holder, pg.project), true);
      assert.equal(await fold(pg), false, 'the project is being folded by another transaction');
      await holder.query('COMMIT');
    });
    for (const s of stores) await s.close();
    await pg.store.close();
  });

  it('are seeded by the migration from the heads a schema-7 database holds', async () => {
    const db = `agent_memory_test_${randomBytes(6).toString('hex')}`;
    await withClient(PG_ADMIN_URL, (c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
    try {
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${db}`;
      const rows = syntheticRows(200);
      await withClient(u.toString(), async (c) => {
        await c.query('CREATE TABLE agent_memory_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        for (const m of MIGRATIONS.filter((x) => x.version <= 7)) {
          await c.query(m.sql);
          await c.query('INSERT INTO agent_memory_schema (version) VALUES ($1)', [m.version]);
        }
        await advanceHeads(c, 'p', await insertVersions(c, 'p', rows, true));
      });
      const target = { url: u.toString(), project: 'p' };
      const before = await withClient(target.url, (c) =>
        c.query<{ t: string | null }>("SELECT to_regclass('memory_term_counts')::text AS t"),
      );
      assert.equal(before.rows[0]!.t, null, 'schema 7 has no counts');
      const store = await PgStore.open({ connectionString: target.url, project: 'p', localIndex: 'off' });
      await assertExact(target, 'seeded by the migration', rows);
      const made = await new MemoryService(store, { author: 'x' }).create(
        memory({ description: 'Quokka after the upgrade', tags: ['quokka'] }),
      );
      const after: StoredVersion[] = [];
      for await (const v of store.exportVersions()) after.push(v);
      assert.ok(after.some((v) => v.id === made.id));
      await assertExact(target, 'written after the upgrade', after);
      await store.close();
    } finally {
      await withClient(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE ${escapeIdentifier(db)} WITH (FORCE)`));
    }
  });
});
