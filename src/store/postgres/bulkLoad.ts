import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { StorageError } from '../../core/errors';
import type { StoredVersion } from '../../core/ports/store';
import { isNewer } from '../../core/ports/versionOrder';
import { ChunkPool, copyChunks } from './copyChunks';
import { CHUNK, CopyRows, framed } from './copyRows';
import { HEAD_COLUMNS, type LoadedHead, LOADED_HEAD_TRIGGERS, VERSION_COLUMNS, versionLine } from './loadLines';
import { LineEncoder } from './loadThreads';
import { foldTermChanges } from './termCounts';

// A load into a database that holds no memory yet (`migrate` to a new team database, VS Code's
// copy of a workspace store, the bench's seed). An import keeps every index as it goes: at 1M
// memories each row lands on pages of indexes that no longer fit the server's buffers (the
// search index's postings, the btrees of random ids and tags), the server writes pages back as
// fast as it reads them, and a seed took 790 s. A load drops the three tables' indexes, primary
// keys included, appends the versions as they come, writes each id's head once (from the newest
// row, as an import of all the rows in one call would choose it), derives the head tags from
// the heads in one statement, and builds every index once at the end, by sorting. The heads go
// in through a COPY too, with what their triggers would add written with them (loadLines.ts),
// their lines written in worker threads (loadThreads.ts): analysing their text is most of the
// client's work. All of it is one transaction: a failed load leaves the database as it was,
// indexes and triggers included.

/** The tables a load fills. */
const LOADED_TABLES = ['memory_versions', 'memory_heads', 'memory_head_tags'];

/** Heads a load thread is handed at a time (a test asks for fewer). */
const HEADS_PER_CHUNK = 5000;

/** Batches of heads the load threads are handed ahead of the one whose lines are being sent. */
const AHEAD = 3;

/** What the index builds may sort in memory, for this transaction only (the server's default, 64 MB, sorts 1M memories' search index on disk). */
const BUILD_MEMORY = '256MB';

/** What the statements after the COPYs may hold in memory (the head tags' sort), for this transaction only. */
const STATEMENT_MEMORY = '64MB';

/**
 * A live head's tags, one row each, as the import's `tagged` statement (HEAD_CHANGES) inserts them.
 * A tag repeated in a row is kept once by a DISTINCT over that row's tags (each head is one id),
 * not over all the rows: at 1M memories (3.3M tag rows) the insert takes 4.4 s instead of 6.7 s,
 * and with the key built after it (rows no longer sorted) 10.1 s instead of 11.7 s.
 */
const HEAD_TAGS_INSERT = `INSERT INTO memory_head_tags (project, tag, id)
  SELECT h.project, t.tag, h.id FROM memory_heads h CROSS JOIN LATERAL (SELECT DISTINCT unnest(h.tags)) AS t(tag)
  WHERE h.project = $1 AND NOT h.deleted`;

/** What a load keeps of an id until its head is written: its newest row so far (not copied), and the numbers its rows hold (a row with one of them is a twin). */
interface Head extends LoadedHead {
  numbers: number[];
}

/**
 * Loads the version rows of `batches`, in order, into the empty database `client` is in a
 * transaction on, as one importVersions call with all of them would import them: a rowId
 * repeated is skipped, a row whose number an earlier row of its id holds goes in as a twin, a
 * purged id's rows are left out, and each id's head is its newest row. Returns undefined,
 * without reading `batches`, when it cannot: a memory is stored (in any project: the indexes
 * are the whole database's), or the role does not own the tables (it may not drop their
 * indexes). Other clients of the database wait for the whole load (the tables are locked).
 */
