import type { TagMatch } from './ranking';

/**
 * The scratch space of one search, reused from search to search (search is synchronous):
 * one row per memory the keywords reach, `n` cells per row (one per keyword), holding the
 * share of the keyword's words the memory holds and the best tag match. Rows are handed out
 * on first touch, so a search costs what its postings cost, not the size of the index.
 */
export class ScoreTable {
  /** Rows used in this search. */
  rowCount = 0;
  /** Per row, the memory's slot. */
  rowSlots = new Int32Array(64);
  /** Per cell, the IDF-weighted share of the keyword's words the memory holds. */
  share = new Float64Array(64);
  /** Per cell, the best TagMatch. */
  tagMatch = new Uint8Array(64);
  /** Per slot, the mark of the compound word whose whole it holds (see nextStamp). */
  stamp = new Int32Array(0);

  private n = 1;
  private rowOf = new Int32Array(0);
  private seenIn = new Int32Array(0);
  private epoch = 0;
  private stampNow = 0;

  /** Starts a search over `slots` slots with `n` keywords; the previous search's rows are forgotten in O(1). */
  prepare(slots: number, n: number): void {
    if (this.seenIn.length < slots) {
      this.seenIn = new Int32Array(Math.max(slots, this.seenIn.length * 2, 64));
      this.rowOf = new Int32Array(this.seenIn.length);
      this.epoch = 0;
      this.stamp = new Int32Array(this.seenIn.length);
      this.stampNow = 0;
    }
    this.epoch++;
    if (this.epoch >= 0x7fffffff) {
      this.seenIn.fill(0);
      this.epoch = 1;
    }
    this.n = n;
    this.rowCount = 0;
    this.grow(64);
  }

  /** The first cell of `slot`'s row, made (zeroed) on first use in this search. */
  cellOf(slot: number): number {
    const n = this.n;
    if (this.seenIn[slot] === this.epoch) return this.rowOf[slot]! * n;
    const r = this.rowCount++;
    if (r >= this.rowSlots.length) this.grow(r + 1);
    this.seenIn[slot] = this.epoch;
    this.rowOf[slot] = r;
    this.rowSlots[r] = slot;
    const first = r * n;
    for (let c = first; c < first + n; c++) {
      this.share[c] = 0;
      this.tagMatch[c] = 0;
    }
    return first;
  }

  /** Adds `amount` to keyword i's share of each memory of `postings`; stamps them with `mark`, skips those stamped `skip`. */
  credit(postings: Iterable<number> | undefined, i: number, amount: number, mark: number, skip: number): void {
    if (!postings) return;
    for (const slot of postings) {
      if (skip && this.stamp[slot] === skip) continue;
      const cell = this.cellOf(slot) + i;
      this.share[cell] = this.share[cell]! + amount;
      if (mark) this.stamp[slot] = mark;
    }
  }

  /** Raises keyword i's tag match of each memory of `postings` to `kind`, where it is lower. */
  markTag(postings: Iterable<number> | undefined, kind: TagMatch, i: number): void {
    if (!postings) return;
    for (const slot of postings) {
      const cell = this.cellOf(slot) + i;
      if (this.tagMatch[cell]! < kind) this.tagMatch[cell] = kind;
    }
  }

  /** A fresh mark for `stamp`, to tell in O(1) whether a slot holds a compound's whole word. */
  nextStamp(): number {
    if (++this.stampNow >= 0x7fffffff) {
      this.stamp.fill(0);
      this.stampNow = 1;
    }
    return this.stampNow;
  }

  /** Makes room for at least `rows` rows, keeping what is there. */
  private grow(rows: number): void {
    const n = this.n;
    let size = this.rowSlots.length;
    while (size < rows) size *= 2;
    if (size === this.rowSlots.length && this.share.length >= size * n) return;
    const rowSlots = new Int32Array(size);
    rowSlots.set(this.rowSlots);
    const share = new Float64Array(size * n);
    share.set(this.share.subarray(0, Math.min(this.share.length, share.length)));
    const tagMatch = new Uint8Array(size * n);
    tagMatch.set(this.tagMatch.subarray(0, Math.min(this.tagMatch.length, tagMatch.length)));
    this.rowSlots = rowSlots;
    this.share = share;
    this.tagMatch = tagMatch;
  }
}
