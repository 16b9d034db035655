import type { PoolClient } from 'pg';

/** First key of the project-wide purge/import advisory lock ("purg"); the second is the project's hash. */
const PURGE_LOCK = 0x70757267;

/** Serialises writers of one id across every client until the transaction ends. */
export async function lockId(client: PoolClient, project: string, id: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [project, id]);
}

/**
 * Imports (shared) and purges (exclusive) of a project exclude each other until the
 * transaction ends. Without it an import that meets rows a purge has deleted but not yet
 * committed waits for that purge and then inserts them again: the purged memory would be
 * back. Taken first in both, so no cycle with the per-id locks.
 */
export async function lockPurges(client: PoolClient, project: string, mode: 'shared' | 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await client.query(`SELECT ${fn}($1, hashtext($2))`, [PURGE_LOCK, project]);
}
