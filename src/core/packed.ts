import { fnv1aBytes } from './fnv';

/**
 * A binary container for a cache that must load fast (the workspace store's saved view): a
 * sequence of sections, each JSON, a column of strings, of numbers or of bytes. Loading reads
 * the file and parses nothing: numbers are typed-array views of its bytes, and a column of
 * strings decodes one string when it is asked for (where JSON would parse every value, quote
 * and bracket, and make an object of each). On these machines touching memory is most of the
 * cost (about 3 ms per MB), so what a first search does not ask for costs only its reading.
 * The layout is this machine's byte order (checked on load: the file is a per-clone cache).
 *
 * File: MAGIC, a byte-order mark (u32), then sections, then END and the section count. A
 * section: kind (u32), payload length in bytes (u32), the payload, zero bytes up to a
 * multiple of 4. A strings payload: count (u32), where each string's UTF-8 bytes end (u32
 * each), the strings' UTF-8 bytes back to back. A column with lone surrogates (which UTF-8
 * cannot carry) is saved as a JSON array instead.
 */

const MAGIC = [0x41, 0x4d, 0x50, 0x4b]; // "AMPK"
const END = 0x21444e45;
const BYTE_ORDER = 0x01020304;
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

const enum Kind {
  Json = 1,
  Strings = 2,
  StringsJson = 3,
  U32 = 4,
  F64 = 5,
  Bytes = 6,
}

const encoder = new TextEncoder();
// ignoreBOM: a string that begins with U+FEFF keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Whether `s` holds no lone surrogate (String.prototype.isWellFormed where the runtime has it). */
function wellFormed(s: string): boolean {
  const native = (s as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(s) : !/\p{Cs}/u.test(s);
}

/** Bytes of `s` in UTF-8 (well formed: a surrogate pair is one 4-byte character). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // 2 bytes below U+0800, 3 above; a pair's high half counts 3 and its low half 1.
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xdc00 && c < 0xe000 ? 0 : 2;
  }
  return n;
}

/** A column of strings as read: each decoded when asked for, or all at once (cheaper per string). */
export interface StringColumn {
  readonly length: number;
  get(i: number): string;
  all(): string[];
  /**
   * The first position holding `value`, or -1. The first call makes a hash table of the column
   * (of its bytes, for a column read from a file: no string per entry), so a few lookups in a
   * large column cost a fraction of decoding it into a map.
   */
  indexOf(value: string): number;
}

class Utf8Column implements StringColumn {
  private table: Int32Array | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly ends: Uint32Array,
  ) {}

  get length(): number {
    return this.ends.length;
  }

  get(i: number): string {
    return decoder.decode(this.bytes.subarray(i === 0 ? 0 : this.ends[i - 1], this.ends[i]));
  }

  indexOf(value: string): number {
    // Only well-formed strings are written as UTF-8 (PackWriter.strings): the encoder would turn
    // a lone surrogate into U+FFFD and meet a string that holds one.
    if (!wellFormed(value)) return -1;
    const want = encoder.encode(value);
    const hash = fnv1aBytes(want, 0, want.length);
    const table = (this.table ??= this.hashTable());
    const { bytes, ends } = this;
    for (let at = hash & (table.length - 1); table[at] !== 0; at = (at + 1) & (table.length - 1)) {
      const i = table[at]! - 1;
      const start = i === 0 ? 0 : ends[i - 1]!;
      if (ends[i]! - start !== want.length) continue;
      let k = 0;
      while (k < want.length && bytes[start + k] === want[k]) k++;
      if (k === want.length) return i;
    }
    return -1;
  }

  /** Position + 1 of every entry by the FNV-1a hash of its bytes (open addressing; 0 is empty). The first of equal entries wins. */
  private hashTable(): Int32Array {
    let size = 16;
    while (size < this.ends.length * 2) size *= 2;
    const table = new Int32Array(size);
    for (let i = 0, start = 0; i < this.ends.length; start = this.ends[i++]!) {
      let at = fnv1aBytes(this.bytes, start, this.ends[i]!) & (size - 1);
      while (table[at] !== 0) at = (at + 1) & (size - 1);
      table[at] = i + 1;
    }
    return table;
  }

  all(): string[] {
    const text = decoder.decode(this.bytes);
    // All ASCII (ids, times, most terms): a byte offset is a character offset, so cut the one decoded text.
    if (text.length !== this.bytes.length) return Array.from({ length: this.length }, (_, i) => this.get(i));
    const out = new Array<string>(this.ends.length);
    for (let i = 0, from = 0; i < out.length; i++) out[i] = text.slice(from, (from = this.ends[i]!));
    return out;
  }
}

/** A column of strings already in memory. */
export class ArrayColumn implements StringColumn {
  private positions: Map<string, number> | undefined;

  constructor(private readonly list: string[]) {}

  indexOf(value: string): number {
    if (!this.positions) {
      this.positions = new Map();
      for (let i = this.list.length - 1; i >= 0; i--) this.positions.set(this.list[i]!, i);
    }
    return this.positions.get(value) ?? -1;
  }

  get length(): number {
    return this.list.length;
  }

  get(i: number): string {
    return this.list[i]!;
  }

  all(): string[] {
    return this.list;
  }
}

/** Collects sections in memory; `chunks()` gives the file's bytes. */
export class PackWriter {
  private readonly parts: Uint8Array[] = [];
  private sections = 0;

  json(value: unknown): this {
    return this.section(Kind.Json, encoder.encode(JSON.stringify(value)));
  }

