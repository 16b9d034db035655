import { sha1 as sha1Bytes } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadedNodeCrypto } from '../../core/nodeCrypto';
import { syncDir, writeFileAtomic } from './atomicFile';

/** A complete journal line and where it sits in the file. */
export interface JournalLine {
  text: string;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past its newline. */
  end: number;
}

/** What one `stat` of the journal tells: identity, length, last change (0s when it does not exist). */
export interface JournalStat {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Identity and read position of the journal as one process has consumed it. */
export interface JournalPosition {
  /** Inode of the file consumed (0 before it exists): a different inode means it was replaced. */
  ino: number;
  /** Bytes consumed: always just past a newline. */
  offset: number;
  /** SHA-1 of the last consumed line, to check that a snapshot still matches the file. */
  tailSha: string;
  tailLength: number;
}

export const EMPTY_POSITION: JournalPosition = { ino: 0, offset: 0, tailSha: '', tailLength: 0 };

/**
 * SHA-1 of `data` (a string as UTF-8), in hex: what identifies a consumed line in the saved caches.
 * By node:crypto when the process has loaded it (every write has: its row id), else in JavaScript
 * (@noble/hashes): a one-shot CLI search checks one line and would otherwise load node:crypto for
 * it (about 7 ms of its start). The same hex either way; JavaScript is slower per byte (about 40 µs
 * a 1 KB line against 5), which a write feels after each append and a journal read whole at each
 * mark (every 256 lines).
 */
export function sha1(data: Buffer | string, crypto = loadedNodeCrypto()): string {
  if (crypto) return crypto.createHash('sha1').update(data).digest('hex');
  return bytesToHex(sha1Bytes(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
}

/** The position at `offset` in the file `ino`, just past `tail`: the last line consumed, its newline included. */
export function positionAfter(ino: number, offset: number, tail: Buffer | string): JournalPosition {
  return { ino, offset, tailSha: sha1(tail), tailLength: Buffer.byteLength(tail) };
}

/** A filesystem-safe timestamp for the names of set-aside files. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * The append-only journal file: one JSON entry per line. Appends are whole-line writes
 * followed by fdatasync, made only under the store's write lock; readers consume only
 * complete lines, so a line another process is still writing is never half-read.
 */
/** Bytes read at a time by readLines. */
const READ_CHUNK = 4 << 20;

export class JournalFile {
  constructor(readonly file: string) {}

  stat(): JournalStat {
    try {
      const st = fs.statSync(this.file);
      return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ino: 0, size: 0, mtimeMs: 0 };
      throw err;
    }
  }

  /**
   * Whether the file still holds, at `position.offset`, the line that was consumed last
   * (same bytes, by SHA-1). Git's union merge only adds lines, so a line it inserts before
   * that point moves it; a rewrite that drops lines (a purge, a checkout) moves it back.
   */
  continues(position: Pick<JournalPosition, 'offset' | 'tailSha' | 'tailLength'>, size = this.stat().size): boolean {
    const { offset, tailSha, tailLength } = position;
    if (offset > size) return false;
    if (offset === 0) return true;
    return tailLength <= offset && sha1(this.readRange(offset - tailLength, offset)) === tailSha;
  }

  /**
   * Complete lines from `from` to the end of the file, read in chunks. `end` is where
   * reading stopped: just past the last newline; `incomplete` is true when bytes follow it.
   * With `skip`, the lines it is true for (by number, the first read is 0) are passed over
   * without being decoded.
   */
  *readLines(from: number, size: number, skip?: (line: number) => boolean): Generator<JournalLine, { end: number; incomplete: boolean }> {
    const chunks = this.chunks(from, size);
    try {
      let line = 0;
      let r = chunks.next();
      for (; !r.done; r = chunks.next()) {
        const { data, base } = r.value;
        let lineStart = 0;
        for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, lineStart)) {
          if (!skip?.(line)) yield { text: data.toString('utf8', lineStart, nl), start: base + lineStart, end: base + nl + 1 };
          line++;
          lineStart = nl + 1;
        }
      }
      return r.value;
    } finally {
      chunks.return({ end: from, incomplete: false }); // closes the file when reading stops early
    }
  }

