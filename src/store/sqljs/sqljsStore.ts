import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from 'sql.js';
import { StorageError } from '../../core/errors';
import type { SearchQuery } from '../../core/search/query';
import type { ListCursor, ListedMemory, Store, StoredHit, StoredVersion, StoreWarning, WriteDecision } from '../store';
import { WriteLock } from '../writeLock';
import { CurrentView } from './currentView';
import { parseLine, purgeLine, versionLine, type JournalEntry } from './entries';
import { EMPTY_POSITION, JournalFile, type JournalPosition, sha1 } from './journal';
import { loadSnapshot, writeSnapshot } from './snapshot';
import { loadSqlJs, type SqlJsStoreOptions } from './sqljsOptions';
import { VersionTable } from './versionTable';

export type { SqlJsStoreOptions } from './sqljsOptions';

/**
 * The workspace store: an append-only journal (the record) in front of two caches, an
 * in-memory SQLite database (sql.js; versions, history, listings) and a CurrentView (the
 * search index). A write appends one JSON line and fdatasyncs it under a cross-process
 * lock, after catching up with lines other processes appended. Both caches are saved now
 * and then, off the write path. Opening loads only the saved view, so the first search
 * needs no database; the database loads on the first operation that needs it. See
 * docs/ARCHITECTURE.md for the reasoning and figures.
 */
export class SqlJsStore implements Store {
  readonly location: string;
  private view = new CurrentView();
  /** Journal position both caches have consumed (the database, once loaded, is kept in step). */
  private position: JournalPosition = EMPTY_POSITION;
  private db: { sql: Database; table: VersionTable } | undefined;
  private dbLoading: Promise<VersionTable> | undefined;
  private readonly journal: JournalFile;
  private readonly snapshotFile: string;
  private readonly viewFile: string;
  private readonly lock: WriteLock;
  private readonly checkpointEvery: number;
  private readonly warningList: StoreWarning[] = [];
  private linesSinceCheckpoint = 0;
  private viewFileStale = false;
  private checkpointTimer: NodeJS.Immediate | undefined;
  private closed = false;

  private constructor(private readonly options: SqlJsStoreOptions) {
    this.location = path.resolve(options.dir);
    this.journal = new JournalFile(path.join(this.location, 'journal.jsonl'));
    this.snapshotFile = path.join(this.location, 'snapshot.sqlite');
    this.viewFile = path.join(this.location, 'search-index.json');
    this.checkpointEvery = options.checkpointEvery ?? 1000;
    this.lock = new WriteLock(this.location, path.join(this.location, 'write.lock'), {
      staleMs: options.lockStaleMs,
      onWarning: (message) => this.warn({ code: 'lock', message }),
    });
  }

  static async open(options: SqlJsStoreOptions): Promise<SqlJsStore> {
    // The folder is created by the first write, so reading or a refused command leaves nothing behind.
    const store = new SqlJsStore(options);
    const incomplete = await store.load();
    // A partial last line may be a write in progress; only under the lock is it known to be torn.
    if (incomplete) await store.lock.run(() => store.catchUp(true));
    if (store.linesSinceCheckpoint >= store.checkpointEvery) store.scheduleCheckpoint();
    return store;
  }

  private warn(w: StoreWarning): void {
    this.warningList.push(w);
    this.options.onWarning?.(w);
  }

  /** (Re)loads from disk: the saved view if usable, else the database. True when an incomplete line follows. */
  private async load(): Promise<boolean> {
    this.db?.sql.close();
    this.db = undefined;
    this.linesSinceCheckpoint = 0;
    const saved = CurrentView.load(this.viewFile, this.journal);
    if ('view' in saved) {
      this.view = saved.view;
      this.position = saved.position;
    } else {
      if (saved.reason) this.warn({ code: 'index-rebuilt', message: `the saved search index ${this.viewFile} was not used: ${saved.reason}; it is rebuilt` });
      this.view = new CurrentView();
      this.position = { ...EMPTY_POSITION, ino: this.journal.stat().ino };
      this.viewFileStale = true;
      await this.table(true);
    }
    return this.applyLines();
  }

  /** The database, loaded on first use and brought to the view's journal position. */
  private table(rebuildView = false): Promise<VersionTable> {
    if (this.db) return Promise.resolve(this.db.table);
    this.dbLoading ??= (async () => {
      const SQL = await loadSqlJs(this.options.wasmPath).catch((err: Error) => {
        throw new StorageError(`cannot start sql.js: ${err.message}`, { cause: err });
      });
      const loaded = loadSnapshot(SQL, this.snapshotFile, this.journal, (w) => this.warn(w));
      const table = new VersionTable(loaded.db);
      const viewAt = this.position.offset;
      // The journal was replaced (a purge by another process) while sql.js started: the view
      // describes the old file and may hold purged rows, so it is rebuilt from the database.
      const replaced = this.position.ino !== 0 && loaded.position.ino !== 0 && loaded.position.ino !== this.position.ino;
      if (replaced) this.viewFileStale = true;
      if (rebuildView || replaced) {
        this.db = { sql: loaded.db, table };
        this.position = loaded.position;
        this.view = CurrentView.fromRows(table.currentAll(), table.purgedIds());
      } else if (loaded.position.offset <= viewAt) {
        // The snapshot is older than the view: replay the difference into the database.
        this.position = loaded.position;
        this.db = { sql: loaded.db, table };
        this.applyLines(viewAt, false);
      } else {
        // The snapshot is newer (another process checkpointed): the view catches up to it.
        this.applyLines(loaded.position.offset, false);
        this.db = { sql: loaded.db, table };
      }
      return table;
    })().finally(() => (this.dbLoading = undefined));
    return this.dbLoading;
  }

