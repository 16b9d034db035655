import { ArrayColumn, type StringColumn } from '../packed';
import { ByteWriter, gapSlots } from './gapLists';

/**
 * The postings of one field of the index: per term, the slots of the memories that hold it.
 * Saved as each term's slots in ascending order, the first whole and each next as the gap
 * from the one before, in LEB128 bytes (a common term's list is then mostly one byte a slot),
 * and restored as those bytes, decoded into a set only when a search first asks for the term:
 * opening a saved index costs about what reading it costs, and a search decodes only the
 * terms it asks for. Filing into or removing from a list not decoded yet is noted beside it
 * (`Saved`), so a catch-up that files a thousand memories after a git pull does not decode
 * every common term they hold.
 */
export class Postings {
  /** A Set once asked for; the gap list, with the changes made since, until then. */
  private readonly map = new Map<string, Set<number> | Saved>();

  /** Slots holding `term`, or undefined. */
  get(term: string): Set<number> | undefined {
    const p = this.map.get(term);
    if (p === undefined || p instanceof Set) return p;
    const set = slotsOf(p);
    this.map.set(term, set);
    return set;
  }

  /**
   * The slots holding `term`, for a caller that goes over them once (a search crediting its
   * memories): a saved list is decoded into an array the first time it is asked for, and into a
   * set (kept, as `get` keeps it) only the second time. A one-shot process (the CLI) then never
   * hashes the tens of thousands of slots of a common term it reads once.
   */
  slots(term: string): Iterable<number> | undefined {
    const p = this.map.get(term);
    if (p === undefined || p instanceof Set) return p;
    if (p.walked) return this.get(term);
    p.walked = true;
    const out: number[] = [];
    walk(p, (slot) => out.push(slot));
    return out;
  }

  has(term: string): boolean {
    return this.map.has(term);
  }

  /** Whether `term`'s list is a set (a search asked for it), which countReached probes slot by slot; a saved list is walked. */
  isSet(term: string): boolean {
    return this.map.get(term) instanceof Set;
  }

  /** The terms held by any memory. */
  terms(): IterableIterator<string> {
    return this.map.keys();
  }

  /**
   * Adds 1 to `counts[slot]` for each slot holding `term`, without making a set of a saved list,
   * and writes each slot it raises from 0 into `reached` from `n` on (room for every slot);
   * returns the new `n`. The likely-duplicate check counts over a large store's common terms
   * (similar.ts), and a callback per slot (walk) cost several times this loop. Each slot is
   * counted once: one removed from a saved list since is skipped, not counted and taken back.
   */
  countInto(term: string, counts: Uint16Array, reached: Int32Array, n: number): number {
    const p = this.map.get(term);
    if (p === undefined) return n;
    if (p instanceof Set) {
      for (const slot of p) if (counts[slot]!++ === 0) reached[n++] = slot;
      return n;
    }
    const slots = new ListedSlots(p);
    for (let slot = slots.next(); slot !== -1; slot = slots.next()) if (counts[slot]!++ === 0) reached[n++] = slot;
    // Filed since: never in the list (a slot removed and filed again leaves `minus` instead).
    if (p.plus) for (const slot of p.plus) if (counts[slot]!++ === 0) reached[n++] = slot;
    return n;
  }

  /**
   * As countInto, for the slots counted already only (count above 0: the first `n` of
   * `reached`): a set larger than them is probed, one `has` per slot; any other list is walked.
   */
  countReached(term: string, counts: Uint16Array, reached: Int32Array, n: number): void {
    const p = this.map.get(term);
    if (p === undefined) return;
    if (p instanceof Set) {
      if (n < p.size) {
        for (let i = 0; i < n; i++) if (p.has(reached[i]!)) counts[reached[i]!]!++;
      } else for (const slot of p) if (counts[slot]) counts[slot]!++;
      return;
    }
    const gaps = gapSlots(p.gaps);
    for (let slot = gaps.next(); slot !== -1; slot = gaps.next()) if (counts[slot]) counts[slot]!++;
    // A removed slot was raised with the list only if it was counted already (its count is above 1 then).
    const { minus } = p;
    if (minus) for (const slot of minus) if (counts[slot]) counts[slot]!--;
    if (p.plus) for (const slot of p.plus) if (counts[slot]) counts[slot]!++;
  }

  /** How many memories hold `term` (counted without decoding a saved list). */
  size(term: string): number {
    const p = this.map.get(term);
    return p === undefined ? 0 : p instanceof Set ? p.size : sizeOf(p);
  }

  add(term: string, slot: number): void {
    const p = this.map.get(term);
    // A new term starts as a gap list, and a slot past its end is appended to it: an index built
    // in slot order (a fresh clone's) makes no set at all until a search asks for the term.
    if (p === undefined) this.map.set(term, { gaps: [slot], count: 1, last: slot, plus: undefined, minus: undefined, walked: false });
    else if (p instanceof Set) p.add(slot);
    else if (p.last !== undefined && slot > p.last && !p.plus && !p.minus && Array.isArray(p.gaps)) {
      p.gaps.push(slot - p.last);
      p.count++;
      p.last = slot;
    }
    // A slot removed from the saved list and filed again (an edit keeps its slot) is in it again.
    else if (p.minus?.delete(slot) !== true) (p.plus ??= new Set()).add(slot);
  }

