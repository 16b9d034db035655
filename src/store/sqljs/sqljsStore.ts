import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../../core/errors';
import type { SearchQuery } from '../../core/search/query';
import type { RecordStore } from '../../core/ports/records';
import type { StoredCitation } from '../../core/contract/citations';
import type { ListCursor, ListedMemory, Store, StoredHit, StoredVersion, StoreWarning, WriteDecision } from '../../core/ports/store';
import { WriteLock } from '../writeLock';
import { type CurrentView, VIEW_FILE } from './currentView';
import { entryLine, type JournalEntry } from './entries';
import { writeGitFiles } from './gitSharing';
import { type JournalRepair, keptLines, setAsideForRepair } from './journalRepair';
import { JournalFile } from './journal';
import { JournalSync } from './journalSync';
import type { SqlJsStoreOptions } from './sqljsOptions';
import { SqlJsRecords } from './sqljsRecords';
import type { VersionTable } from './versionTable';

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
  /** A workspace store has no database roles: who wrote is what its author says (declared, not proven). */
  readonly dbRole = null;
  private readonly journal: JournalFile;
  /** The view and the database, in step with the journal. */
  private readonly sync: JournalSync;
  private readonly lock: WriteLock;
  private readonly checkpointEvery: number;
  private readonly warningList: StoreWarning[] = [];
  private checkpointTimer: NodeJS.Immediate | undefined;
  private closed = false;
  /** Whether this process has looked for the git files in a folder it did not create (once, at its first write). */
  private gitFilesChecked = false;
  readonly records: RecordStore = new SqlJsRecords({
    exclusive: (fn) => this.exclusive((t) => fn(t.records)),
    fromTable: (fn) => this.fromTable((t) => fn(t.records)),
    append: (entries) => this.sync.append(entries),
    rewrite: (keep, purge) => this.rewrite(keep, purge),
  });

  private constructor(private readonly options: SqlJsStoreOptions) {
    this.location = path.resolve(options.dir);
    this.journal = new JournalFile(path.join(this.location, 'journal.jsonl'));
    this.sync = new JournalSync(
      {
        journal: this.journal,
        snapshot: path.join(this.location, 'snapshot.sqlite'),
        view: path.join(this.location, VIEW_FILE),
        wasmPath: options.wasmPath,
        incremental: options.incrementalCatchUp,
        viewFirstFrom: options.viewFirstFrom,
      },
      (w) => this.warn(w),
    );
    this.checkpointEvery = options.checkpointEvery ?? 1000;
    this.lock = new WriteLock(path.join(this.location, 'write.lock'), {
      staleMs: options.lockStaleMs,
      onWarning: (message) => this.warn({ code: 'lock', message }),
    });
  }

  static async open(options: SqlJsStoreOptions): Promise<SqlJsStore> {
    // The folder is created by the first write, so reading or a refused command leaves nothing behind.
    const store = new SqlJsStore(options);
    const incomplete = await store.sync.load();
    // A partial last line may be a write in progress; only under the lock is it known to be torn.
    if (incomplete) await store.lock.run(() => store.catchUp(true));
    if (store.sync.linesSinceCheckpoint >= store.checkpointEvery) store.scheduleCheckpoint();
    return store;
  }

  private warn(w: StoreWarning): void {
    this.warningList.push(w);
    this.options.onWarning?.(w);
  }

  /**
   * Brings this process up to date with the journal (see JournalSync.catchUp). Under the
   * write lock, a partial last line can only be a crashed writer's torn write: it is moved
   * aside and reported.
   */
  private async catchUp(underLock: boolean): Promise<void> {
    if (this.closed) throw new StorageError('the store is closed');
    const incomplete = await this.sync.catchUp();
    if (incomplete && underLock) {
      const keptAt = this.journal.setAsideTail(this.sync.cursor.position.offset);
      this.warn({
        code: 'torn-journal-tail',
        message: `the journal ended in an incomplete line (a write interrupted by a crash, never acknowledged); it was moved to ${keptAt}`,
        keptAt,
      });
    }
  }

  /** Runs `fn` under the write lock with the database loaded and every other process's writes applied. */
  private async exclusive<T>(fn: (table: VersionTable) => T | Promise<T>): Promise<T> {
    // Loaded before the lock, as reads load it: building it can take a while, and other writers wait for the lock.
    if (!this.closed) await this.sync.table();
    return this.underLock(async () => fn(await this.sync.table()));
  }

  /** Runs `fn` under the write lock with every other process's writes applied to the view (the database, if loaded). */
  private underLock<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      // A folder the store creates gets the git files at once, so its caches are never
      // committed by accident (docs/ARCHITECTURE.md, "Sharing through git"); so does a folder
      // a person made first (say, for ontology.yaml) that has no .gitattributes yet.
      const created = fs.mkdirSync(this.location, { recursive: true }) !== undefined;
      if (created || (!this.gitFilesChecked && !fs.existsSync(path.join(this.location, '.gitattributes')))) writeGitFiles(this.location);
      this.gitFilesChecked = true;
    } catch (err) {
      return Promise.reject(new StorageError(`cannot create the store at ${this.location}: ${(err as Error).message}`, { cause: err }));
    }
    return this.lock
      .run(async () => {
        // Catch up first: a replaced journal reloads everything, the database included.
        await this.catchUp(true);
        return fn();
      })
      .finally(() => {
        if (this.sync.linesSinceCheckpoint >= this.checkpointEvery) this.scheduleCheckpoint();
      });
  }

  /** A read from the database, after catching up. */
  private async fromTable<T>(fn: (table: VersionTable) => T): Promise<T> {
    await this.catchUp(false);
    return fn(await this.sync.table());
  }

  /** A read from the view only: never loads the database. */
  private async fromView<T>(fn: (view: CurrentView) => T): Promise<T> {
    await this.catchUp(false);
    return fn(this.sync.view);
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
    return this.fromView((v) =>
      v.index.search(query).map(({ id, description, tags, changedAt }) => ({ id, description, tags, changedAt })),
    );
  }

  similar(terms: ReadonlySet<string>, min: number, limit: number): Promise<Array<StoredHit & { similarity: number }>> {
    return this.fromView((v) => v.index.similar(terms, min, limit));
  }

  citationsOf(ids: readonly string[]): Promise<Map<string, StoredCitation[]>> {
    return this.fromView((v) => v.citationsOf(ids));
  }

  tagCounts(): Promise<Array<{ tag: string; count: number }>> {
    return this.fromView((v) => v.index.tagCounts());
  }

  async write(id: string, decide: WriteDecision): Promise<StoredVersion | null> {
    if (!this.closed && !this.sync.decidesWithoutTable(id)) await this.sync.table(); // before the lock, as in exclusive()
    return this.underLock(async () => {
      // A new id (every create's) is decided from the view: a one-shot create does not start sql.js.
      const table = this.sync.decidesWithoutTable(id) ? undefined : await this.sync.table();
      const row = table ? decide(table.current(id), table.maxVersion(id)) : decide(undefined, 0);
      if (row) this.sync.append([{ v: 1, type: 'memory.version', row }]);
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
      if (fresh.length) this.sync.append(fresh.map((row) => ({ v: 1, type: 'memory.version' as const, row })));
      return { added: fresh.length, skipped: rows.length - fresh.length };
    });
  }

  async *exportVersions(): AsyncIterable<StoredVersion> {
    yield* await this.fromTable((t) => t.allVersions());
  }

  purge(id: string, author: string): Promise<number> {
    return this.exclusive((t) => {
      const removed = t.history(id).length;
      if (removed === 0) return 0;
      const at = new Date().toISOString();
      this.rewrite((e) => (e.type === 'memory.version' && e.row.id === id ? null : e), {
        v: 1,
        type: 'memory.purge',
        id,
        at,
        author,
      });
      return removed;
    });
  }

  /**
   * Rewrites the journal with each entry as `keep` returns it (null drops it; unreadable
   * lines stay as they are), appends `purge`, applies it, and saves the caches at once: the
   * old snapshot and view still hold the purged rows. Under the lock, caught up.
   */
  private rewrite(keep: (entry: JournalEntry) => JournalEntry | null, purge: JournalEntry): void {
    this.sync.replaceJournal([...keptLines(this.journal, this.sync.cursor.position.offset, keep), entryLine(purge)]);
    this.sync.apply([purge]);
    this.checkpoint();
  }

  /**
   * `doctor --repair`: under the write lock, the journal's torn tail and damaged lines set aside
   * (setAsideForRepair; a newer release's lines stay), then both caches rebuilt from it and saved,
   * so no later open warns about what was repaired. Nothing else is written.
   */
  repair(): Promise<JournalRepair> {
    if (this.journal.stat().ino === 0) return Promise.resolve({ rejected: [], rejectedFile: undefined, tornKeptAt: undefined });
    return this.lock.run(async () => {
      const repaired = setAsideForRepair(this.journal);
      await this.sync.load();
      await this.sync.table();
      this.sync.save();
      return repaired;
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
        this.warn({
          code: 'checkpoint-failed',
          message: `writing the snapshot failed (the journal still has every write): ${(err as Error).message}`,
        });
      }
    });
  }

  /**
   * Saves the caches now: the view always, the database when it is loaded. Synchronous,
   * so no write interleaves; both describe the same journal position.
   */
  checkpoint(): void {
    if (this.journal.stat().ino === 0) return; // nothing written yet: nothing to cache
    this.sync.save();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.drain();
    await this.sync.settled();
    if (this.checkpointTimer) clearImmediate(this.checkpointTimer);
    this.checkpointTimer = undefined;
    try {
      // Short-lived processes (the CLI) would otherwise export the database on every run.
      if (this.sync.viewFileStale || this.sync.linesSinceCheckpoint >= Math.ceil(this.checkpointEvery / 4)) this.checkpoint();
    } finally {
      this.closed = true;
      this.sync.dispose();
    }
  }
}