  /**
   * Applies complete journal lines from our position up to `until` (default: the end of
   * the file) to the view and, when loaded, the database. True when an incomplete line follows.
   */
  private applyLines(until?: number, warn = true): boolean {
    const { ino, size } = this.journal.stat();
    const end = Math.min(until ?? size, size);
    if (end <= this.position.offset) return false;
    const lines = this.journal.readLines(this.position.offset, end);
    const sql = this.db?.sql;
    sql?.exec('BEGIN');
    let last: { text: string; end: number } | undefined;
    let r: IteratorResult<{ text: string; start: number; end: number }, { end: number; incomplete: boolean }>;
    try {
      while (!(r = lines.next()).done) {
        last = r.value;
        this.linesSinceCheckpoint++;
        const parsed = parseLine(r.value.text);
        if (parsed.ok) this.applyEntry(parsed.entry);
        else if (warn && r.value.text.trim() !== '') {
          this.warn({
            code: parsed.unknown ? 'unknown-journal-entry' : 'bad-journal-line',
            message: `journal line at byte ${r.value.start} of ${this.journal.file} ${parsed.reason}; it was skipped and left in place`,
          });
        }
      }
      sql?.exec('COMMIT');
    } catch (err) {
      sql?.exec('ROLLBACK');
      throw new StorageError(`reading the journal failed: ${(err as Error).message}`, { cause: err });
    }
    if (last) this.position = { ino, offset: last.end, tailSha: sha1(`${last.text}\n`), tailLength: Buffer.byteLength(last.text) + 1 };
    return r.value.incomplete && end === size;
  }

  private applyEntry(entry: JournalEntry): void {
    if (entry.type === 'memory.purge') {
      this.db?.table.purge(entry.id, entry.at);
      this.view.purge(entry.id);
    } else {
      this.db?.table.insert(entry.row);
      this.view.apply(entry.row);
    }
  }

  /**
   * Brings this process up to date with the journal. Under the write lock, a partial last
   * line can only be a crashed writer's torn write: it is moved aside and reported.
   */
  private async catchUp(underLock: boolean): Promise<void> {
    if (this.closed) throw new StorageError('the store is closed');
    const { ino, size } = this.journal.stat();
    const replaced = (this.position.ino !== 0 && ino !== this.position.ino) || size < this.position.offset;
    const incomplete = replaced ? await this.load() : this.applyLines();
    if (incomplete && underLock) {
      const keptAt = this.journal.setAsideTail(this.position.offset);
      this.warn({
        code: 'torn-journal-tail',
        message: `the journal ended in an incomplete line (a write interrupted by a crash, never acknowledged); it was moved to ${keptAt}`,
        keptAt,
      });
    }
  }

  /** Appends entries durably and applies them here. Must run under the lock, caught up, database loaded. */
  private append(entries: JournalEntry[]): void {
    const text = entries.map((e) => (e.type === 'memory.version' ? versionLine(e.row) : purgeLine(e.id, e.at, e.author))).join('\n') + '\n';
    const { ino, size } = this.journal.append(text, this.position.offset);
    const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    this.position = { ino, offset: size, tailSha: sha1(lastLine), tailLength: Buffer.byteLength(lastLine) };
    this.db!.sql.exec('BEGIN');
    for (const e of entries) this.applyEntry(e);
    this.db!.sql.exec('COMMIT');
    this.linesSinceCheckpoint += entries.length;
  }

  /** Runs `fn` under the write lock with the database loaded and every other process's writes applied. */
  private exclusive<T>(fn: (table: VersionTable) => T): Promise<T> {
    try {
      fs.mkdirSync(this.location, { recursive: true });
    } catch (err) {
      return Promise.reject(new StorageError(`cannot create the store at ${this.location}: ${(err as Error).message}`, { cause: err }));
    }
    return this.lock
      .run(async () => {
        // Catch up first: a replaced journal reloads everything, the database included.
        await this.catchUp(true);
        return fn(await this.table());
      })
      .finally(() => {
        if (this.linesSinceCheckpoint >= this.checkpointEvery) this.scheduleCheckpoint();
      });
  }

  /** A read from the database, after catching up. */
  private async fromTable<T>(fn: (table: VersionTable) => T): Promise<T> {
    await this.catchUp(false);
    return fn(await this.table());
  }

