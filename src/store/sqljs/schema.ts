import type { Database } from 'sql.js';
import { StorageError } from '../../core/errors';

/**
 * The snapshot's schema, versioned with `PRAGMA user_version`. Each entry migrates from
 * the previous version; a store written by a newer release is refused rather than
 * rewritten in a form that release could not read.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE memory_versions (
        seq INTEGER PRIMARY KEY,
        row_id TEXT NOT NULL UNIQUE,
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        op TEXT NOT NULL,
        description TEXT NOT NULL,
        tags TEXT NOT NULL,
        content TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        deleted_at TEXT,
        author TEXT NOT NULL,
        restored_from INTEGER
      );
      CREATE INDEX memory_versions_by_id ON memory_versions (id, version);
      CREATE TABLE memories_current (
        id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        changed_at TEXT NOT NULL,
        deleted INTEGER NOT NULL,
        max_version INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX memories_current_by_change ON memories_current (deleted, changed_at, id);
      CREATE TABLE purged (id TEXT PRIMARY KEY, purged_at TEXT NOT NULL) WITHOUT ROWID;
    `,
  },
  {
    // Records of the other tiers (src/core/ports/records.ts): versions, each (kind, id)'s current
    // row with its lookup columns, and purged ids.
    version: 2,
    sql: `
      CREATE TABLE record_versions (
        seq INTEGER PRIMARY KEY,
        row_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        op TEXT NOT NULL,
        status TEXT NOT NULL,
        key0 TEXT NOT NULL,
        key1 TEXT NOT NULL,
        key2 TEXT NOT NULL,
        rank REAL NOT NULL,
        due_at TEXT,
        data TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        deleted_at TEXT,
        author TEXT NOT NULL
      );
      CREATE INDEX record_versions_by_id ON record_versions (kind, id, version);
      CREATE TABLE record_heads (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        deleted INTEGER NOT NULL,
        status TEXT NOT NULL,
        key0 TEXT NOT NULL,
        key1 TEXT NOT NULL,
        key2 TEXT NOT NULL,
        rank REAL NOT NULL,
        due_at TEXT,
        changed_at TEXT NOT NULL,
        max_version INTEGER NOT NULL,
        PRIMARY KEY (kind, id)
      ) WITHOUT ROWID;
      CREATE INDEX record_heads_order ON record_heads (kind, deleted, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_key0 ON record_heads (kind, key0, deleted, rank DESC, changed_at DESC);
      CREATE INDEX record_heads_key1 ON record_heads (kind, key1, deleted);
      CREATE INDEX record_heads_key2 ON record_heads (kind, key2, deleted);
      CREATE INDEX record_heads_due ON record_heads (kind, due_at) WHERE due_at IS NOT NULL;
      CREATE TABLE record_purged (kind TEXT NOT NULL, id TEXT NOT NULL, purged_at TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
    `,
  },
  {
    // Citations of code (a JSON list) on the versions that have them.
    version: 3,
    sql: `ALTER TABLE memory_versions ADD COLUMN citations TEXT;`,
  },
  {
    // How each version came to be (core/ports/origin.ts: its channel, who proposed what was
    // approved), a JSON object of the fields set; null on versions from before it was recorded.
    version: 4,
    sql: `
      ALTER TABLE memory_versions ADD COLUMN origin TEXT;
      ALTER TABLE record_versions ADD COLUMN origin TEXT;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
/** The first schema with record tables: an older snapshot was saved by a release that skipped record lines. */
export const RECORDS_SCHEMA = 2;
/**
 * The first schema with every field a journal line holds (citations since 3, origin since 4): an
 * older snapshot is rebuilt from the journal, since the release that saved it dropped what it did not know.
 */
export const COMPLETE_ROWS_SCHEMA = 4;

/** The schema version a database file says it has (0: none). */
export function userVersion(db: Database): number {
  return Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
}

/** Brings `db` to `target` (default: the latest schema), each step in a transaction. */
export function migrate(db: Database, migrations = MIGRATIONS, target = migrations[migrations.length - 1]!.version): number {
  const from = userVersion(db);
  if (from > target) {
    throw new StorageError(
      `the store's snapshot has schema version ${from}, newer than this release understands (${target}); update Agent Memory`,
    );
  }
  for (const m of migrations) {
    if (m.version <= from || m.version > target) continue;
    db.exec('BEGIN');
    try {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new StorageError(`migration to schema version ${m.version} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return userVersion(db);
}

export function getMeta(db: Database, key: string): string | undefined {
  const r = db.exec('SELECT value FROM meta WHERE key = ?', [key]);
  return r[0]?.values[0]?.[0] as string | undefined;
}

export function setMeta(db: Database, key: string, value: string): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}
