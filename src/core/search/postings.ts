/**
 * The postings of one field of the index: per term, the slots of the memories that hold it.
 * Saved as each term's slots in ascending order, each after the first as the gap from the one
 * before (a common term's list is then mostly one- and two-digit numbers), and restored as
 * those lists, decoded into a set only when a term is first used: opening a saved index costs
 * about what parsing it costs, and a search decodes only the terms it asks for.
 */
export class Postings {
  /** A Set once used; the saved gap list until then. */
  private readonly map = new Map<string, Set<number> | number[]>();

  /** Slots holding `term`, or undefined. */
  get(term: string): Set<number> | undefined {
    const p = this.map.get(term);
    if (p === undefined || p instanceof Set) return p;
    const set = slotsOf(p);
    this.map.set(term, set);
    return set;
  }

  /** How many memories hold `term` (a gap list has one entry per slot: no decoding needed). */
  size(term: string): number {
    const p = this.map.get(term);
    return p === undefined ? 0 : p instanceof Set ? p.size : p.length;
  }

  add(term: string, slot: number): void {
    let set = this.get(term);
    if (!set) this.map.set(term, (set = new Set()));
    set.add(slot);
  }

  remove(term: string, slot: number): void {
    const set = this.get(term);
    if (set && set.delete(slot) && set.size === 0) this.map.delete(term);
  }

  clear(): void {
    this.map.clear();
  }

  /** Every (term, slot) pair, without decoding lists into sets (a saved index has millions of them). */
  forEach(fn: (term: string, slot: number) => void): void {
    for (const [term, p] of this.map) {
      if (p instanceof Set) for (const slot of p) fn(term, slot);
      else for (let i = 0, slot = 0; i < p.length; i++) fn(term, (slot = i === 0 ? p[0]! : slot + p[i]!));
    }
  }

  /** The saved form: [term, gap list] per term. */
  save(): Array<[string, number[]]> {
    return [...this.map].map(([term, p]) => [term, p instanceof Set ? gaps(p) : p]);
  }

  /** Takes saved lists as they are (see save); each is decoded on first use. */
  static restore(saved: Array<[string, number[]]>): Postings {
    const postings = new Postings();
    for (const [term, list] of saved) postings.map.set(term, list);
    return postings;
  }
}

function gaps(slots: Set<number>): number[] {
  const sorted = Int32Array.from(slots).sort();
  const out = new Array<number>(sorted.length);
  for (let i = 0; i < sorted.length; i++) out[i] = i === 0 ? sorted[0]! : sorted[i]! - sorted[i - 1]!;
  return out;
}

function slotsOf(gapList: number[]): Set<number> {
  const slots = new Set<number>();
  let slot = 0;
  for (let i = 0; i < gapList.length; i++) slots.add((slot = i === 0 ? gapList[0]! : slot + gapList[i]!));
  return slots;
}
