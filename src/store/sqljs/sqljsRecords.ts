import { StorageError } from '../../core/errors';
import {
  checkRecordBatch,
  type RecordDecision,
  type RecordKind,
  type RecordQuery,
  type RecordReader,
  type RecordStore,
  type StoredRecord,
} from '../../core/ports/records';
import type { JournalEntry } from './entries';
import type { RecordTable } from './recordTable';

/** What the record store needs of the workspace store it lives in. */
export interface RecordHost {
  /** Runs `fn` under the write lock, caught up, database loaded. */
  exclusive<T>(fn: (t: RecordTable) => T | Promise<T>): Promise<T>;
  /** Runs `fn` on the database after catching up (no lock). */
  fromTable<T>(fn: (t: RecordTable) => T): Promise<T>;
  /** Appends entries durably (under the lock) and applies them. */
  append(entries: JournalEntry[]): void;
  /** Rewrites the journal with each entry as `keep` returns it (null drops it), appends `purge`, and saves the caches (under the lock). */
  rewrite(keep: (entry: JournalEntry) => JournalEntry | null, purge: JournalEntry): void;
}

/** Rows per journal line when importing, so no line grows without bound. */
const IMPORT_LINE_ROWS = 500;

/**
 * The workspace store's records: one `records` journal line per write (so a write of several
 * rows is atomic: a torn line is set aside whole), applied to the record tables of the
 * sql.js database. The store's one cross-process write lock serialises every scope.
 */
export class SqlJsRecords implements RecordStore {
  constructor(private readonly host: RecordHost) {}

  get(kind: RecordKind, id: string): Promise<StoredRecord | undefined> {
    return this.host.fromTable((t) => t.get(kind, id));
  }

  maxVersion(kind: RecordKind, id: string): Promise<number> {
    return this.host.fromTable((t) => t.maxVersion(kind, id));
  }

  query(q: RecordQuery): Promise<StoredRecord[]> {
    return this.host.fromTable((t) => t.query(q));
  }

  count(q: Omit<RecordQuery, 'limit' | 'after'>): Promise<number> {
    return this.host.fromTable((t) => t.count(q));
  }

  history(kind: RecordKind, id: string): Promise<StoredRecord[]> {
    return this.host.fromTable((t) => t.history(kind, id));
  }

  write(_scope: string, decide: RecordDecision): Promise<StoredRecord[]> {
    return this.host.exclusive(async (t) => {
      const reader: RecordReader = {
        get: async (kind, id) => t.get(kind, id),
        maxVersion: async (kind, id) => t.maxVersion(kind, id),
        query: async (q) => t.query(q),
      };
      const rows = await decide(reader);
      // As on PostgreSQL: only new rows of ids that were not purged, each once, or nothing.
      checkRecordBatch(rows);
      for (const r of rows) {
        if (t.isPurged(r.kind, r.id)) throw new StorageError(`${r.kind} ${r.id} was purged; it cannot be written again`);
        if (t.hasRow(r.rowId))
          throw new StorageError(`record row ${r.rowId} (${r.kind} ${r.id}) is already stored; a write appends new rows only`);
        if (t.hasVersion(r.kind, r.id, r.version))
          throw new StorageError(`${r.kind} ${r.id} already has a version ${r.version}; a write numbers its rows from maxVersion + 1`);
      }
      if (rows.length) this.host.append([{ v: 1, type: 'records', rows }]);
      return rows;
    });
  }

  purge(kind: RecordKind, ids: readonly string[], author: string): Promise<number> {
    return this.host.exclusive((t) => {
      const gone = new Set(ids.filter((id) => t.history(kind, id).length > 0));
      if (gone.size === 0) return 0;
      const removed = [...gone].reduce((n, id) => n + t.history(kind, id).length, 0);
      const at = new Date().toISOString();
      const isGone = (r: StoredRecord) => r.kind === kind && gone.has(r.id);
      this.host.rewrite(
        (e) => {
          if (e.type !== 'records' || !e.rows.some(isGone)) return e;
          const rows = e.rows.filter((r) => !isGone(r));
          return rows.length ? { ...e, rows } : null;
        },
        { v: 1, type: 'records.purge', kind, ids: [...gone], at, author },
      );
      return removed;
    });
  }

  importRecords(rows: StoredRecord[]): Promise<{ added: number; skipped: number }> {
    return this.host.exclusive((t) => {
      const seen = new Set<string>();
      const fresh = rows.filter((r) => {
        const keep = !seen.has(r.rowId) && !t.isPurged(r.kind, r.id) && !t.hasRow(r.rowId);
        seen.add(r.rowId);
        return keep;
      });
      const entries: JournalEntry[] = [];
      for (let i = 0; i < fresh.length; i += IMPORT_LINE_ROWS)
        entries.push({ v: 1, type: 'records', rows: fresh.slice(i, i + IMPORT_LINE_ROWS) });
      if (entries.length) this.host.append(entries);
      return { added: fresh.length, skipped: rows.length - fresh.length };
    });
  }

  async *exportRecords(): AsyncIterable<StoredRecord> {
    yield* await this.host.fromTable((t) => t.allRecords());
  }
}
