import { StorageError } from '../../core/errors';
import type { StoreWarning } from '../../core/ports/store';
import { AppliedLines, entryKey, lineKey } from './appliedLines';
import { viewFromJournal } from './currentHeads';
import { carriedTerms } from './carriedTerms';
import { CurrentView } from './currentView';
import { badLineWarning, entryLine, type ParsedLine, parseLine, type JournalEntry } from './entries';
import { EMPTY_POSITION, type JournalFile, type JournalLine, type JournalPosition, type JournalStat, positionAfter } from './journal';
import { JournalCursor } from './journalCursor';
import { inTransaction, LoadedDatabase } from './loadedDatabase';
import { loadSnapshot, snapshotFromNewerRelease, writeSnapshot } from './snapshot';
import { loadSqlJs } from './sqljsOptions';
import { VersionTable } from './versionTable';

export interface JournalSyncFiles {
  journal: JournalFile;
  snapshot: string;
  view: string;
  wasmPath?: string;
  /** False: a journal changed underneath reloads the caches, as before the incremental catch-up (benchmarks compare both). */
  incremental?: boolean;
  /** Without a snapshot, a journal of at least this many bytes builds the view alone first (default VIEW_FIRST_FROM). */
  viewFirstFrom?: number;
}

/**
 * Opening without a usable saved view (a fresh clone; a view of another release; a journal whose
 * history was rewritten) builds the search view from the journal and leaves the database for the
 * first operation that needs it, once the journal is this large: below it, building both at once
 * costs little and the first checkpoint saves a snapshot as well.
 */
export const VIEW_FIRST_FROM = 1 << 20;

/** What applyLines reads to (default: the file's end), whether it warns of bad lines and records the lines' keys, and the journal's stat when the caller has one. */
interface ApplyOptions {
  until?: number;
  warn?: boolean;
  record?: boolean;
  stat?: JournalStat;
}

/**
 * The store's two caches kept in step with the journal: the CurrentView (searches) and,
 * once loaded, the sql.js database (everything else), both at the cursor's position. New
 * lines are applied as they appear; a journal that no longer continues what was read
 * (replaced by a purge, rewritten by git) makes both reload from the files on disk.
 * Callers serialise writes (the store's lock); nothing here takes a lock.
 */
export class JournalSync {
  view = new CurrentView();
  /** The lines the view has consumed, by key: what a journal changed by git is reconciled with. */
  private lines = AppliedLines.after(EMPTY_POSITION);
  readonly cursor: JournalCursor;
  private db: LoadedDatabase | undefined;
  private dbLoading: Promise<VersionTable> | undefined;
  /** Set while catching up: database work is left to the database's backlog (LoadedDatabase). */
  private deferDb = false;
  /** Lines applied since the caches were last saved. */
  linesSinceCheckpoint = 0;
  /** The saved view on disk is known to be unusable (rebuilt here): save it at the next chance. */
  viewFileStale = false;

  constructor(
    private readonly files: JournalSyncFiles,
    private readonly warn: (w: StoreWarning) => void,
  ) {
    this.cursor = new JournalCursor(files.journal);
  }

  /**
   * (Re)loads from disk: the saved view if usable (caught up with a journal git changed by
   * reconciling the lines), else the journal alone when there is no snapshot (a fresh clone:
   * the database loads later, when needed), else the database. True when an incomplete line follows.
   */
  async load(): Promise<boolean> {
    this.db?.close();
    this.db = undefined;
    this.linesSinceCheckpoint = 0;
    const saved = CurrentView.load(this.files.view);
    let reason = 'reason' in saved ? saved.reason : undefined;
    const { ino } = this.files.journal.stat();
    if ('view' in saved) {
      this.view = saved.view;
      this.lines = saved.lines;
      this.cursor.moveTo({ ...saved.position, ino });
      const caughtUp = this.tryCatchUp();
      if (caughtUp !== undefined) return caughtUp;
      reason = 'it no longer matches the journal';
    }
    if (reason)
      this.warn({
        code: 'index-rebuilt',
        message: `the saved search index ${this.files.view} was not used: ${reason}; it is rebuilt`,
      });
    this.view = new CurrentView();
    this.moveTo({ ...EMPTY_POSITION, ino });
    this.viewFileStale = true;
    // The view alone answers searches sooner than the database and a view made from its rows: the
    // journal's lines carry their terms, and the database (from the snapshot, or from the journal
    // when the snapshot no longer matches it) loads when an operation first needs it.
    if (this.files.journal.stat().size >= (this.files.viewFirstFrom ?? VIEW_FIRST_FROM)) return this.buildView();
    await this.table(true);
    return this.applyLines();
  }

