import { Pool, type PoolConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { StorageError } from '../../core/errors';

/** How to reach the team database. The password comes from PGPASSWORD or ~/.pgpass (pg reads both). */
export interface PgConnectionOptions {
  /** postgres://user@host:port/database; without a password. */
  connectionString: string;
  /** Extra pool settings (max connections, ssl …). */
  pool?: Omit<PoolConfig, 'connectionString'>;
}

/** Where a connection string points, for messages: never the password. */
export interface PgTarget {
  host: string;
  port: string;
  database: string;
  user: string;
}

export function parseTarget(connectionString: string): PgTarget {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new StorageError('the PostgreSQL connection string is not a URL; expected postgres://user@host:port/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StorageError(`the PostgreSQL connection string must start with postgres:// (got ${url.protocol}//)`);
  }
  return {
    host: decodeURIComponent(url.hostname) || process.env.PGHOST || 'localhost',
    port: url.port || process.env.PGPORT || '5432',
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || process.env.PGDATABASE || 'postgres',
    user: decodeURIComponent(url.username) || process.env.PGUSER || process.env.USER || '',
  };
}

/** postgres://user@host:port/database, the password left out. */
export function describeTarget(t: PgTarget): string {
  return `postgres://${t.user ? `${encodeURIComponent(t.user)}@` : ''}${t.host}:${t.port}/${t.database}`;
}

/** Removes anything that looks like a password in a URL from a message we did not write. */
export function scrub(message: string): string {
  return message.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/gi, '$1***@');
}

/** Error codes that mean "the server cannot be used", as opposed to a failed statement. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  '28P01',
  '28000',
  '3D000',
  '57P03',
  '53300',
]);

export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test((err as Error).message ?? '')
  );
}

/** A StorageError that names the server (never the password) and says what failed. */
export function storageError(target: PgTarget, err: unknown, doing: string): StorageError {
  if (err instanceof StorageError) return err;
  const e = err as Error & { code?: string };
  const reason = scrub(e.message || e.code || String(err));
  const where = describeTarget(target);
  const message = isConnectionError(err)
    ? `cannot reach the PostgreSQL server at ${target.host}:${target.port} (database ${target.database}, user ${target.user || 'default'}): ${reason}`
    : `PostgreSQL (${where}) failed while ${doing}: ${reason}`;
  return new StorageError(message, { cause: err });
}

/**
 * The pool. pg would let every field parsed from a connection string override the options
 * given beside it, and turns a URL without a password into an empty one (so neither
 * PGPASSWORD nor ~/.pgpass is consulted): the URL is parsed here instead, and the caller's
 * password and TLS settings win over it. Without them, the URL's `sslmode` and the
 * environment apply, as in psql.
 */
export function createPool(options: PgConnectionOptions, onIdleError: (err: Error) => void): Pool {
  const fromUrl = parseIntoClientConfig(options.connectionString);
  if (!fromUrl.password) delete fromUrl.password;
  const { password, ssl, ...rest } = options.pool ?? {};
  const pool = new Pool({
    connectionTimeoutMillis: 10_000,
    max: 10,
    ...rest,
    ...fromUrl,
    ...(password ? { password } : {}),
    ...(ssl !== undefined ? { ssl } : {}),
    application_name: 'agent-memory',
    // Awaited before the pool hands the connection out; a failure fails the connect.
    onConnect: async (client) => {
      await client.query(`SET plan_cache_mode = ${PLAN_FOR_ANY_PROJECT}`);
    },
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', onIdleError);
  return pool;
}

/**
 * How the store's statements are planned: once for any value of their parameters, not for the
 * values at hand. A plan made for the values trusts the column statistics, and a project added
 * since the table was last analysed has none: the planner takes it for one row, so a lookup by
 * (project, id) may walk another index that starts with the project and read every row of it
 * (a read by id in a second project of 20,000 memories read all 20,000: 148 ms; importing 20,000
 * memories into a new project beside 1M took 208 s instead of 5 s). Planned for any project, the
 * key that matches the id wins. Searches, whose best plan depends on the words, plan for their
 * values (SEARCH_TRANSACTION).
 */
export const PLAN_FOR_ANY_PROJECT = 'force_generic_plan';