  /** A read from the view only: never loads the database. */
  private async fromView<T>(fn: (view: CurrentView) => T): Promise<T> {
    await this.catchUp(false);
    return fn(this.view);
  }

  current(id: string): Promise<StoredVersion | undefined> {
    return this.fromTable((t) => t.current(id));
  }

  version(id: string, version: number): Promise<StoredVersion | undefined> {
    return this.fromTable((t) => t.version(id, version));
  }

  history(id: string): Promise<StoredVersion[]> {
    return this.fromTable((t) => t.history(id));
  }

  list(options: { deleted: boolean; limit: number; after?: ListCursor }): Promise<ListedMemory[]> {
    return this.fromTable((t) => t.list(options.deleted, options.limit, options.after));
  }

  search(query: SearchQuery): Promise<StoredHit[]> {
    return this.fromView((v) => v.index.search(query).map(({ id, description, tags, changedAt }) => ({ id, description, tags, changedAt })));
  }

  tagCounts(): Promise<Array<{ tag: string; count: number }>> {
    return this.fromView((v) => v.index.tagCounts());
  }

  write(id: string, decide: WriteDecision): Promise<StoredVersion | null> {
    return this.exclusive((t) => {
      const row = decide(t.current(id), t.maxVersion(id));
      if (row) this.append([{ v: 1, type: 'memory.version', row }]);
      return row;
    });
  }

  importVersions(rows: StoredVersion[]): Promise<{ added: number; skipped: number }> {
    return this.exclusive((t) => {
      const seen = new Set<string>();
      const fresh = rows.filter((r) => {
        const keep = !seen.has(r.rowId) && !t.isPurged(r.id) && !t.hasRow(r.rowId);
        seen.add(r.rowId);
        return keep;
      });
      if (fresh.length) this.append(fresh.map((row) => ({ v: 1, type: 'memory.version' as const, row })));
      return { added: fresh.length, skipped: rows.length - fresh.length };
    });
  }

  async *exportVersions(): AsyncIterable<StoredVersion> {
    yield* await this.fromTable((t) => t.allVersions());
  }

  purge(id: string): Promise<number> {
    return this.exclusive((t) => {
      const removed = t.history(id).length;
      if (removed === 0) return 0;
      const at = new Date().toISOString();
      const keep = this.journal.linesUpTo(this.position.offset).filter((text) => {
        const parsed = parseLine(text);
        // Unreadable lines are kept as they are; only this id's versions go.
        return !(parsed.ok && parsed.entry.type === 'memory.version' && parsed.entry.row.id === id);
      });
      keep.push(purgeLine(id, at, 'purge'));
      this.journal.replace(keep);
      this.db!.sql.exec('BEGIN');
      this.applyEntry({ v: 1, type: 'memory.purge', id, at, author: 'purge' });
      this.db!.sql.exec('COMMIT');
      const { ino, size } = this.journal.stat();
      const last = `${keep[keep.length - 1]!}\n`;
      this.position = { ino, offset: size, tailSha: sha1(last), tailLength: Buffer.byteLength(last) };
      // The old snapshot and view still hold the rows: replace them now, not at the next checkpoint.
      this.checkpoint();
      return removed;
    });
  }

  warnings(): StoreWarning[] {
    return [...this.warningList];
  }

  /** Number of version rows (for benchmarks and tests). */
  countVersions(): Promise<number> {
    return this.fromTable((t) => t.countVersions());
  }

  private scheduleCheckpoint(): void {
    if (this.checkpointTimer || this.closed) return;
    this.checkpointTimer = setImmediate(() => {
      this.checkpointTimer = undefined;
      if (this.closed) return;
      try {
        this.checkpoint();
      } catch (err) {
        this.warn({ code: 'checkpoint-failed', message: `writing the snapshot failed (the journal still has every write): ${(err as Error).message}` });
      }
    });
  }

  /**
   * Saves the caches now: the view always, the database when it is loaded. Synchronous,
   * so no write interleaves; both describe the same journal position.
   */
  checkpoint(): void {
    if (this.journal.stat().ino === 0) return; // nothing written yet: nothing to cache
    if (this.db) {
      if (!writeSnapshot(this.db.sql, this.snapshotFile, this.position, this.journal)) return;
      this.db.table.invalidate();
    }
    const sameJournal = () => this.position.ino === 0 || this.journal.stat().ino === this.position.ino;
    if (!this.view.save(this.viewFile, this.position, sameJournal)) return;
    this.linesSinceCheckpoint = 0;
    this.viewFileStale = false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.drain();
    await this.dbLoading?.catch(() => undefined);
    if (this.checkpointTimer) clearImmediate(this.checkpointTimer);
    this.checkpointTimer = undefined;
    try {
      // Short-lived processes (the CLI) would otherwise export the database on every run.
      if (this.viewFileStale || this.linesSinceCheckpoint >= Math.ceil(this.checkpointEvery / 4)) this.checkpoint();
    } finally {
      this.closed = true;
      this.db?.sql.close();
    }
  }
}
