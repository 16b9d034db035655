import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import type { StoredVersion } from '../../../src/core/ports/store';
import { memory, openPg, syntheticRows } from '../../helpers/builders';
import { requirePostgres, waitersAtLeast, withClient } from '../../helpers/postgres';

/**
 * memory_head_tags holds one row per (tag, live memory): the vocabulary with its counts and
 * the tag prefix lookups of the server-side search read it. Writes keep it by deleting the tag
 * rows of the tags a head had before (found through the primary key), so these tests check
 * that the table stays exactly the live heads' tags through every kind of change.
 */
describe('PostgreSQL store: the tag rows follow the live heads', function () {
  this.timeout(120_000);
  let url: string;
  before(async function () {
    url = await requirePostgres(this);
  });

  /** The tag rows that are not some live head's tag, and the live heads' tags without a row. */
  async function mismatches(project: string): Promise<{ stray: string[]; missing: string[] }> {
    return withClient(url, async (c) => {
      const stray = await c.query<{ k: string }>(
        `SELECT tag || ' ' || id AS k FROM memory_head_tags WHERE project = $1
         EXCEPT SELECT DISTINCT tag || ' ' || id FROM memory_heads, unnest(tags) AS tag WHERE project = $1 AND NOT deleted`,
        [project],
      );
      const missing = await c.query<{ k: string }>(
        `SELECT DISTINCT tag || ' ' || id AS k FROM memory_heads, unnest(tags) AS tag WHERE project = $1 AND NOT deleted
         EXCEPT SELECT tag || ' ' || id FROM memory_head_tags WHERE project = $1`,
        [project],
      );
      return { stray: stray.rows.map((r) => r.k), missing: missing.rows.map((r) => r.k) };
    });
  }

  async function exported(store: PgStore, id: string): Promise<StoredVersion[]> {
    const rows: StoredVersion[] = [];
    for await (const r of store.exportVersions()) if (r.id === id) rows.push(r);
    return rows;
  }

  it('drops and adds tag rows as edits, deletes, restores and purges change the tags', async () => {
    const { store, service, project } = await openPg();
    try {
      const a = await service.create(memory({ description: 'Pinned the esbuild version', tags: ['esbuild', 'build'] }));
      const b = await service.create(memory({ description: 'Docker compose keeps restarting', tags: ['docker', 'build'] }));
      await service.edit({ id: a.id, tags: ['esbuild', 'bundler'] });
      assert.deepEqual(await mismatches(project), { stray: [], missing: [] });
      assert.deepEqual((await service.tags({})).tags, [
        { tag: 'build', count: 1 },
        { tag: 'bundler', count: 1 },
        { tag: 'docker', count: 1 },
        { tag: 'esbuild', count: 1 },
      ]);
      await service.delete({ id: b.id });
      assert.deepEqual(
        (await service.tags({})).tags.map((t) => t.tag),
        ['bundler', 'esbuild'],
      );
      await service.restore({ id: b.id });
      await service.edit({ id: b.id, tags: ['docker'] });
      assert.deepEqual(
        (await service.tags({})).tags.map((t) => t.tag),
        ['bundler', 'docker', 'esbuild'],
      );
      await store.purge(a.id, 'tester@example.com');
      assert.deepEqual((await service.tags({})).tags, [{ tag: 'docker', count: 1 }]);
      assert.deepEqual(await mismatches(project), { stray: [], missing: [] });
    } finally {
      await store.close();
    }
  });

  it('leaves no stale tag row when an import moves a head another transaction is moving (imports take no per-id lock)', async () => {
    const a = await openPg();
    const b = await PgStore.open({ connectionString: a.url, project: a.project, pool: { max: 2 }, localIndex: 'off' });
    const first = new Client({ connectionString: a.url });
    const admin = new Client({ connectionString: a.url });
    await first.connect();
    await admin.connect();
    try {
      const { id } = await a.service.create(memory({ tags: ['alpha'] }));
      const [v1] = await exported(a.store, id);
      const next = (version: number, tags: string[]): StoredVersion => ({
        ...v1!,
        rowId: randomUUID(),
        version,
        op: 'edit',
        tags,
        changedAt: new Date(Date.parse(v1!.changedAt) + version * 1000).toISOString(),
      });
      // One import moves the head to [beta] and has not committed; a second, newer one waits
      // for the head, then moves it to [gamma] once the first commits.
      await first.query('BEGIN');
      await advanceHeads(first, a.project, await insertVersions(first, a.project, [next(2, ['beta'])], true));
      const importing = b.importVersions([next(3, ['gamma'])]);
      await waitersAtLeast(admin, 1);
      await first.query('COMMIT');
      await importing;
      assert.deepEqual((await a.store.current(id))?.tags, ['gamma']);
      assert.deepEqual(await mismatches(a.project), { stray: [], missing: [] });
      assert.deepEqual((await a.service.tags({})).tags, [{ tag: 'gamma', count: 1 }]);
    } finally {
      await first.end();
      await admin.end();
      await b.close();
      await a.store.close();
    }
  });

  it('moves a batch of heads reading only their own tag rows, however many the project holds and however stale its statistics', async () => {
    const { store, url, project } = await openPg();
    try {
      // Thousands of live memories and their tag rows, never analysed (a server without
      // autovacuum, or an import running ahead of it): the planner cannot know the table's size.
      const rows = syntheticRows(4000, 23, 1_000_000);
      await store.importVersions(rows);
      const edits = rows.slice(0, 20).map((r, i) => ({
        ...r,
        rowId: randomUUID(),
        version: 2,
        op: 'edit' as const,
        tags: [`retagged-${i}`],
        changedAt: new Date(Date.parse(r.changedAt) + 1000).toISOString(),
      }));
      const read = await withClient(url, async (c) => {
        await c.query('BEGIN');
        await advanceHeads(c, project, await insertVersions(c, project, edits, true));
        const { rows: stats } = await c.query<{ n: string }>(
          `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE relname = 'memory_head_tags'`,
        );
        await c.query('COMMIT');
        return Number(stats[0]!.n);
      });
      // 20 heads with at most 3 old tags each: each old tag row is looked up once, then deleted.
      assert.ok(read <= 20 * 3 * 2, `read ${read} tag rows to move 20 heads`);
      assert.deepEqual(await mismatches(project), { stray: [], missing: [] });
    } finally {
      await store.close();
    }
  });

  it('keeps the tag rows of the newest version through imports: older versions, several versions of one id in a batch, large batches', async () => {
    const source = await openPg();
    const target = await openPg();
    try {
      const { id } = await source.service.create(memory({ tags: ['one', 'shared'] }));
      await source.service.edit({ id, tags: ['two', 'shared'] });
      await source.service.edit({ id, tags: ['three'] });
      const versions = await exported(source.store, id);
      // The newest version first, then the older ones: the head and its tags stay on version 3.
      await target.store.importVersions([versions[2]!]);
      await target.store.importVersions([versions[0]!, versions[1]!]);
      assert.deepEqual((await target.service.tags({})).tags, [{ tag: 'three', count: 1 }]);

      // Every version of another memory in one batch, in the order written.
      const other = randomUUID();
      const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
      const v = (version: number, tags: string[], deleted = false): StoredVersion => ({
        rowId: randomUUID(),
        id: other,
        version,
        op: version === 1 ? 'create' : deleted ? 'delete' : 'edit',
        description: 'Imported note',
        tags,
        content: 'x',
        changedAt: at(version),
        deletedAt: deleted ? at(version) : null,
        author: 'import',
        restoredFrom: null,
      });
      await target.store.importVersions([v(1, ['alpha']), v(2, ['beta', 'gamma'])]);
      await target.store.importVersions([v(3, ['gamma', 'delta']), v(4, ['gamma', 'delta'], true)]);
      assert.deepEqual(
        (await target.service.tags({})).tags.map((t) => t.tag),
        ['three'],
      );

      // Thousands of rows in two large batches, some deleting what the first batch created,
      // with statistics gathered between them as autovacuum would.
      const rows = syntheticRows(3000, 11, 4);
      await target.store.importVersions(rows.filter((r) => r.version === 1));
      await withClient(target.url, (c) => c.query('ANALYZE'));
      await target.store.importVersions(rows.filter((r) => r.version === 2));
      assert.deepEqual(await mismatches(target.project), { stray: [], missing: [] });
      const live = new Map<string, StoredVersion>();
      for (const r of rows) if ((live.get(r.id)?.version ?? 0) < r.version) live.set(r.id, r);
      const expected = new Map<string, number>([['three', 1]]);
      for (const r of live.values()) if (!r.deletedAt) for (const t of r.tags) expected.set(t, (expected.get(t) ?? 0) + 1);
      const counted = new Map((await target.store.tagCounts()).map((t) => [t.tag, t.count]));
      assert.deepEqual(counted, expected);
    } finally {
      await source.store.close();
      await target.store.close();
    }
  });
});
