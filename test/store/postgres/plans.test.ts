import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { StoredVersion } from '../../../src/core/ports/store';
import { createPool, PLAN_FOR_ANY_PROJECT } from '../../../src/store/postgres/connection';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import { openPg, syntheticRows } from '../../helpers/builders';
import { requirePostgres, withClient } from '../../helpers/postgres';

/**
 * A team database holds many projects, and the column statistics know only those present at the
 * last ANALYZE (autovacuum analyses a large table again only after 10% of it changed). The
 * store's statements must look a project's rows up by key whatever the statistics say of it.
 */
describe('PostgreSQL store: a project the statistics do not know is read by key', function () {
  this.timeout(120_000);
  let url: string;
  before(async function () {
    url = await requirePostgres(this);
  });

  /** Rows of `table` this transaction has read, by sequential or index scans. */
  async function rowsRead(client: PoolClient, table: string): Promise<number> {
    const { rows } = await client.query<{ n: string }>(
      `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE relname = $1`,
      [table],
    );
    return Number(rows[0]?.n ?? 0);
  }

  it("plans the store's statements for any project on every connection of its pool", async () => {
    const pool = createPool({ connectionString: url }, () => undefined);
    try {
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      const modes = await Promise.all(clients.map((c) => c.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')));
      clients.forEach((c) => c.release());
      assert.deepEqual(
        modes.map((m) => m.rows[0]!.plan_cache_mode),
        [PLAN_FOR_ANY_PROJECT, PLAN_FOR_ANY_PROJECT],
      );
    } finally {
      await pool.end();
    }
  });

  it('imports into and reads a new project beside an analysed one without reading the rows of either', async () => {
    const known = await openPg({ url });
    const fresh = await openPg({ url });
    const pool = createPool({ connectionString: url }, () => undefined);
    try {
      await known.store.importVersions(syntheticRows(2000, 31, 1_000_000));
      await withClient(url, (c) => c.query('ANALYZE memory_versions; ANALYZE memory_heads'));
      // Statistics taken before this project had a row; then two thousand of its memories.
      const rows = syntheticRows(2050, 37, 1_000_000);
      await fresh.store.importVersions(rows.slice(0, 2000));

      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // As on a table of many projects, which no statement may read whole: a scratch table of
        // 4,000 heads is cheaper to read than to look up 50 times, and the planner would (this
        // test passed only after other suites had filled the table). What is checked is the rest:
        // no index walk over a project's rows.
        await client.query('SET LOCAL enable_seqscan = off');
        const more = rows.slice(2000);
        await advanceHeads(client, fresh.project, await insertVersions(client, fresh.project, more, true));
        const read = (await rowsRead(client, 'memory_versions')) + (await rowsRead(client, 'memory_heads'));
        await client.query('COMMIT');
        // Per new row a few lookups by key (a stored twin, its head: none found; the heads written), not the project's rows.
        assert.ok(read <= more.length * 4, `read ${read} version and head rows to import ${more.length}`);

        await client.query('BEGIN');
        const before = await rowsRead(client, 'memory_heads');
        const id = rows[1000]!.id;
        const { rows: found } = await client.query<{ id: string }>('SELECT id FROM memory_heads WHERE project = $1 AND id = $2', [
          fresh.project,
          id,
        ]);
        const { rows: none } = await client.query('SELECT id FROM memory_heads WHERE project = $1 AND id = $2', [
          fresh.project,
          randomUUID(),
        ]);
        const readHeads = (await rowsRead(client, 'memory_heads')) - before;
        await client.query('COMMIT');
        assert.deepEqual(
          found.map((r) => r.id),
          [id],
        );
        assert.equal(none.length, 0);
        assert.ok(readHeads <= 2, `read ${readHeads} heads to look up two ids`);
      } finally {
        client.release();
      }
      assert.equal((await fresh.store.current(rows[2049]!.id))?.rowId, rows[2049]!.rowId);
    } finally {
      await pool.end();
      await known.store.close();
      await fresh.store.close();
    }
  });

  it("finds a block of words, a tag and a stem through one index scan that reads only the block's entries (schema 12)", async () => {
    const pg = await openPg({ url });
    const pool = createPool({ connectionString: url }, () => undefined);
    try {
      // 3,000 memories: half hold 'beta', a third carry the tag 'gamma', a fifth the tag 'deltas' (stem
      // 'delta'); independent, so 100 hold all three, as a broad search's best block at scale.
      const rows: StoredVersion[] = Array.from({ length: 3000 }, (_, i) => ({
        rowId: randomUUID(),
        id: randomUUID(),
        version: 1,
        op: 'create',
        description: `alpha ${i % 2 === 0 ? 'beta' : 'other'} note ${i}`,
        tags: [...(i % 3 === 0 ? ['gamma'] : ['misc']), ...(i % 5 === 0 ? ['deltas'] : [])],
        content: 'x',
        changedAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
        deletedAt: null,
        author: 'plans',
        restoredFrom: null,
      }));
      await pg.store.importVersions(rows);
      await withClient(url, (c) => c.query('ANALYZE memory_heads'));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // As the planner does at 1M memories, where a project's rows are too many to read: through
        // the GIN index (here the project is no index condition, and the table is not scanned).
        await client.query('SET LOCAL enable_seqscan = off');
        const { rows: found } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM memory_heads h WHERE h.project || '' = $1 AND NOT h.deleted
             AND h.search_vector @@ $2::tsquery AND h.tags @> $3::text[] AND h.tag_stems @> $4::text[]`,
          [pg.project, "'alpha' & 'beta'", ['gamma'], ['delta']],
        );
        const { rows: read } = await client.query<{ n: string }>(
          // Entries the heads' GIN indexes returned in this transaction (idx_tup_read, not flushed yet).
          `SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0)::text AS n FROM pg_index i
             JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'memory_heads'::regclass AND a.amname = 'gin'`,
        );
        await client.query('COMMIT');
        assert.equal(found[0]!.n, 100);
        // Three indexes' bitmaps, ANDed, would read every entry each condition reaches (1,500 + 1,000 + 600).
        assert.ok(Number(read[0]!.n) <= 2 * 100, `read ${read[0]!.n} index entries for a block of 100`);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
      await pg.store.close();
    }
  });
});