  /**
   * As readLines, without decoding: `each` gets a line's bytes, `data[start, end)` (its newline at
   * `end`), and the file offset of `data`. `data` is reused for the next chunk: copy what is kept.
   * Returns, besides where reading stopped, a copy of the last line read, newline included.
   */
  scanLines(
    from: number,
    size: number,
    each: (data: Buffer, start: number, end: number, base: number) => void,
  ): { end: number; incomplete: boolean; last?: Buffer } {
    const chunks = this.chunks(from, size);
    try {
      let last: Buffer | undefined;
      let r = chunks.next();
      for (; !r.done; r = chunks.next()) {
        const { data, base } = r.value;
        let lineStart = 0;
        let lastStart = 0;
        for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, lineStart)) {
          each(data, lineStart, nl, base);
          lastStart = lineStart;
          lineStart = nl + 1;
        }
        if (lineStart > 0) last = Buffer.from(data.subarray(lastStart, lineStart));
      }
      return { ...r.value, last };
    } finally {
      chunks.return({ end: from, incomplete: false }); // closes the file when `each` throws
    }
  }

  /**
   * The file from `from` to `size` in chunks of whole lines (each `data` ends with a newline; `base`
   * is the file offset of its first byte); returns where the last complete line ended, and
   * whether bytes follow it.
   */
  private *chunks(from: number, size: number): Generator<{ data: Buffer; base: number }, { end: number; incomplete: boolean }> {
    if (size <= from) return { end: from, incomplete: false };
    const fd = fs.openSync(this.file, 'r');
    try {
      // One buffer for the whole read: each chunk goes in after the part line the last one left
      // (moved to the front). A fresh buffer per chunk, and a copy to join it to that part, cost
      // more than the reading itself where touching new memory is slow.
      let buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - from));
      let carry = 0;
      let carryStart = from;
      let pos = from;
      while (pos < size) {
        const want = Math.min(READ_CHUNK, size - pos);
        if (buf.length < carry + want) {
          const grown = Buffer.allocUnsafe(carry + want);
          buf.copy(grown, 0, 0, carry);
          buf = grown;
        }
        const n = fs.readSync(fd, buf, carry, want, pos);
        if (n === 0) break;
        pos += n;
        const whole = buf.lastIndexOf(10, carry + n - 1) + 1;
        if (whole > 0) yield { data: buf.subarray(0, whole), base: carryStart };
        buf.copyWithin(0, whole, carry + n);
        carry = carry + n - whole;
        carryStart += whole;
      }
      return { end: carryStart, incomplete: carry > 0 };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The text of every complete line before `end`. */
  linesUpTo(end: number): string[] {
    const out: string[] = [];
    const lines = this.readLines(0, end);
    for (let r = lines.next(); !r.done; r = lines.next()) out.push(r.value.text);
    return out;
  }

  /** Bytes [start, end) of the file. */
  readRange(start: number, end: number): Buffer {
    const fd = fs.openSync(this.file, 'r');
    try {
      const buf = Buffer.alloc(end - start);
      const n = fs.readSync(fd, buf, 0, buf.length, start);
      return buf.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Appends `text` (whole lines) at `expectedSize` and makes it durable. On any failure
   * the file is cut back to `expectedSize`, so no half-written line stays behind.
   */
  append(text: string, expectedSize: number): JournalStat {
    const created = expectedSize === 0 && !fs.existsSync(this.file);
    const fd = fs.openSync(this.file, 'a');
    try {
      const data = Buffer.from(text, 'utf8');
      try {
        let written = 0;
        while (written < data.length) written += fs.writeSync(fd, data, written, data.length - written);
        fs.fdatasyncSync(fd);
      } catch (err) {
        try {
          fs.ftruncateSync(fd, expectedSize);
          fs.fdatasyncSync(fd);
        } catch {
          // The original error is the one to report; the torn tail is set aside on the next write.
        }
        throw err;
      }
      const st = fs.fstatSync(fd);
      if (created) syncDir(path.dirname(this.file));
      return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Moves the bytes after `offset` (a torn last line left by a crashed writer) into a
   * file of their own next to the journal, then cuts the journal back to `offset`.
   * Returns where the bytes were kept.
   */
  setAsideTail(offset: number): string {
    const { size } = this.stat();
    const aside = path.join(path.dirname(this.file), `journal.torn-${stamp()}.jsonl`);
    fs.writeFileSync(aside, this.readRange(offset, size), { flush: true });
    const fd = fs.openSync(this.file, 'r+');
    try {
      fs.ftruncateSync(fd, offset);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return aside;
  }

  /** Replaces the whole journal with `lines` atomically (temp file, fsync, rename). */
  replace(lines: Iterable<string>): void {
    writeFileAtomic(
      this.file,
      (function* () {
        for (const line of lines) yield line.endsWith('\n') ? line : `${line}\n`;
      })(),
    );
  }
}
