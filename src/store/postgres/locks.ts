import type { PoolClient } from 'pg';

/** First key of the project-wide purge/import advisory lock ("purg"); the second is the project's hash. */
const PURGE_LOCK = 0x70757267;

/**
 * Taken by purges until the transaction ends, beside the head's row lock that writers take
 * (writeVersion.ts): releases before schema 10 wrote under this lock alone.
 */
export async function lockId(client: PoolClient, project: string, id: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [project, id]);
}

/**
 * Serialises record writers of one scope (records.ts `write`) across every client until the
 * transaction ends. The scope is prefixed so it never takes the lock of a memory id of the
 * same spelling: a record decision that wrote that memory would wait on itself.
 */
export async function lockScope(client: PoolClient, project: string, scope: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext('record scope ' || $2))", [project, scope]);
}

/**
 * Imports (shared) and purges (exclusive) of a project exclude each other until the
 * transaction ends. Without it an import that meets rows a purge has deleted but not yet
 * committed waits for that purge and then inserts them again: the purged memory would be
 * back. Record writes take it shared too (a record purge cannot name their scope, so it
 * cannot take their lock as a memory purge takes the id's). Taken first everywhere, so no
 * cycle with the per-id and per-scope locks.
 */
export async function lockPurges(client: PoolClient, project: string, mode: 'shared' | 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await client.query(`SELECT ${fn}($1, hashtext($2))`, [PURGE_LOCK, project]);
}
