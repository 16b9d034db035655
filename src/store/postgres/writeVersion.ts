import type { ClientBase, Pool, PoolClient } from 'pg';
import { ConflictError, MemoryError, StorageError } from '../../core/errors';
import type { StoredVersion, StoreWarning, WriteDecision } from '../../core/ports/store';
import { storageError } from './connection';
import { lockId, lockPurges } from './locks';
import { type PgSession, runTransaction } from './session';
import { FOLD_SHARE, foldTermChanges } from './termCounts';
import {
  asInserted,
  HEAD_CHANGES,
  isDeadlock,
  isVersionTaken,
  HEAD_RECORD,
  headPayload,
  toVersion,
  VERSION_COLUMNS,
  type VersionRecord,
  versionInsert,
  versionPayload,
  WRITE_ATTEMPTS,
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

/**
 * PgStore.write: first without a lock (the head read, `decide`, writeVersion; a new id, `newId`,
 * is decided on no head without reading it). Should another writer have moved the head
 * meanwhile, the write reads and decides again holding the head's lock, in a transaction, so
 * writers of one memory take turns instead of retrying against each other. One write in
 * FOLD_SHARE folds the term counts after it committed; a failed fold is a warning, not the write's.
 */
export async function writeMemory(
  s: PgSession,
  id: string,
  decide: WriteDecision,
  newId: boolean,
  warn: (w: StoreWarning) => void,
): Promise<StoredVersion | null> {
  const once = async (client: Pool | PoolClient, unread: boolean): Promise<WriteOutcome | null> => {
    const head = unread ? undefined : await readHead(client, s.project, id);
    const row = decide(head?.row, head?.maxVersion ?? 0);
    if (!row) return null;
    if (row.id !== id) throw new StorageError(`a write for memory ${id} produced a row of ${row.id}`);
    return writeVersion(client, s.project, row, head?.seq ?? null);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome =
        attempt === 1
          ? await once(s.pool, newId)
          : await runTransaction(s, 'writing a version', async (client) => {
              await lockHead(client, s.project, id);
              return once(client, false);
            });
      if (outcome === null) return null;
      if ('stored' in outcome) {
        if (Math.random() < FOLD_SHARE) await foldTermChanges(s.pool, s.project).catch((err: Error) => warnFold(warn, err));
        return outcome.stored;
      }
      if ('purged' in outcome) throw new StorageError(`memory ${id} was purged; it cannot be written again`);
      if (attempt >= WRITE_ATTEMPTS)
        throw new ConflictError(`memory ${id} kept being changed by other writers while this write was decided; try again`);
    } catch (err) {
      // Another client (an import, which takes no lock before it inserts) gave out this version
      // number first, or the new id existed, or an import waiting for this head held the number
      // (a deadlock the server ended): decide again against the row that is now current.
      if ((isVersionTaken(err) || isDeadlock(err)) && attempt < WRITE_ATTEMPTS) continue;
      if (isVersionTaken(err) || isDeadlock(err))
        throw new ConflictError(`memory ${id}: its next version number kept being taken by other writers; try again`);
      if (err instanceof MemoryError) throw err;
      throw storageError(s.target, err, 'writing a version');
    }
  }
}

function warnFold(warn: (w: StoreWarning) => void, err: Error): void {
  warn({ code: 'checkpoint-failed', message: `folding the search term counts failed (${err.message}); a later write folds them` });
}

/**
 * Deletes every row of memory `id` in the transaction `client` is in, and records the purge;
 * returns how many versions it had (0: nothing to purge). Holds the project's purge lock
 * exclusively (imports wait), then the id's head as writers do.
 */
export async function purgeMemory(client: PoolClient, project: string, id: string, author: string): Promise<number> {
  await lockPurges(client, project, 'exclusive');
  // Writers lock the head (lockHead); releases before schema 10 took the id's advisory lock.
  await lockId(client, project, id);
  await lockHead(client, project, id);
  const { rowCount } = await client.query('DELETE FROM memory_versions WHERE project = $1 AND id = $2', [project, id]);
  if (!rowCount) return 0;
  await client.query('DELETE FROM memory_heads WHERE project = $1 AND id = $2', [project, id]);
  // Every tag row of the id, not only those of the head's tags: a purge is rare, and it must
  // leave nothing of the memory behind, not even a row a race left stale (this reads the
  // project's tag rows, about a second at 1M memories).
  await client.query('DELETE FROM memory_head_tags WHERE project = $1 AND id = $2', [project, id]);
  await client.query('INSERT INTO memory_purged (project, id, purged_at, purged_by) VALUES ($1, $2, now(), $3) ON CONFLICT DO NOTHING', [
    project,
    id,
    author,
  ]);
  return rowCount;
}
