import type { JournalEntry, ParsedLine } from './entries';
import { type JournalFile, type JournalLine, type JournalPosition, sha1 } from './journal';

/** A consumed line, to look for at the same place in a journal that changed: `count` lines were consumed up to it. */
interface Mark {
  count: number;
  end: number;
  sha: string;
  length: number;
}

/** The saved form (in the saved view): the base, the marks, and the keys joined by newlines, as UTF-8. */
export interface SavedLines {
  base: [number, string, number];
  marks: Array<[number, number, string, number]>;
  /** Decoded on first need (opening does not pay for it). A key UTF-8 cannot carry (a lone surrogate) reads back otherwise: that line looks gone, and the view is rebuilt. */
  keys: Uint8Array;
}

/** One line after the part of the journal still in place, and whether it was consumed before. */
export interface TailLine<T> {
  line: JournalLine;
  value: T;
  fresh: boolean;
}

/** A mark every this many lines: a rewrite is searched for among about (lines / MARK_EVERY) marks, and at most this many old lines are read again. */
const MARK_EVERY = 256;

/**
 * What identifies a journal line among the others: the rowId of the version (unique, written
 * once), the rows of a records line, a purge's id and time. Lines are never edited in place,
 * so a line seen again after a merge, wherever it now sits, is the line already applied.
 */
export function entryKey(entry: JournalEntry): string {
  const key = rawKey(entry);
  // Keys are saved one a line; an imported rowId could hold a newline.
  return key.includes('\n') ? `# ${sha1(key)}` : key;
}

function rawKey(entry: JournalEntry): string {
  switch (entry.type) {
    case 'memory.version':
      return entry.row.rowId;
    case 'memory.purge':
      return `purge ${entry.id} ${entry.at}`;
    case 'records':
      return `records ${entry.rows.map((r) => r.rowId).join(' ')}`;
    case 'records.purge':
      return `records.purge ${entry.kind} ${entry.at} ${entry.ids.join(' ')}`;
  }
}

/** The key of a line that is not a readable entry: its bytes. */
export const unreadableKey = (text: string): string => `! ${sha1(text)}`;

/** The key of a journal line as parsed: its entry's, or its bytes' when it is not a readable entry. */
export const lineKey = (parsed: ParsedLine, text: string): string => (parsed.ok ? entryKey(parsed.entry) : unreadableKey(text));

/**
 * The journal lines one process has consumed since `base` (a position whose line it checked),
 * by key, with a mark every MARK_EVERY lines. When git changes the journal underneath (a pull, a
 * merge, a rebase, a checkout), `reconcile` finds the last mark still in place (the common
 * prefix), reads only the lines after it, and tells the ones consumed before from the new ones:
 * a union merge puts the other side's lines after the common prefix, before or after ours.
 * Applying the new ones gives what a full replay gives, because applying versions is idempotent
 * and order-free (versionOrder). If a consumed line is gone, history was rewritten: undefined.
 */
export class AppliedLines {
  private keyList: string[] | undefined;
  /** The saved keys, decoded and split on first need (opening does not pay for it). */
  private savedKeys: Uint8Array | undefined;

  private constructor(
    private readonly base: Mark,
    private marks: Mark[],
  ) {}

  /** Nothing consumed after `position` (the start of the file, a loaded cache's position). */
  static after(position: JournalPosition): AppliedLines {
    const lines = new AppliedLines({ count: 0, end: position.offset, sha: position.tailSha, length: position.tailLength }, []);
    lines.keyList = [];
    return lines;
  }

  static restore(saved: SavedLines): AppliedLines {
    const [end, sha, length] = saved.base;
    const lines = new AppliedLines(
      { count: 0, end, sha, length },
      saved.marks.map(([count, e, s, l]) => ({ count, end: e, sha: s, length: l })),
    );
    lines.savedKeys = saved.keys;
    return lines;
  }

  save(): SavedLines {
    const b = this.base;
    return {
      base: [b.end, b.sha, b.length],
      marks: this.marks.map((m) => [m.count, m.end, m.sha, m.length]),
      // Keys never decoded since they were read are saved as they were.
      keys: this.keyList ? new TextEncoder().encode(this.keyList.join('\n')) : (this.savedKeys ?? new Uint8Array()),
    };
  }

  private keys(): string[] {
    if (!this.keyList) {
      this.keyList = this.savedKeys?.length ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(this.savedKeys).split('\n') : [];
      this.savedKeys = undefined;
    }
    return this.keyList;
  }

  /** Records the next consumed line. */
  record(key: string, line: { text: string; end: number }): void {
    if (this.add(key)) this.mark(line.end, Buffer.from(`${line.text}\n`));
  }

  /** As record, for a line read as bytes (JournalFile.scanLines): `data[start, end)`, its newline included, ends at file offset `fileEnd`. */
  recordBytes(key: string, data: Buffer, start: number, end: number, fileEnd: number): void {
    if (this.add(key)) this.mark(fileEnd, data.subarray(start, end));
  }

  /** Adds the next line's key; true when that line gets a mark. */
  private add(key: string): boolean {
    return this.keys().push(key) % MARK_EVERY === 0;
  }

  /** Marks the line just added, which ends at file offset `end` and is `tail` (its newline included). */
  private mark(end: number, tail: Buffer): void {
    this.marks.push({ count: this.keys().length, end, sha: sha1(tail), length: tail.length });
  }

  /**
   * The lines of `journal` after its part still in place, each parsed by `read` (which gives
   * the line's key), with the ones consumed before told apart; undefined when a consumed line
   * is no longer in the file. On success the record follows the file as it is now. `current`
   * is the position consumed so far (a mark too).
   */
  reconcile<T>(
    journal: JournalFile,
    size: number,
    current: JournalPosition,
    read: (text: string) => { key: string; value: T },
  ): { tail: Array<TailLine<T>>; end: number; incomplete: boolean } | undefined {
    const keys = this.keys();
    const candidates = [
      this.base,
      ...this.marks,
      { count: keys.length, end: current.offset, sha: current.tailSha, length: current.tailLength },
    ];
    const inPlace = (m: Mark) => m.end === 0 || journal.continues({ offset: m.end, tailSha: m.sha, tailLength: m.length }, size);
    if (!inPlace(candidates[0]!)) return undefined;
    // Appends and union merges keep a prefix: the marks in place are the first ones.
    let lo = 0;
    let hi = candidates.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (inPlace(candidates[mid]!)) lo = mid;
      else hi = mid - 1;
    }
    const from = candidates[lo]!;
    const owed = new Map<string, number>();
    for (let i = from.count; i < keys.length; i++) owed.set(keys[i]!, (owed.get(keys[i]!) ?? 0) + 1);
    let missing = keys.length - from.count;
    const tail: Array<TailLine<T> & { key: string }> = [];
    const lines = journal.readLines(from.end, size);
    let r: IteratorResult<JournalLine, { end: number; incomplete: boolean }>;
    while (!(r = lines.next()).done) {
      const { key, value } = read(r.value.text);
      const n = owed.get(key);
      if (n) {
        owed.set(key, n - 1);
        missing--;
      }
      tail.push({ line: r.value, value, key, fresh: !n });
    }
    if (missing > 0) return undefined;
    keys.length = from.count;
    this.marks = this.marks.filter((m) => m.count <= from.count);
    for (const t of tail) this.record(t.key, t.line);
    return { tail, end: r.value.end, incomplete: r.value.incomplete };
  }
}