  /** Builds the view from the whole journal, without the database (viewFromJournal). */
  private buildView(): boolean {
    const built = viewFromJournal(this.files.journal, this.cursor);
    this.view = built.view;
    this.lines = built.lines;
    this.linesSinceCheckpoint += built.count;
    for (const { parsed, line } of built.badLines) this.warnBadLine(parsed, line);
    return built.incomplete;
  }

  /**
   * Applies what other processes (or git) changed in the journal. True when an incomplete
   * line follows: a write in progress, or a torn one (only the write lock can tell). A journal
   * changed underneath is reconciled (only new lines applied) unless history was rewritten.
   */
  catchUp(): Promise<boolean> | boolean {
    return this.tryCatchUp() ?? this.load();
  }

  /** The new lines applied, or (diverged) reconciled; undefined when only a reload can follow the file. */
  private tryCatchUp(): boolean | undefined {
    this.deferDb = true;
    try {
      const stat = this.files.journal.stat();
      if (!this.cursor.diverged(stat)) return this.applyLines({ stat });
      return this.files.incremental === false ? undefined : this.reconcile();
    } finally {
      this.deferDb = false;
    }
  }

  /** Moves the cursor to a position whose lines are not known (a loaded cache, a rewritten journal). */
  private moveTo(position: JournalPosition): void {
    this.cursor.moveTo(position);
    this.lines = AppliedLines.after(position);
  }

  /**
   * Catches up with a journal git changed underneath: applies the lines after its part still in
   * place that were not consumed before. Undefined (nothing applied) when a consumed line is
   * gone: history was rewritten, the caches must be reloaded. Else whether an incomplete line follows.
   */
  private reconcile(): boolean | undefined {
    const stat = this.files.journal.stat();
    const found = this.lines.reconcile(this.files.journal, stat.size, this.cursor.position, (text) => {
      const parsed = parseLine(text);
      return { key: lineKey(parsed, text), value: parsed };
    });
    if (!found) return undefined;
    inTransaction(this.db?.sql, () => {
      for (const t of found.tail) if (t.fresh) this.applyParsed(t.value, t.line, true);
    });
    const last = found.tail[found.tail.length - 1]?.line;
    this.cursor.moveTo(last ? positionAfter(stat.ino, last.end, `${last.text}\n`) : { ...this.cursor.position, ino: stat.ino });
    return found.incomplete;
  }

  /**
   * Whether a write of memory `id` can be decided without the database: it is not loaded (else
   * it is as cheap to ask), the caught-up view has never seen `id` (so neither has the
   * database: the view holds every id's head, deleted ones included, and every purge), and
   * the snapshot is not a newer release's (which the database would refuse). The database
   * replays what is appended meanwhile whenever it loads.
   */
  decidesWithoutTable(id: string): boolean {
    return !this.db && !this.view.knows(id) && !snapshotFromNewerRelease(this.files.snapshot);
  }

  /** The database, loaded on first use and brought to the view's journal position. */
  async table(rebuildView = false): Promise<VersionTable> {
    if (this.db) {
      this.db.flush();
      return this.db.table;
    }
    this.dbLoading ??= (async () => {
      const SQL = await loadSqlJs(this.files.wasmPath).catch((err: Error) => {
        throw new StorageError(`cannot start sql.js: ${err.message}`, { cause: err });
      });
      const loaded = loadSnapshot(SQL, this.files.snapshot, this.files.journal, this.warn);
      const table = new VersionTable(loaded.db);
      const viewAt = this.cursor.position.offset;
      // The journal was replaced or rewritten (a purge by another process, a git pull) while
      // sql.js started: the view describes the old file and may hold purged rows, so it is
      // rebuilt from the database, which loadSnapshot matched against the file as it is now.
      const replaced = this.cursor.diverged();
      if (replaced) this.viewFileStale = true;
      if (rebuildView || replaced) {
        this.db = new LoadedDatabase(loaded.db, table);
        this.moveTo(loaded.position);
        this.view = CurrentView.fromRows(table.currentAll(), table.purgedIds());
        // load() applies the rest itself; here the caller is about to read from the table.
        if (replaced && !rebuildView) this.applyLines();
      } else if (loaded.position.offset <= viewAt) {
        // The snapshot is older than the view: replay the difference into the database (the
        // view has these lines, and their keys).
        this.cursor.moveTo(loaded.position);
        this.db = new LoadedDatabase(loaded.db, table);
        this.applyLines({ until: viewAt, warn: false, record: false });
      } else {
        // The snapshot is newer (another process checkpointed): the view catches up to it.
        this.applyLines({ until: loaded.position.offset, warn: false });
        this.db = new LoadedDatabase(loaded.db, table);
      }
      return table;
    })().finally(() => (this.dbLoading = undefined));
    return this.dbLoading;
  }