export async function loadIntoEmpty(
  client: PoolClient,
  project: string,
  batches: AsyncIterable<StoredVersion[]>,
  headsPerChunk = HEADS_PER_CHUNK,
): Promise<{ added: number; skipped: number } | undefined> {
  const { rows: owned } = await client.query<{ owns: boolean }>(
    `SELECT bool_and(pg_has_role(current_user, c.relowner, 'USAGE')) AS owns FROM pg_class c WHERE c.oid = ANY ($1::regclass[])`,
    [LOADED_TABLES],
  );
  if (!owned[0]!.owns) return undefined;
  // Exclusive from the start: a second load waits here, then finds the first one's rows.
  await client.query(`LOCK TABLE ${LOADED_TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
  const { rows: state } = await client.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM memory_versions) AND NOT EXISTS (SELECT 1 FROM memory_heads) AS empty',
  );
  if (!state[0]!.empty) return undefined;
  const rebuild = await dropIndexes(client);
  await client.query(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'`);
  await client.query(`SET LOCAL work_mem = '${STATEMENT_MEMORY}'`);

  const { read, added, heads } = await loadVersions(client, project, batches);
  await copyHeads(client, project, [...heads.values()], headsPerChunk);
  await client.query(HEAD_TAGS_INSERT, [project]);
  await foldTermChanges(client, project);
  for (const statement of rebuild) await client.query(statement);
  // What the planner knows of the tables is what they held before: nothing.
  await client.query(`ANALYZE ${LOADED_TABLES.join(', ')}`);
  return { added, skipped: read - added };
}

/**
 * Appends the versions through one COPY, encoded batch by batch as they are read (the server
 * stores one while the next is encoded: in this thread, since handing the rows to the load
 * threads costs about what encoding them does); returns how many rows were read and stored,
 * and each id's head. Rows COPY stores take the table's next numbers in order, so each row's seq is known
 * here; the numbers are checked against the table before anything relies on them.
 */
async function loadVersions(
  client: PoolClient,
  project: string,
  batches: AsyncIterable<StoredVersion[]>,
): Promise<{ read: number; added: number; heads: Map<string, Head> }> {
  const { rows: purgedRows } = await client.query<{ id: string }>('SELECT id FROM memory_purged WHERE project = $1', [project]);
  const purged = new Set(purgedRows.map((r) => r.id));
  // The number the next row takes, read without taking one (an import's rows would have it).
  const { rows: named } = await client.query<{ name: string }>(`SELECT pg_get_serial_sequence('memory_versions', 'seq') AS name`);
  const { rows: last } = await client.query<{ n: string; called: boolean }>(
    `SELECT last_value::text AS n, is_called AS called FROM ${named[0]!.name}`,
  );
  const first = Number(last[0]!.n) + (last[0]!.called ? 1 : 0);
  const stored = new Set<string>();
  const heads = new Map<string, Head>();
  let read = 0;
  let added = 0;
  const pool = new ChunkPool(CHUNK);
  const out = new CopyRows(pool);
  async function* lines(): AsyncIterable<Buffer[]> {
    for await (const batch of batches) {
      read += batch.length;
      // As an import's statement would: a rowId stored already or a purged id's row is left out.
      for (const r of batch) {
        if (purged.has(r.id)) continue;
        // One lookup, not two: at 1M memories each costs about half a microsecond (the set no longer fits any cache).
        const storedBefore = stored.size;
        if (stored.add(r.rowId).size === storedBefore) continue;
        const seq = first + added++;
        const head = heads.get(r.id);
        // A twin: a row whose number an earlier row of its id holds (twinFlags, across the whole load).
        versionLine(out, project, r, head?.numbers.includes(r.version) ?? false);
        if (!head) heads.set(r.id, { row: r, seq, maxVersion: r.version, numbers: [r.version] });
        else {
          head.maxVersion = Math.max(head.maxVersion, r.version);
          head.numbers.push(r.version);
          if (isNewer(r, head.row)) {
            head.row = r;
            head.seq = seq;
          }
        }
      }
      yield out.take();
    }
  }
  await copyChunks(client.query(copyFrom(`COPY memory_versions (${VERSION_COLUMNS}) FROM STDIN (FORMAT binary)`)), framed(lines()), pool);
  const { rows: got } = await client.query<{ n: number; lo: string | null; hi: string | null }>(
    'SELECT count(*)::int AS n, min(seq)::text AS lo, max(seq)::text AS hi FROM memory_versions',
  );
  const numberedAsExpected =
    got[0]!.n === added && (added === 0 || (got[0]!.lo === String(first) && got[0]!.hi === String(first + added - 1)));
  if (!numberedAsExpected)
    throw new StorageError(`the load's ${added} versions were not numbered in order from ${first}; nothing was loaded`);
  return { read, added, heads };
}

