import type { PoolClient } from 'pg';
import { StorageError } from '../../core/errors';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

// Running the migrations of migrations.ts, and the meta table they keep.

/**
 * A constant key for pg_advisory_xact_lock: clients connecting at once migrate one after
 * the other (the second finds the work done). Per-id write locks use the two-key form,
 * a separate key space.
 */
const MIGRATION_LOCK = 0x61676d656d; // "agmem"

/** The schema version recorded in the database, or 0 when it has no schema yet. Reads only. */
async function installedVersion(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('agent_memory_schema') IS NOT NULL AS present");
  if (!rows[0]!.present) return 0;
  const v = await client.query<{ v: number }>('SELECT coalesce(max(version), 0)::int AS v FROM agent_memory_schema');
  return v.rows[0]!.v;
}

/** Runs `work` in one transaction on `client`: committed if it returns, rolled back if it throws. */
async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Brings the database to the latest schema in one transaction, under an advisory lock.
 * A database made by a newer release is refused, not rewritten. `afterMigrate` runs in the
 * same transaction and lock (the search terms' re-analysis when the analyser changed).
 */
export async function migrate(client: PoolClient, afterMigrate: (client: PoolClient) => Promise<void>): Promise<number> {
  // A schema that is already current needs no lock and no DDL: a role that may read and write
  // the tables but not create in the schema (PostgreSQL 15's default for public) can connect.
  if ((await installedVersion(client)) === SCHEMA_VERSION) {
    await inTransaction(client, () => afterMigrate(client));
    return SCHEMA_VERSION;
  }
  return inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS agent_memory_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ v: number }>('SELECT coalesce(max(version), 0)::int AS v FROM agent_memory_schema');
    const from = rows[0]!.v;
    if (from > SCHEMA_VERSION) {
      throw new StorageError(
        `the database has schema version ${from}, newer than this release understands (${SCHEMA_VERSION}); update Agent Memory`,
      );
    }
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO agent_memory_schema (version) VALUES ($1)', [m.version]);
    }
    await afterMigrate(client);
    return SCHEMA_VERSION;
  });
}

export async function getMeta(client: PoolClient, key: string): Promise<string | undefined> {
  const { rows } = await client.query<{ value: string }>('SELECT value FROM agent_memory_meta WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function setMeta(client: PoolClient, key: string, value: string): Promise<void> {
  await client.query('INSERT INTO agent_memory_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
    key,
    value,
  ]);
}