  /**
   * Applies complete journal lines from our position up to `until` (default: the end of
   * the file, as `stat` finds it) to the view and, when loaded, the database. True when an
   * incomplete line follows. Nothing appended since (what every write of a process finds):
   * no read and no database transaction.
   */
  private applyLines({ until, warn = true, record = true, stat = this.files.journal.stat() }: ApplyOptions = {}): boolean {
    if (Math.min(until ?? stat.size, stat.size) <= this.cursor.position.offset) return false;
    return inTransaction(this.db?.sql, () =>
      this.cursor.advance(
        (line) => {
          const parsed = parseLine(line.text);
          this.applyParsed(parsed, line, warn);
          if (record) this.lines.record(lineKey(parsed, line.text), line);
        },
        until,
        stat,
      ),
    );
  }

  private applyParsed(parsed: ParsedLine, line: JournalLine, warn: boolean): void {
    this.linesSinceCheckpoint++;
    if (parsed.ok) this.applyEntry(parsed.entry);
    else if (warn) this.warnBadLine(parsed, line);
  }

  private warnBadLine(parsed: Extract<ParsedLine, { ok: false }>, line: JournalLine): void {
    const warning = badLineWarning(parsed, line, this.files.journal.file);
    if (warning) this.warn(warning);
  }

  /** Applies entries to both caches in one transaction (replay is idempotent by rowId). */
  apply(entries: JournalEntry[]): void {
    inTransaction(this.db?.sql, () => entries.forEach((e) => this.applyEntry(e)), false);
  }

  private applyEntry(entry: JournalEntry): void {
    if (entry.type === 'memory.purge') this.view.purge(entry.id);
    else if (entry.type === 'memory.version') this.view.apply(entry.row, entry.terms);
    this.db?.apply(entry, this.deferDb);
  }

  /**
   * Appends entries durably and applies them here. Must run under the lock, caught up, with the
   * database loaded unless the view alone decided the entries (a memory id it has never seen).
   */
  append(entries: JournalEntry[]): void {
    // A live version's line carries its terms (carriedTerms.ts): analysed once, for the line and the view.
    entries = entries.map((e) => (e.type === 'memory.version' && !e.terms ? { ...e, terms: carriedTerms(e.row) } : e));
    const lineTexts = entries.map(entryLine);
    const text = lineTexts.join('\n') + '\n';
    const from = this.cursor.position.offset;
    const stat = this.files.journal.append(text, from);
    const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    this.cursor.moveTo(positionAfter(stat.ino, stat.size, lastLine), stat);
    let end = from;
    lineTexts.forEach((lineText, i) => {
      end += Buffer.byteLength(lineText) + 1;
      this.lines.record(entryKey(entries[i]!), { text: lineText, end });
    });
    this.apply(entries);
    this.linesSinceCheckpoint += entries.length;
  }

  /** Replaces the journal with `lines` (a purge) and moves the cursor to its end. Under the lock. */
  replaceJournal(lines: string[]): void {
    this.files.journal.replace(lines);
    const stat = this.files.journal.stat();
    this.cursor.moveTo(positionAfter(stat.ino, stat.size, `${lines[lines.length - 1]!}\n`), stat);
    this.lines = AppliedLines.after(this.cursor.position);
  }

  /**
   * Saves the caches now: the view always, the database when it is loaded. Synchronous,
   * so no write interleaves; both describe the same journal position. False when the
   * journal was rewritten meanwhile (nothing saved then: it would describe the old file).
   */
  save(): boolean {
    this.db?.flush();
    const stillCurrent = () => !this.cursor.diverged();
    const position = this.cursor.position;
    if (this.db) {
      if (!writeSnapshot(this.db.sql, this.files.snapshot, position, stillCurrent)) return false;
      this.db.table.invalidate();
    }
    if (!this.view.save(this.files.view, position, this.lines, stillCurrent)) return false;
    this.linesSinceCheckpoint = 0;
    this.viewFileStale = false;
    return true;
  }

  /** Resolves when no database load is in flight (a failed one included). */
  async settled(): Promise<void> {
    await this.dbLoading?.catch(() => undefined);
  }

  /** Frees the database's memory. */
  dispose(): void {
    this.db?.close();
  }
}
