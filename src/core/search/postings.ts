/**
 * The postings of one field of the index: per term, the slots of the memories that hold it.
 * Saved as each term's slots in ascending order, each after the first as the gap from the one
 * before (a common term's list is then mostly one- and two-digit numbers), and restored as
 * those lists, decoded into a set only when a search first asks for the term: opening a saved
 * index costs about what parsing it costs, and a search decodes only the terms it asks for.
 * Filing into or removing from a list not decoded yet is noted beside it (`Saved`), so a
 * catch-up that files a thousand memories after a git pull does not decode every common term
 * they hold.
 */
export class Postings {
  /** A Set once asked for; the saved gap list, with the changes made since, until then. */
  private readonly map = new Map<string, Set<number> | Saved>();

  /** Slots holding `term`, or undefined. */
  get(term: string): Set<number> | undefined {
    const p = this.map.get(term);
    if (p === undefined || p instanceof Set) return p;
    const set = slotsOf(p);
    this.map.set(term, set);
    return set;
  }

  has(term: string): boolean {
    return this.map.has(term);
  }

  /** The terms held by any memory. */
  terms(): IterableIterator<string> {
    return this.map.keys();
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
    if (p === undefined) this.map.set(term, { gaps: [slot], last: slot });
    else if (p instanceof Set) p.add(slot);
    else if (p.last !== undefined && slot > p.last && !p.plus && !p.minus) {
      p.gaps.push(slot - p.last);
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

  /** The saved form: [term, gap list] per term. */
  save(): Array<[string, number[]]> {
    return [...this.map].map(([term, p]) => [term, p instanceof Set ? gaps(p) : p.plus || p.minus ? gaps(slotsOf(p)) : p.gaps]);
  }

  /** Takes saved lists as they are (see save); each is decoded on first use. */
  static restore(saved: Array<[string, number[]]>): Postings {
    const postings = new Postings();
    for (const [term, list] of saved) postings.map.set(term, { gaps: list });
    return postings;
  }
}

/** A saved list not decoded yet, and the slots filed under (`plus`) or removed from (`minus`) it since. */
interface Saved {
  gaps: number[];
  /** Its last slot, when known (a list this process made); a restored list does not sum its gaps for it. */
  last?: number;
  plus?: Set<number>;
  minus?: Set<number>;
}

function sizeOf(p: Saved): number {
  return p.gaps.length + (p.plus?.size ?? 0) - (p.minus?.size ?? 0);
}

/** The slots of a saved list as it stands: the list's, less `minus`, then `plus`. */
function walk(p: Saved, fn: (slot: number) => void): void {
  const list = p.gaps;
  for (let i = 0, slot = 0; i < list.length; i++) {
    slot = i === 0 ? list[0]! : slot + list[i]!;
    if (!p.minus?.has(slot)) fn(slot);
  }
  if (p.plus) for (const slot of p.plus) fn(slot);
}

function gaps(slots: Set<number>): number[] {
  const sorted = Int32Array.from(slots).sort();
  const out = new Array<number>(sorted.length);
  for (let i = 0; i < sorted.length; i++) out[i] = i === 0 ? sorted[0]! : sorted[i]! - sorted[i - 1]!;
  return out;
}

function slotsOf(p: Saved): Set<number> {
  const slots = new Set<number>();
  walk(p, (slot) => slots.add(slot));
  return slots;
}
