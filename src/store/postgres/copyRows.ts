import { StorageError } from '../../core/errors';
import { ChunkPool } from './copyChunks';

// Rows for `COPY … FROM STDIN (FORMAT binary)`, written straight into buffers. In the binary
// form the server reads each value as its type's binary input: no CSV to split, no text to parse
// as timestamps, arrays or search vectors. Measured on the rows of 1M memories, the server
// alone (COPY from a file, no client) stored the versions in 20.2 s from the binary form and
// 28.9 s from CSV, the heads in 7.6 s and 11.9 s. Building each row as strings (a quoted copy of
// every field, then the line, then the batch) made the client collect garbage for longer than it
// encoded: every value is written into the buffers here.
//
// The form (PostgreSQL's "COPY", binary format): a header (COPY_HEADER), then each row as its
// count of fields (int16) and each field as its length in bytes (int32; -1 for NULL) followed by
// the bytes of its type's send format; then a trailer (COPY_TRAILER). Numbers are big-endian.

/** Bytes a chunk starts with; a field larger than what is left starts the next chunk. */
export const CHUNK = 1 << 22;

// The header and trailer are memory of their own (Buffer.alloc), not slices of Node's shared
// pool, so no ChunkPool ever takes them back as a buffer to write in (copyChunks.ts).

/** What a binary COPY's data starts with: the signature, no flags, no header extension. */
export const COPY_HEADER = Buffer.alloc(19);
COPY_HEADER.write('PGCOPY\n\xff\r\n\0', 'latin1');

/** What it ends with: a count of fields of -1. */
export const COPY_TRAILER = Buffer.alloc(2, 0xff);

/** `batches` between the binary form's header and trailer: what `COPY … FROM STDIN (FORMAT binary)` reads. */
export async function* framed(batches: AsyncIterable<Buffer[]>): AsyncIterable<Buffer[]> {
  yield [COPY_HEADER];
  yield* batches;
  yield [COPY_TRAILER];
}

/** The text type's number, which each element of a text[] value names. */
const TEXT_OID = 25;

/** PostgreSQL's epoch (2000-01-01T00:00:00Z), in milliseconds from the Unix epoch. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/** Days in each month of a year that is not a leap year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Milliseconds in 400 years of the Gregorian calendar (146,097 days, whatever the years). */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/** The number written in `text` from `at`, `count` digits; NaN when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/**
 * The time a stored time (fields.ts: `2026-01-01T09:30:00.000Z`, ISO-8601, UTC, milliseconds)
 * says, in milliseconds from the Unix epoch; NaN for another form, a day or time of day that is
 * not one, or year 0 (PostgreSQL has none). Read by position: a regular expression, Date.parse
 * and a check that the date did not roll over cost several times as much, twice a row.
 */
export function storedTimeMs(iso: string): number {
  if (
    iso.length !== 24 ||
    iso.charCodeAt(4) !== 45 || // -
    iso.charCodeAt(7) !== 45 ||
    iso.charCodeAt(10) !== 84 || // T
    iso.charCodeAt(13) !== 58 || // :
    iso.charCodeAt(16) !== 58 ||
    iso.charCodeAt(19) !== 46 || // .
    iso.charCodeAt(23) !== 90 // Z
  )
    return NaN;
  const year = digits(iso, 0, 4);
  const month = digits(iso, 5, 2);
  const day = digits(iso, 8, 2);
  const hour = digits(iso, 11, 2);
  const minute = digits(iso, 14, 2);
  const second = digits(iso, 17, 2);
  const ms = digits(iso, 20, 3);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0)) return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!)) return NaN;
  // Date.UTC takes years 0-99 as 1900-1999: asked 400 years later, the same calendar.
  return Date.UTC(year + 400, month - 1, day, hour, minute, second, ms) - FOUR_CENTURIES_MS;
}

/** Text up to this long is written byte by byte when it is ASCII (most terms, tags, ids): cheaper than a call into the runtime. */
const SHORT = 64;

/** Writes `s` in UTF-8 into `b` at `at`; returns its bytes. `b` has room for 3 bytes a UTF-16 unit. */
function put(b: Buffer, s: string, at: number): number {
  const n = s.length;
  if (n <= SHORT) {
    let i = 0;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[at + i++] = c;
    }
    if (i === n) return n;
  }
  return b.write(s, at);
}

export class CopyRows {
  private chunks: Buffer[] = [];
  private buf: Buffer;
  private pos = 0;

  /** @param pool where the buffers of CHUNK bytes come from (copyChunks.ts gives them back once sent; a pool of its own when not given) */
  constructor(private readonly pool = new ChunkPool(CHUNK)) {
    this.buf = this.fresh(CHUNK);
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): this {
    this.room(2);
    this.buf.writeInt16BE(fields, this.pos);
    this.pos += 2;
    return this;
  }

  /** A text field (UTF-8); null or undefined is NULL. */
  text(v: string | null | undefined): this {
    if (v === null || v === undefined) return this.null();
    this.room(4 + v.length * 3);
    const n = put(this.buf, v, this.pos + 4);
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
    return this;
  }

  /** An integer field (int4); null or undefined is NULL. */
  int4(v: number | null | undefined): this {
    if (v === null || v === undefined) return this.null();
    this.buf.writeInt32BE(v, this.fixed(4));
    return this;
  }

