// A posting list as gaps: its slots in ascending order, the first whole and each next as the gap
// from the one before (postings.ts). Read from the gaps this process appended or from a saved
// list's LEB128 bytes, one slot at a time; written as LEB128 bytes.

/** The slots of a list's gaps (`Saved.gaps`, either form), one at a time: `next()` gives -1 past the end. */
export function gapSlots(gaps: number[] | Uint8Array): GapArray | GapBytes {
  return Array.isArray(gaps) ? new GapArray(gaps) : new GapBytes(gaps);
}

/** The slots of gaps this process appended (the first slot whole), one at a time; -1 past the end. */
class GapArray {
  private at = 0;
  private slot = 0;

  constructor(private readonly gaps: number[]) {}

  next(): number {
    if (this.at >= this.gaps.length) return -1;
    this.slot += this.gaps[this.at++]!;
    return this.slot;
  }
}

/** The slots of a saved list's LEB128 gaps (the first slot whole), one at a time; -1 past the end. */
class GapBytes {
  private at = 0;
  private slot = -1;

  constructor(private readonly bytes: Uint8Array) {}

  next(): number {
    const bytes = this.bytes;
    if (this.at >= bytes.length) return -1;
    let b = bytes[this.at++]!;
    // Most gaps of a common term's list are one byte.
    let gap = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[this.at++]!;
      gap += (b & 0x7f) * 2 ** shift;
    }
    this.slot = this.slot === -1 ? gap : this.slot + gap;
    return this.slot;
  }
}

/** A growing byte array. */
export class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  length = 0;

  varint(value: number): void {
    this.room(5);
    while (value >= 0x80) {
      this.buf[this.length++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buf[this.length++] = value;
  }

  append(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }
}