  strings(column: readonly string[] | StringColumn): this {
    const list = Array.isArray(column) ? column : (column as StringColumn).all();
    const text = list.join('');
    if (!wellFormed(text)) return this.section(Kind.StringsJson, encoder.encode(JSON.stringify(list)));
    const bytes = encoder.encode(text);
    const head = new Uint32Array(list.length + 1);
    head[0] = list.length;
    let end = 0;
    for (let i = 0; i < list.length; i++) head[i + 1] = end += utf8Length(list[i]!);
    return this.section(Kind.Strings, new Uint8Array(head.buffer), bytes);
  }

  u32(values: Uint32Array | readonly number[]): this {
    const arr = values instanceof Uint32Array ? values : Uint32Array.from(values);
    return this.section(Kind.U32, new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
  }

  f64(values: readonly number[]): this {
    const arr = Float64Array.from(values);
    return this.section(Kind.F64, new Uint8Array(arr.buffer));
  }

  bytes(values: Uint8Array): this {
    return this.section(Kind.Bytes, values);
  }

  /** The whole file, in pieces (written one after another). */
  chunks(): Uint8Array[] {
    const head = new Uint8Array(8);
    head.set(MAGIC);
    new Uint32Array(head.buffer, 4, 1)[0] = BYTE_ORDER;
    return [head, ...this.parts, new Uint8Array(Uint32Array.of(END, this.sections).buffer)];
  }

  private section(kind: Kind, ...payload: Uint8Array[]): this {
    const length = payload.reduce((n, p) => n + p.byteLength, 0);
    this.parts.push(new Uint8Array(Uint32Array.of(kind, length).buffer), ...payload);
    if (length % 4) this.parts.push(new Uint8Array(4 - (length % 4)));
    this.sections++;
    return this;
  }
}

/** Reads a PackWriter's file section by section, in the order written; throws on any mismatch. */
export class PackReader {
  private at = 8;
  private read = 0;

  private readonly buf: Uint8Array;
  private readonly data: DataView;

  constructor(file: Uint8Array) {
    // A plain view, also of a Node Buffer: its subarrays are then plain too, and cheaper to make.
    this.buf = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    this.data = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const buf = this.buf;
    if (buf.byteLength < 16 || MAGIC.some((b, i) => buf[i] !== b)) throw new Error('not a packed file');
    if (this.u32At(4) !== BYTE_ORDER) throw new Error('made on a machine of another byte order');
  }

  json<T>(): T {
    return JSON.parse(decoder.decode(this.section(Kind.Json))) as T;
  }

  /** A strings section, decoded string by string when asked for (the column keeps the file's bytes). */
  strings(): StringColumn {
    const [kind, payload] = this.next();
    if (kind === Kind.StringsJson) {
      const list: unknown = JSON.parse(decoder.decode(payload));
      if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) throw new Error('a strings section holds something else');
      return new ArrayColumn(list as string[]);
    }
    if (kind !== Kind.Strings) throw new Error(`expected strings, found section kind ${kind}`);
    if (payload.byteLength < 4) throw new Error('a strings section is cut short');
    const count = this.u32At(payload.byteOffset - this.buf.byteOffset);
    if (payload.byteLength < 4 + count * 4) throw new Error('a strings section is cut short');
    const ends = this.view(payload.subarray(4, 4 + count * 4), 4, Uint32Array);
    const bytes = payload.subarray(4 + count * 4);
    for (let i = 0, last = 0; i < count; last = ends[i++]!) if (ends[i]! < last) throw new Error('a strings section is out of order');
    if ((count === 0 ? 0 : ends[count - 1]) !== bytes.length) throw new Error('a strings section does not add up');
    return new Utf8Column(bytes, ends);
  }

  u32(): Uint32Array {
    return this.view(this.section(Kind.U32), 4, Uint32Array);
  }

  f64(): Float64Array {
    return this.view(this.section(Kind.F64), 8, Float64Array);
  }

  /** The bytes of a bytes section (a view of the file's). */
  bytes(): Uint8Array {
    const b = this.section(Kind.Bytes);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  /** Throws unless every section was read and the file ends as written. */
  end(): void {
    if (this.at + 8 !== this.buf.byteLength || this.u32At(this.at) !== END || this.u32At(this.at + 4) !== this.read)
      throw new Error('the file does not end where its sections do');
  }

  private section(kind: Kind): Uint8Array {
    const [found, payload] = this.next();
    if (found !== kind) throw new Error(`expected section kind ${kind}, found ${found}`);
    return payload;
  }

  private next(): [number, Uint8Array] {
    if (this.at + 8 > this.buf.byteLength) throw new Error('the file is cut short');
    const kind = this.u32At(this.at);
    const length = this.u32At(this.at + 4);
    const start = this.at + 8;
    if (start + length > this.buf.byteLength) throw new Error('the file is cut short');
    this.at = start + length + ((4 - (length % 4)) % 4);
    this.read++;
    return [kind, this.buf.subarray(start, start + length)];
  }

  private u32At(offset: number): number {
    return this.data.getUint32(offset, LITTLE_ENDIAN);
  }

  /** A typed view of `bytes` when they are aligned for it (copied otherwise). */
  private view<T>(bytes: Uint8Array, size: number, Type: new (b: ArrayBufferLike, offset: number, length: number) => T): T {
    if (bytes.byteLength % size) throw new Error('a number column is cut short');
    const aligned = bytes.byteOffset % size === 0 ? bytes : new Uint8Array(bytes);
    return new Type(aligned.buffer, aligned.byteOffset, aligned.byteLength / size);
  }
}
