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

/** What a binary COPY's data starts with: the signature, no flags, no header extension. */
export const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

/** What it ends with: a row of -1 fields. */
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** The text type's number, which each element of a text[] value names. */
const TEXT_OID = 25;

/** PostgreSQL's epoch (2000-01-01T00:00:00Z), in milliseconds from the Unix epoch. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/** A stored time (fields.ts: ISO-8601, UTC, milliseconds). */
const STORED_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The earliest stored time PostgreSQL takes as written (it has no year 0: `0000-…` is refused). */
const FIRST_TIME_MS = Date.parse('0001-01-01T00:00:00.000Z');

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
    const n = this.buf.write(v, this.pos + 4);
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
    return this;
  }

  /** An integer field (int4); null or undefined is NULL. */
  int4(v: number | null | undefined): this {
    if (v === null || v === undefined) return this.null();
    this.room(8);
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeInt32BE(v, this.pos + 4);
    this.pos += 8;
    return this;
  }

  /** A bigint or xid8 field, from its decimal digits (a sequence's number, a transaction's id). */
  int8(digits: string): this {
    this.room(12);
    this.buf.writeInt32BE(8, this.pos);
    this.buf.writeBigUInt64BE(BigInt(digits), this.pos + 4);
    this.pos += 12;
    return this;
  }

  /** A boolean field. */
  bool(v: boolean): this {
    this.room(5);
    this.buf.writeInt32BE(1, this.pos);
    this.buf[this.pos + 4] = v ? 1 : 0;
    this.pos += 5;
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
    const ms = STORED_TIME.test(iso) ? Date.parse(iso) : NaN;
    if (!(ms >= FIRST_TIME_MS) || new Date(ms).toISOString() !== iso)
      throw new StorageError(`${JSON.stringify(iso)} is not a stored time (an ISO-8601 UTC time with milliseconds, years 0001-9999)`);
    // The microseconds, exactly, as two 32-bit halves (their count passes 2^53 in far years).
    const since = ms - PG_EPOCH_MS;
    const high = Math.floor(since / 2 ** 32);
    const low = (since - high * 2 ** 32) * 1000;
    const carry = Math.floor(low / 2 ** 32);
    this.room(12);
    this.buf.writeInt32BE(8, this.pos);
    this.buf.writeInt32BE(high * 1000 + carry, this.pos + 4);
    this.buf.writeUInt32BE(low - carry * 2 ** 32, this.pos + 8);
    this.pos += 12;
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
        const n = b.write(t, at + 4);
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
      at += b.write(t, at);
      b[at] = 0;
      b[at + 1] = 0;
      b[at + 2] = 0;
      at += 3;
    };
    for (const t of terms) lexeme(t);
    for (const t of marked) {
      at += b.write(mark, at);
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