  /** Removes a slot the term was filed under (the index removes only what it filed). */
  remove(term: string, slot: number): void {
    const p = this.map.get(term);
    if (p === undefined) return;
    if (p instanceof Set) {
      if (p.delete(slot) && p.size === 0) this.map.delete(term);
      return;
    }
    if (p.plus?.delete(slot) !== true) (p.minus ??= new Set()).add(slot);
    if (sizeOf(p) === 0) this.map.delete(term);
  }

  clear(): void {
    this.map.clear();
  }

  /** Every (term, slot) pair, without decoding lists into sets (a saved index has millions of them). */
  forEach(fn: (term: string, slot: number) => void): void {
    for (const [term, p] of this.map) {
      if (p instanceof Set) for (const slot of p) fn(term, slot);
      else walk(p, (slot) => fn(term, slot));
    }
  }

  /** The saved form (see the class comment); a list read from a saved index and not changed since is copied as it is. */
  save(): SavedPostings {
    const terms: string[] = [];
    const counts: number[] = [];
    const sizes: number[] = [];
    const out = new ByteWriter();
    for (const [term, p] of this.map) {
      const before = out.length;
      if (!(p instanceof Set) && !p.plus && !p.minus) {
        if (Array.isArray(p.gaps)) for (const gap of p.gaps) out.varint(gap);
        else out.append(p.gaps);
      } else {
        const sorted = Int32Array.from(p instanceof Set ? p : slotsOf(p)).sort();
        for (let i = 0; i < sorted.length; i++) out.varint(i === 0 ? sorted[0]! : sorted[i]! - sorted[i - 1]!);
      }
      terms.push(term);
      counts.push(p instanceof Set ? p.size : sizeOf(p));
      sizes.push(out.length - before);
    }
    return { terms: new ArrayColumn(terms), counts: Uint32Array.from(counts), sizes: Uint32Array.from(sizes), lists: out.bytes() };
  }

  /** Takes saved lists as they are (see save); each is decoded on first use. Throws when the parts do not agree. */
  static restore<P extends Postings>(this: new () => P, saved: SavedPostings): P {
    const { terms, counts, sizes, lists } = saved;
    if (counts.length !== terms.length || sizes.length !== terms.length) throw new Error('saved postings: the columns differ in length');
    const postings = new this();
    const names = terms.all();
    let at = 0;
    for (let i = 0; i < names.length; i++) {
      const end = at + sizes[i]!;
      postings.map.set(names[i]!, {
        gaps: lists.subarray(at, end),
        count: counts[i]!,
        last: undefined,
        plus: undefined,
        minus: undefined,
        walked: false,
      });
      at = end;
    }
    if (at !== lists.length) throw new Error('saved postings: the lists do not add up');
    return postings;
  }
}

/** One field's postings as saved: per term, its slot count and the byte length of its list in `lists`. */
export interface SavedPostings {
  terms: StringColumn;
  counts: Uint32Array;
  sizes: Uint32Array;
  /** Every term's slots in ascending order, as LEB128 gaps (the first slot whole), back to back. */
  lists: Uint8Array;
}

/** A list not decoded yet, and the slots filed under (`plus`) or removed from (`minus`) it since. Made with every field (one object shape). */
interface Saved {
  /** The gaps this process appended, or the LEB128 bytes read from a saved index. */
  gaps: number[] | Uint8Array;
  /** How many slots `gaps` holds. */
  count: number;
  /** Its last slot, when known (a list this process made); a restored list does not sum its gaps for it. */
  last: number | undefined;
  plus: Set<number> | undefined;
  minus: Set<number> | undefined;
  /** Asked for once already by `slots`: the next ask makes the set. */
  walked: boolean;
}

function sizeOf(p: Saved): number {
  return p.count + (p.plus?.size ?? 0) - (p.minus?.size ?? 0);
}

/**
 * The slots of a saved list's gaps less those removed since (`minus`: the edits and deletes of
 * this process, a few), one at a time, -1 past the end. The removed slots are sorted once and
 * passed by merging with the list's ascending slots, one comparison a slot, instead of asking a
 * set about each of a common term's tens of thousands.
 */
class ListedSlots {
  private readonly gaps: ReturnType<typeof gapSlots>;
  private readonly removed: Int32Array | undefined;
  private at = 0;

  constructor(p: Saved) {
    this.gaps = gapSlots(p.gaps);
    this.removed = p.minus?.size ? Int32Array.from(p.minus).sort() : undefined;
  }

  next(): number {
    const removed = this.removed;
    for (;;) {
      const slot = this.gaps.next();
      if (slot === -1 || removed === undefined) return slot;
      while (this.at < removed.length && removed[this.at]! < slot) this.at++;
      if (this.at >= removed.length || removed[this.at] !== slot) return slot;
    }
  }
}

/** The slots of a saved list as it stands: the list's, less `minus`, then `plus`. */
function walk(p: Saved, fn: (slot: number) => void): void {
  const slots = new ListedSlots(p);
  for (let slot = slots.next(); slot !== -1; slot = slots.next()) fn(slot);
  if (p.plus) for (const slot of p.plus) fn(slot);
}

function slotsOf(p: Saved): Set<number> {
  const slots = new Set<number>();
  walk(p, (slot) => slots.add(slot));
  return slots;
}