  /** A bigint or xid8 field (a sequence's number, a transaction's id). */
  int8(v: bigint): this {
    this.buf.writeBigUInt64BE(v, this.fixed(8));
    return this;
  }

  /** A boolean field. */
  bool(v: boolean): this {
    this.buf[this.fixed(1)] = v ? 1 : 0;
    return this;
  }

  /**
   * A timestamptz field from a stored time (`2026-01-01T09:30:00.000Z`): microseconds since
   * PostgreSQL's epoch; null or undefined is NULL. Another form, or a date that is not one, is
   * refused (a StorageError naming it): the server would have parsed the text, and no value is
   * sent that it would not have stored as written.
   */
  timestamptz(iso: string | null | undefined): this {
    if (iso === null || iso === undefined) return this.null();
    const ms = storedTimeMs(iso);
    if (Number.isNaN(ms))
      throw new StorageError(`${JSON.stringify(iso)} is not a stored time (an ISO-8601 UTC time with milliseconds, years 0001-9999)`);
    // The microseconds, exactly, as two 32-bit halves (their count passes 2^53 in far years).
    const since = ms - PG_EPOCH_MS;
    const high = Math.floor(since / 2 ** 32);
    const low = (since - high * 2 ** 32) * 1000;
    const carry = Math.floor(low / 2 ** 32);
    const at = this.fixed(8);
    this.buf.writeInt32BE(high * 1000 + carry, at);
    this.buf.writeUInt32BE(low - carry * 2 ** 32, at + 4);
    return this;
  }

  /** A text[] field: one dimension from 1 (none when empty), no NULL element. */
  textArray(items: readonly string[]): this {
    let most = 4 + 12 + (items.length ? 8 : 0);
    for (const t of items) most += 4 + t.length * 3;
    this.room(most);
    const start = this.pos;
    const b = this.buf;
    b.writeInt32BE(items.length ? 1 : 0, start + 4);
    b.writeInt32BE(0, start + 8);
    b.writeInt32BE(TEXT_OID, start + 12);
    let at = start + 16;
    if (items.length) {
      b.writeInt32BE(items.length, at);
      b.writeInt32BE(1, at + 4);
      at += 8;
      for (const t of items) {
        const n = put(b, t, at + 4);
        b.writeInt32BE(n, at);
        at += 4 + n;
      }
    }
    b.writeInt32BE(at - start - 4, start);
    this.pos = at;
    return this;
  }

  /** A jsonb field from JSON text; null or undefined is NULL. */
  jsonb(json: string | null | undefined): this {
    if (json === null || json === undefined) return this.null();
    this.room(5 + json.length * 3);
    const n = this.buf.write(json, this.pos + 5);
    this.buf.writeInt32BE(n + 1, this.pos);
    // The format's version.
    this.buf[this.pos + 4] = 1;
    this.pos += 5 + n;
    return this;
  }

  /**
   * A tsvector field of the lexemes `terms`, then `marked` with `mark` before each, without
   * positions: the value `array_to_tsvector` makes of them (the server sorts the lexemes). They
   * must be distinct and none empty or holding a NUL, as the text analysis's terms are.
   */
  tsvector(terms: readonly string[], marked: readonly string[] = [], mark = ''): this {
    let most = 8;
    for (const t of terms) most += t.length * 3 + 3;
    for (const t of marked) most += (mark.length + t.length) * 3 + 3;
    this.room(most);
    const start = this.pos;
    const b = this.buf;
    b.writeInt32BE(terms.length + marked.length, start + 4);
    let at = start + 8;
    // Each lexeme: its bytes, a NUL, and its count of positions (uint16, none).
    const lexeme = (t: string) => {
      at += put(b, t, at);
      b[at] = 0;
      b[at + 1] = 0;
      b[at + 2] = 0;
      at += 3;
    };
    for (const t of terms) lexeme(t);
    for (const t of marked) {
      at += put(b, mark, at);
      lexeme(t);
    }
    b.writeInt32BE(at - start - 4, start);
    this.pos = at;
    return this;
  }

  /** The bytes written since the last call, and starts afresh (the buffers are the caller's). */
  take(): Buffer[] {
    if (this.pos) {
      this.chunks.push(this.buf.subarray(0, this.pos));
      this.buf = this.fresh(CHUNK);
      this.pos = 0;
    }
    const out = this.chunks;
    this.chunks = [];
    return out;
  }

  private null(): this {
    this.room(4);
    this.buf.writeInt32BE(-1, this.pos);
    this.pos += 4;
    return this;
  }

  /** Starts a field of `bytes` bytes (its length, then room for them); returns where its value goes. */
  private fixed(bytes: number): number {
    this.room(4 + bytes);
    this.buf.writeInt32BE(bytes, this.pos);
    const at = this.pos + 4;
    this.pos = at + bytes;
    return at;
  }

  /** Room for `bytes` more in the current buffer (a field is never split: the server does not mind, but it keeps the writes simple). */
  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    if (this.pos) this.chunks.push(this.buf.subarray(0, this.pos));
    this.buf = this.fresh(bytes);
    this.pos = 0;
  }

  /** A buffer for at least `bytes`: CHUNK bytes from the pool, or as many as a larger field needs. */
  private fresh(bytes: number): Buffer {
    return bytes > CHUNK ? Buffer.allocUnsafe(bytes) : this.pool.take();
  }
}
