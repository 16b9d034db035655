import type { Database } from 'sql.js';
import { StorageError } from '../../core/errors';
import type { JournalEntry } from './entries';
import type { VersionTable } from './versionTable';

/**
 * A JournalSync's sql.js database once loaded, and the entries a catch-up applied to the view
 * but not yet to it, in order: a search after a pull needs only the view, so the database takes
 * them when next asked for (flush). While any wait, later entries queue behind them.
 */
export class LoadedDatabase {
  private backlog: JournalEntry[] = [];

  constructor(
    readonly sql: Database,
    readonly table: VersionTable,
  ) {}

  /** Applies `entry` now, or queues it when `defer` (a catch-up) or others wait. */
  apply(entry: JournalEntry, defer: boolean): void {
    if (defer || this.backlog.length > 0) this.backlog.push(entry);
    else this.table.applyEntry(entry);
  }

  /** Applies the queued entries, in one transaction. */
  flush(): void {
    if (this.backlog.length === 0) return;
    inTransaction(this.sql, () => this.backlog.forEach((e) => this.table.applyEntry(e)));
    this.backlog = [];
  }

  /** Frees the database's memory. */
  close(): void {
    this.sql.close();
  }
}

/**
 * Runs `fn` in one transaction of `sql` (none when the database is not loaded); a failure rolls
 * it back (a transaction left open would make every later BEGIN fail) and, with `reading`, is
 * reported as a failure to read the journal.
 */
export function inTransaction<T>(sql: Database | undefined, fn: () => T, reading = true): T {
  sql?.exec('BEGIN');
  try {
    const result = fn();
    sql?.exec('COMMIT');
    return result;
  } catch (err) {
    sql?.exec('ROLLBACK');
    throw reading ? new StorageError(`reading the journal failed: ${(err as Error).message}`, { cause: err }) : err;
  }
}
