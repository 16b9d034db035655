import type { Pool, PoolClient } from 'pg';
import { StorageError } from '../../core/errors';
import { type PgTarget, storageError } from './connection';

/** What the parts of the team store share: the pool, the server (for messages), the project key. */
export interface PgSession {
  readonly pool: Pool;
  readonly target: PgTarget;
  readonly project: string;
  /** True once the store was closed: nothing more runs. */
  isClosed(): boolean;
}

/** Runs one statement on the pool; a failure becomes a StorageError saying what was being done. */
export async function runQuery<R extends object>(s: PgSession, doing: string, text: string, values: unknown[]): Promise<R[]> {
  if (s.isClosed()) throw new StorageError('the store is closed');
  try {
    return (await s.pool.query<R>(text, values)).rows;
  } catch (err) {
    throw storageError(s.target, err, doing);
  }
}

/**
 * Runs `fn` in a transaction on one connection (opened by `begin`, which may set its isolation);
 * a throw rolls everything back. Errors of `fn` pass through as they are (callers map them:
 * some are retried, some are the caller's own).
 */
export async function runTransaction<T>(s: PgSession, doing: string, fn: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  if (s.isClosed()) throw new StorageError('the store is closed');
  let client: PoolClient;
  try {
    client = await s.pool.connect();
  } catch (err) {
    throw storageError(s.target, err, doing);
  }
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot even roll back is dropped from the pool, not reused.
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}
