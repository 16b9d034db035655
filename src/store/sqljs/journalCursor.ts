import { EMPTY_POSITION, type JournalFile, type JournalLine, type JournalPosition, type JournalStat, positionAfter } from './journal';

/**
 * Where one process stands in the journal, and whether the file still continues what it
 * consumed. Appends (ours or another process's) only extend the file; anything else means
 * the caches describe a file that is gone and must be rebuilt: a purge replaces the file,
 * a git checkout, merge, pull or rebase rewrites it, and git's union merge can put the
 * other side's lines before our offset. Neither the inode nor the size alone tells: a
 * rewritten file can get the freed inode back and is usually longer. The line consumed
 * last must still sit, byte for byte, just before our offset.
 */
export class JournalCursor {
  private pos: JournalPosition = EMPTY_POSITION;
  /** The file as it was when the consumed bytes were last known to be intact; unchanged, they need no new check. */
  private checked: JournalStat | undefined;

  constructor(private readonly journal: JournalFile) {}

  get position(): JournalPosition {
    return this.pos;
  }

  /** Moves to a position known to match the file (a loaded cache, our own append, a purge). */
  moveTo(position: JournalPosition, stat?: JournalStat): void {
    this.pos = position;
    this.checked = stat;
  }

  /**
   * True when the file no longer continues what was consumed: another inode, shorter than
   * our offset, or other bytes where our last line was. Cheap when nothing changed since
   * the last check (one stat); otherwise one small read of the last consumed line.
   */
  diverged(stat = this.journal.stat()): boolean {
    const c = this.checked;
    if (c && c.ino === stat.ino && c.size === stat.size && c.mtimeMs === stat.mtimeMs) return false;
    const p = this.pos;
    const diverged = (p.ino !== 0 && stat.ino !== p.ino) || !this.journal.continues(p, stat.size);
    if (!diverged) this.checked = stat;
    return diverged;
  }

  /**
   * Hands every complete line from the position up to `until` (default: the end of the
   * file, as `stat` finds it) to `each` and moves past the last one. `each` may throw: the position then stays
   * where it was, so the caller can roll back what it applied. Returns whether an
   * incomplete line follows at the end of the file (a write in progress, or a torn one).
   */
  advance(each: (line: JournalLine) => void, until?: number, stat = this.journal.stat()): boolean {
    const end = Math.min(until ?? stat.size, stat.size);
    if (end <= this.pos.offset) return false;
    const lines = this.journal.readLines(this.pos.offset, end);
    let last: JournalLine | undefined;
    let r: IteratorResult<JournalLine, { end: number; incomplete: boolean }>;
    try {
      while (!(r = lines.next()).done) {
        each(r.value);
        last = r.value;
      }
    } catch (err) {
      lines.return({ end: this.pos.offset, incomplete: false }); // closes the file
      throw err;
    }
    if (last) this.pos = positionAfter(stat.ino, last.end, `${last.text}\n`);
    return r.value.incomplete && end === stat.size;
  }

  /**
   * As advance to the end of the file, handing `each` every line's bytes (JournalFile.scanLines:
   * `data[start, end)`, newline at `end`, `data` at file offset `base`) instead of its text.
   */
  scan(each: (data: Buffer, start: number, end: number, base: number) => void): boolean {
    const stat = this.journal.stat();
    if (stat.size <= this.pos.offset) return false;
    // The last line's hash from the bytes read, not read again: the file may have been replaced since.
    const read = this.journal.scanLines(this.pos.offset, stat.size, each);
    if (read.last) this.pos = positionAfter(stat.ino, read.end, read.last);
    return read.incomplete;
  }
}
