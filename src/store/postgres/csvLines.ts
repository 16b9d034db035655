// CSV lines for `COPY … FROM STDIN (FORMAT csv)`, written straight into buffers: a load encodes
// some 2 GB of versions at 1M memories, and building each line as strings (a quoted copy of every
// field, then the line, then the batch) made the client collect garbage for longer than it encoded.

import { ChunkPool } from './copyChunks';

/** Bytes a chunk starts with; a field larger than what is left starts the next chunk. */
export const CHUNK = 1 << 22;

export class CsvLines {
  private chunks: Buffer[] = [];
  private buf: Buffer;
  private pos = 0;
  private first = true;

  /** @param pool where the buffers of CHUNK bytes come from (copyChunks.ts gives them back once sent; a pool of its own when not given) */
  constructor(private readonly pool = new ChunkPool(CHUNK)) {
    this.buf = this.fresh(CHUNK);
  }

  /** A text field, always quoted (so an empty text is not NULL), `"` doubled; null or undefined is NULL. */
  text(v: string | null | undefined): this {
    if (v === null || v === undefined) return this.raw('');
    const s = v.includes('"') ? v.replace(/"/g, '""') : v;
    this.field(s.length * 3 + 2);
    this.buf[this.pos++] = 0x22;
    this.pos += this.buf.write(s, this.pos);
    this.buf[this.pos++] = 0x22;
    return this;
  }

  /** A field written as it is: a number, `t`/`f`, or '' for NULL. */
  raw(s: string): this {
    this.field(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
    return this;
  }

  /** Ends the line. */
  end(): this {
    this.room(1);
    this.buf[this.pos++] = 0x0a;
    this.first = true;
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

  /** Room for a field of at most `bytes`, after its separator. */
  private field(bytes: number): void {
    this.room(bytes + 1);
    if (!this.first) this.buf[this.pos++] = 0x2c;
    this.first = false;
  }

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
