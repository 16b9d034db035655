import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { StorageError } from '../../core/errors';
import type { SearchQuery } from '../../core/search/query';
import { SearchIndex } from '../../core/search/searchIndex';
import type { ListCursor, ListedMemory, Store, StoredHit, StoredVersion, StoreWarning, WriteDecision } from '../store';
import { WriteLock } from '../writeLock';
import { parseLine, purgeLine, versionLine, type JournalEntry } from './entries';
import { JournalFile, type JournalPosition, sha1 } from './journal';
import { loadSnapshot, writeSnapshot } from './snapshot';
import { VersionTable } from './versionTable';

export interface SqlJsStoreOptions {
  /** Folder of the store: journal.jsonl, snapshot.sqlite, write.lock. Created if missing. */
  dir: string;
  /** Path of sql-wasm.wasm; by default sql.js finds it next to its own code. */
  wasmPath?: string;
  /** Write a snapshot after this many journal lines since the last one (default 1000). */
  checkpointEvery?: number;
  /** A write lock not refreshed for this long is taken over (default 10 s, at least 2 s). */
  lockStaleMs?: number;
  /** Told about anything set aside or repaired, and about failed background checkpoints. */
  onWarning?: (warning: StoreWarning) => void;
}

let sqlJs: Promise<SqlJsStatic> | undefined;
function loadSqlJs(wasmPath?: string): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs(wasmPath ? { locateFile: () => wasmPath } : undefined);
  return sqlJs;
}

/**
 * The workspace store: an in-memory SQLite database (sql.js) in front of an append-only
 * journal. A write appends one JSON line and fdatasyncs it under a cross-process lock,
 * after catching up with lines other processes appended; the database is exported to a
 * snapshot only now and then, off the write path. Opening loads the snapshot and replays
 * the journal lines after it. See docs/ARCHITECTURE.md for the reasoning and figures.
 */
