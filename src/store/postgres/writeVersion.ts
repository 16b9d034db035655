import type { ClientBase, Pool } from 'pg';
import type { StoredVersion } from '../../core/ports/store';
import {
  asInserted,
  HEAD_CHANGES,
  HEAD_RECORD,
  headPayload,
  toVersion,
  VERSION_COLUMNS,
  type VersionRecord,
  versionInsert,
  versionPayload,
} from './versionRows';

// A write on the team database is one statement when nothing races it (under load every statement
// waits its turn at the server, so the round trips are what a write costs): the head is read
// without a lock, the service decides, and one statement locks the head, checks it is still the
// one read, inserts the version and moves the head and its tag rows (writeVersion). When another
// writer moved the head in between, the write reads and decides again holding the head's lock
// (pgStore.ts). See docs/ARCHITECTURE.md, "Writes".

/** A memory's current row, the highest version number it has had, and the head's seq (what writeVersion checks). */
export interface Head {
  row: StoredVersion;
  maxVersion: number;
  seq: string;
}

/** The head of `id` with its version row, in the snapshot of the statement (no lock). */
export async function readHead(client: Pool | ClientBase, project: string, id: string): Promise<Head | undefined> {
  const { rows } = await client.query<VersionRecord & { max_version: number; head_seq: string }>(
    `SELECT ${VERSION_COLUMNS.split(', ')
      .map((c) => `v.${c}`)
      .join(', ')}, h.max_version, h.seq AS head_seq
     FROM memory_heads h JOIN memory_versions v ON v.seq = h.seq
     WHERE h.project = $1 AND h.id = $2`,
    [project, id],
  );
  return rows[0] && { row: toVersion(rows[0]), maxVersion: rows[0].max_version, seq: rows[0].head_seq };
}

/**
 * Locks the head of `id` until the transaction ends, if it has one: writers of the id (whose
 * statement locks it first) and purges then wait for each other, and every later statement of
 * the transaction sees the head as its last writer committed it.
 */
export async function lockHead(client: ClientBase, project: string, id: string): Promise<void> {
  await client.query('SELECT 1 FROM memory_heads WHERE project = $1 AND id = $2 FOR UPDATE', [project, id]);
}

/** What writeVersion did: the row as stored, or why it stored nothing. */
export type WriteOutcome = { stored: StoredVersion } | { moved: true } | { purged: true };

/**
 * Writes `row` in one statement if the head of its id is still `expected` (the seq read, null
 * for none): locks the head (waiting for a writer that holds it, then reading it as committed),
 * inserts the version and moves the head and its tag rows (HEAD_CHANGES, the tags replaced read
 * from the locked head). `moved` when the head is no longer the one the row was decided on (its
 * tag rows, committed after this statement's snapshot, may not be visible to it either): decide
 * again. A taken version number fails the statement with the unique backstop, as an import's
 * twin-free insert does. Atomic on a pool connection outside a transaction.
 */
export async function writeVersion(
  client: Pool | ClientBase,
  project: string,
  row: StoredVersion,
  expected: string | null,
): Promise<WriteOutcome> {
  const { rows } = await client.query<{ head_seq: string | null; row_id: string | null; seq: string | null; db_role: string | null }>(
    `WITH lk AS (
       SELECT id, seq, tags, deleted FROM memory_heads WHERE project = $1 AND id = $2 FOR UPDATE
     ), ins AS (
       ${versionInsert('$3', 'false', '(SELECT seq FROM lk) IS NOT DISTINCT FROM $4::bigint')}
       ON CONFLICT (project, row_id) DO NOTHING RETURNING row_id, seq, db_role
     ), r AS (
       SELECT p.*, ins.seq FROM jsonb_to_recordset($5::jsonb) AS p(${HEAD_RECORD}) JOIN ins ON ins.row_id = p.row_id
     ), was AS (
       SELECT lk.id, tag FROM lk CROSS JOIN LATERAL unnest(lk.tags) AS tag WHERE NOT lk.deleted
     ), ${HEAD_CHANGES}
     SELECT (SELECT seq FROM lk) AS head_seq, ins.row_id, ins.seq, ins.db_role FROM (SELECT 1) one LEFT JOIN ins ON true`,
    [project, row.id, JSON.stringify(versionPayload([row], false)), expected, JSON.stringify(headPayload([row]))],
  );
  const r = rows[0]!;
  if (r.row_id !== null) {
    const { seq: _seq, ...stored } = asInserted([row], [{ row_id: r.row_id, seq: r.seq!, db_role: r.db_role }])[0]!;
    return { stored };
  }
  return r.head_seq === expected ? { purged: true } : { moved: true };
}