/**
 * Writes the heads through one COPY, their lines written by the load threads (LineEncoder),
 * `headsPerChunk` a batch, up to AHEAD batches in their hands while the lines of the first are
 * sent; with the three triggers whose work headLine does turned off (on again when this returns;
 * a failure rolls that back with the rest); then adds their term counts as changes.
 */
async function copyHeads(client: PoolClient, project: string, heads: Head[], headsPerChunk: number): Promise<void> {
  const triggers = (verb: 'ENABLE' | 'DISABLE') =>
    `ALTER TABLE memory_heads ${LOADED_HEAD_TRIGGERS.map((t) => `${verb} TRIGGER ${t}`).join(', ')}`;
  await client.query(triggers('DISABLE'));
  // What agent_memory_stamp_xid stamps: this transaction.
  const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  const encoder = new LineEncoder({ project, xid: rows[0]!.xid });
  try {
    async function* lines(): AsyncIterable<Buffer[]> {
      const asked: Array<Promise<Buffer[]>> = [];
      for (let i = 0; i < heads.length; i += headsPerChunk) {
        const batch: LoadedHead[] = heads.slice(i, i + headsPerChunk).map(({ row, seq, maxVersion }) => ({ row, seq, maxVersion }));
        const written = encoder.lines(batch);
        // Awaited in turn below; until then a failure must not count as unhandled.
        written.catch(() => undefined);
        asked.push(written);
        if (asked.length > AHEAD) yield await asked.shift()!;
      }
      while (asked.length) yield await asked.shift()!;
    }
    // The threads write their next lines in the buffers of the ones sent.
    await copyChunks(client.query(copyFrom(`COPY memory_heads (${HEAD_COLUMNS}) FROM STDIN (FORMAT binary)`)), framed(lines()), encoder);
    const { terms, counts } = await encoder.counts();
    await client.query(triggers('ENABLE'));
    await client.query('INSERT INTO memory_term_changes (project, term, d) SELECT $1, unnest($2::text[]), unnest($3::bigint[])', [
      project,
      terms,
      counts,
    ]);
  } finally {
    await encoder.close();
  }
}

/**
 * Drops the loaded tables' indexes and the constraints that own them (no foreign key relies on
 * them; an index one does would stay), and returns the statements that make them again. Every
 * name comes from the catalogue, quoted by the server.
 */
async function dropIndexes(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ drop: string; make: string }>(
    `SELECT
       CASE WHEN k.oid IS NULL THEN format('DROP INDEX %s', i.indexrelid::regclass)
            ELSE format('ALTER TABLE %s DROP CONSTRAINT %I', i.indrelid::regclass, k.conname) END AS drop,
       CASE WHEN k.oid IS NULL THEN pg_get_indexdef(i.indexrelid)
            ELSE format('ALTER TABLE %s ADD CONSTRAINT %I %s', i.indrelid::regclass, k.conname, pg_get_constraintdef(k.oid)) END AS make
     FROM pg_index i
     LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x')
     WHERE i.indrelid = ANY ($1::regclass[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.indexrelid)
     ORDER BY i.indexrelid`,
    [LOADED_TABLES],
  );
  for (const r of rows) await client.query(r.drop);
  return rows.map((r) => r.make);
}