export class SqlJsStore implements Store {
  readonly location: string;
  private db!: Database;
  private table!: VersionTable;
  private position!: JournalPosition;
  private readonly index = new SearchIndex();
  private readonly journal: JournalFile;
  private readonly snapshotFile: string;
  private readonly lock: WriteLock;
  private readonly checkpointEvery: number;
  private readonly warningList: StoreWarning[] = [];
  private linesSinceCheckpoint = 0;
  private checkpointTimer: NodeJS.Immediate | undefined;
  private closed = false;

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly options: SqlJsStoreOptions,
  ) {
    this.location = path.resolve(options.dir);
    this.journal = new JournalFile(path.join(this.location, 'journal.jsonl'));
    this.snapshotFile = path.join(this.location, 'snapshot.sqlite');
    this.checkpointEvery = options.checkpointEvery ?? 1000;
    this.lock = new WriteLock(this.location, path.join(this.location, 'write.lock'), {
      staleMs: options.lockStaleMs,
      onWarning: (message) => this.warn({ code: 'lock', message }),
    });
  }

  static async open(options: SqlJsStoreOptions): Promise<SqlJsStore> {
    let SQL: SqlJsStatic;
    try {
      fs.mkdirSync(options.dir, { recursive: true });
      SQL = await loadSqlJs(options.wasmPath);
    } catch (err) {
      throw new StorageError(`cannot open the store at ${options.dir}: ${(err as Error).message}`, { cause: err });
    }
    const store = new SqlJsStore(SQL, options);
    const incomplete = store.load();
    // A partial last line may be a write in progress; only under the lock is it known to be torn.
    if (incomplete) await store.lock.run(() => store.catchUp(true));
    if (store.linesSinceCheckpoint >= store.checkpointEvery) store.scheduleCheckpoint();
    return store;
  }

  private warn(w: StoreWarning): void {
    this.warningList.push(w);
    this.options.onWarning?.(w);
  }

  /** (Re)loads everything from disk; returns true when the journal ends in an incomplete line. */
  private load(): boolean {
    this.db?.close();
    const loaded = loadSnapshot(this.SQL, this.snapshotFile, this.journal, (w) => this.warn(w));
    this.db = loaded.db;
    this.table = new VersionTable(this.db);
    this.position = loaded.position;
    this.linesSinceCheckpoint = 0;
    const incomplete = this.readNewLines();
    this.index.clear();
    for (const m of this.table.currentLive()) this.index.put(m);
    return incomplete;
  }

  /** Applies complete lines appended since our position. Returns true when an incomplete line follows. */
  private readNewLines(): boolean {
    const { ino, size } = this.journal.stat();
    if (size <= this.position.offset) return false;
    const lines = this.journal.readLines(this.position.offset, size);
    this.db.exec('BEGIN');
    let last: { text: string; end: number; start: number } | undefined;
    let result: IteratorResult<unknown, { end: number; incomplete: boolean }>;
    try {
      while (!(result = lines.next()).done) {
        const line = result.value as { text: string; start: number; end: number };
        last = line;
        this.applyLine(line.text, line.start);
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw new StorageError(`reading the journal failed: ${(err as Error).message}`, { cause: err });
    }
    if (last) {
      this.position = { ino, offset: last.end, tailSha: sha1(last.text + '\n'), tailLength: Buffer.byteLength(last.text) + 1 };
    }
    return result.value.incomplete;
  }

  private applyLine(text: string, start: number): void {
    this.linesSinceCheckpoint++;
    if (text.trim() === '') return;
    const parsed = parseLine(text);
    if (!parsed.ok) {
      this.warn({
        code: parsed.unknown ? 'unknown-journal-entry' : 'bad-journal-line',
        message: `journal line at byte ${start} of ${this.journal.file} ${parsed.reason}; it was skipped and left in place`,
      });
      return;
    }
    this.applyEntry(parsed.entry);
  }

  private applyEntry(entry: JournalEntry): void {
    if (entry.type === 'memory.purge') {
      this.table.purge(entry.id, entry.at);
      this.index.remove(entry.id);
      return;
    }
    const { becameCurrent } = this.table.insert(entry.row);
    if (!becameCurrent) return;
    const r = entry.row;
    if (r.deletedAt) this.index.remove(r.id);
    else this.index.put({ id: r.id, description: r.description, tags: r.tags, changedAt: r.changedAt });
  }

  /**
   * Brings this process up to date with the journal. Under the write lock, a partial last
   * line can only be a crashed writer's torn write: it is moved aside and reported.
   */
  private catchUp(underLock: boolean): void {
    if (this.closed) throw new StorageError('the store is closed');
    const { ino, size } = this.journal.stat();
    const replaced = (this.position.ino !== 0 && ino !== this.position.ino) || size < this.position.offset;
    const incomplete = replaced ? this.load() : this.readNewLines();
    if (incomplete && underLock) {
      const keptAt = this.journal.setAsideTail(this.position.offset);
      this.warn({
        code: 'torn-journal-tail',
        message: `the journal ended in an incomplete line (a write interrupted by a crash, never acknowledged); it was moved to ${keptAt}`,
        keptAt,
      });
    }
  }

  /** Appends entries durably and applies them here. Must run under the lock, caught up. */
  private append(entries: JournalEntry[]): void {
    const text = entries.map((e) => (e.type === 'memory.version' ? versionLine(e.row) : purgeLine(e.id, e.at, e.author))).join('\n') + '\n';
    const { ino, size } = this.journal.append(text, this.position.offset);
    const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    this.position = { ino, offset: size, tailSha: sha1(lastLine), tailLength: Buffer.byteLength(lastLine) };
    this.db.exec('BEGIN');
    for (const e of entries) this.applyEntry(e);
    this.db.exec('COMMIT');
    this.linesSinceCheckpoint += entries.length;
  }

  private exclusive<T>(fn: () => T): Promise<T> {
    return this.lock.run(() => {
      this.catchUp(true);
      return fn();
    }).finally(() => {
      if (this.linesSinceCheckpoint >= this.checkpointEvery) this.scheduleCheckpoint();
    });
  }

  private read<T>(fn: () => T): Promise<T> {
    try {
      this.catchUp(false);
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  current(id: string): Promise<StoredVersion | undefined> {
    return this.read(() => this.table.current(id));
  }

  version(id: string, version: number): Promise<StoredVersion | undefined> {
    return this.read(() => this.table.version(id, version));
  }

  history(id: string): Promise<StoredVersion[]> {
    return this.read(() => this.table.history(id));
  }

  list(options: { deleted: boolean; limit: number; after?: ListCursor }): Promise<ListedMemory[]> {
    return this.read(() => this.table.list(options.deleted, options.limit, options.after));
  }

  search(query: SearchQuery): Promise<StoredHit[]> {
    return this.read(() => this.index.search(query).map(({ id, description, tags, changedAt }) => ({ id, description, tags, changedAt })));
  }

  tagCounts(): Promise<Array<{ tag: string; count: number }>> {
    return this.read(() => this.index.tagCounts());
  }

  write(id: string, decide: WriteDecision): Promise<StoredVersion | null> {
    return this.exclusive(() => {
      const row = decide(this.table.current(id), this.table.maxVersion(id));
      if (row) this.append([{ v: 1, type: 'memory.version', row }]);
      return row;
    });
  }

  importVersions(rows: StoredVersion[]): Promise<{ added: number; skipped: number }> {
    return this.exclusive(() => {
      const seen = new Set<string>();
      const fresh = rows.filter((r) => {
        const keep = !seen.has(r.rowId) && !this.table.isPurged(r.id) && !this.table.hasRow(r.rowId);
        seen.add(r.rowId);
        return keep;
      });
      if (fresh.length) this.append(fresh.map((row) => ({ v: 1, type: 'memory.version' as const, row })));
      return { added: fresh.length, skipped: rows.length - fresh.length };
    });
  }

  async *exportVersions(): AsyncIterable<StoredVersion> {
    this.catchUp(false);
    yield* this.table.allVersions();
  }

  purge(id: string): Promise<number> {
    return this.exclusive(() => {
      const removed = this.table.history(id).length;
      if (removed === 0) return 0;
      const at = new Date().toISOString();
      const keep = this.keptLinesWithout(id);
      keep.push(purgeLine(id, at, 'purge'));
      this.journal.replace(keep);
      this.db.exec('BEGIN');
      this.applyEntry({ v: 1, type: 'memory.purge', id, at, author: 'purge' });
      this.db.exec('COMMIT');
      const { ino, size } = this.journal.stat();
      const last = keep[keep.length - 1]! + '\n';
      this.position = { ino, offset: size, tailSha: sha1(last), tailLength: Buffer.byteLength(last) };
      // The old snapshot still holds the rows: replace it now, not at the next checkpoint.
      this.checkpoint();
      return removed;
    });
  }

  /** Every journal line except the versions of `id` (unreadable lines are kept as they are). */
  private keptLinesWithout(id: string): string[] {
    const keep: string[] = [];
    const lines = this.journal.readLines(0, this.position.offset);
    for (let r = lines.next(); !r.done; r = lines.next()) {
      const parsed = parseLine(r.value.text);
      if (parsed.ok && parsed.entry.type === 'memory.version' && parsed.entry.row.id === id) continue;
      keep.push(r.value.text);
    }
    return keep;
  }

  warnings(): StoreWarning[] {
    return [...this.warningList];
  }

  /** Number of version rows (for benchmarks and tests). */
  get versionCount(): number {
    return this.table.countVersions();
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

  /** Exports the database as the snapshot now. Synchronous, so no write interleaves. */
  checkpoint(): void {
    if (writeSnapshot(this.db, this.snapshotFile, this.position, this.journal)) this.linesSinceCheckpoint = 0;
    this.table.invalidate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.drain();
    if (this.checkpointTimer) clearImmediate(this.checkpointTimer);
    this.checkpointTimer = undefined;
    try {
      // Short-lived processes (the CLI) would otherwise export the database on every run.
      if (this.linesSinceCheckpoint >= Math.ceil(this.checkpointEvery / 4)) this.checkpoint();
    } finally {
      this.closed = true;
      this.db.close();
    }
  }
}
