import { describedTerms, type IndexedMemory } from './analysis';
import type { DocSlots } from './docSlots';
import type { Postings } from './postings';

/**
 * What reading a memory and analysing its description and tags costs, in list entries walked
 * (about 6 ns each here): below it, the memories left are checked by their own terms.
 */
const READ_COST = 1500;
/**
 * What asking a set (a list a search has decoded: Postings.isSet) whether it holds one memory
 * costs, in list entries walked (a hash probe, about 20–40 ns, against 6–18 ns an entry).
 */
const PROBE_COST = 3;
/** Term counts up to which the least shared count is tabulated per call (a memory's description and tags hold a few dozen). */
const LEAST_SIZES = 128;

/** How many of the asked terms each slot holds: kept between calls, zeroed after each. */
let held = new Uint16Array(0);
/** The slots still in the running (the first `m` of it, in similarIn): kept between calls. */
let running = new Int32Array(0);

/**
 * How many of `size` asked terms a memory must hold to be at least `min` alike: holding
 * `shared` of them it is at most shared / size alike, whatever else it holds.
 */
export function termsNeeded(size: number, min: number): number {
  return Math.max(1, Math.ceil(min * size - 1e-9));
}

/**
 * Memories whose description and tag terms (`describedTerms`) are at least `min` alike to
 * `terms` (Jaccard), most alike first, then most recently changed, at most `limit`: the
 * candidates for "likely duplicate". A memory that shares fewer than need = ⌈min·|terms|⌉ of
 * the terms cannot be alike enough, so it holds one of any |terms| − need + 1 of them (prefix
 * filtering). The lists of the rarest that many are walked, counting per slot how many of the
 * terms each memory holds (`Postings.countInto`: no set made of a saved list); then the commoner
 * terms, rarest first, count only for the memories still in the running
 * (`Postings.countReached`), and after each term a memory that could not be alike enough even
 * holding every term left is dropped (its similarity at best, from the count and the number of
 * terms it holds, `DocSlots.termCounts`). Once few are left, their own terms are read, when that
 * costs less than counting the next term: walking its saved list, or probing its set (a list a
 * search decoded) once per memory left. A memory is read only when it is alike enough or among those few.
 * `termPostings` is an index's description-and-tag field, `docs` its memories.
 */
export function similarIn(
  termPostings: Postings,
  docs: Pick<DocSlots, 'at' | 'termCounts' | 'length'>,
  terms: ReadonlySet<string>,
  min: number,
  limit: number,
): Array<IndexedMemory & { similarity: number }> {
  const n = terms.size;
  const need = termsNeeded(n, min);
  const slots = docs.length;
  if (held.length < slots) {
    held = new Uint16Array(Math.max(slots, held.length * 2));
    running = new Int32Array(held.length);
  }
  const counts = held;
  const reached = running;
  const sizes = docs.termCounts();
  const sized = [...terms].map((term) => ({ term, size: termPostings.size(term) })).sort((a, b) => a.size - b.size);
  const byRarity = sized.map((t) => t.term);
  const prefix = n - need + 1;
  const probed = sized.map((t) => termPostings.isSet(t.term));
  // What counting the k-th term costs for `m` memories, in list entries: a set is probed once per
  // memory (or walked, when that is less: Postings.countReached), a saved list walked.
  const countCost = (k: number, m: number) => (probed[k] ? Math.min(m * PROBE_COST, sized[k]!.size) : sized[k]!.size);
  // Whether a memory holding `shared` of the terms, `size` terms in all, is alike enough.
  const alike = (shared: number, size: number) => shared / (n + size - shared) >= min;
  // The least `shared` that is alike enough for a memory of `size` terms (n + 1: none), by size:
  // the filters below compare counts with it instead of dividing (alike rises with `shared`).
  const least = new Uint16Array(LEAST_SIZES);
  const leastFor = (size: number) => {
    let shared = 0;
    while (shared <= n && !alike(shared, size)) shared++;
    return shared;
  };
  for (let size = 0; size < LEAST_SIZES; size++) least[size] = leastFor(size);
  // Whether a memory of `slot` may be alike enough holding `more` of the terms besides those counted.
  const mayBe = (slot: number, more: number) => {
    const size = sizes[slot] ?? 0;
    return counts[slot]! + more >= (size < LEAST_SIZES ? least[size]! : leastFor(size));
  };

  let m = 0;
  let counted = false;
  const found: Array<IndexedMemory & { similarity: number }> = [];
  try {
    let r = 0;
    for (let k = 0; k < prefix; k++) r = termPostings.countInto(byRarity[k]!, counts, reached, r);
    // The memories reached (each once) that could be alike holding every term left.
    for (let i = 0; i < r; i++) {
      const slot = reached[i]!;
      if (mayBe(slot, n - prefix)) reached[m++] = slot;
      else counts[slot] = 0;
    }
    counted = true;
    for (let k = prefix; k < n && m > 0; k++) {
      // Compared with the next term only, not with all the terms left: counting one drops the
      // memories that can no longer be alike enough, and the choice is made again after it.
      if (m * READ_COST < countCost(k, m)) {
        // Few left: each one's own terms tell which of the rest it holds, for less than the lists would.
        const rest = new Set(byRarity.slice(k));
        for (let i = 0; i < m; i++) for (const t of describedTerms(docs.at(reached[i]!)!)) if (rest.has(t)) counts[reached[i]!]!++;
        break;
      }
      termPostings.countReached(byRarity[k]!, counts, reached, m);
      let kept = 0;
      for (let i = 0; i < m; i++) {
        const slot = reached[i]!;
        if (mayBe(slot, n - k - 1)) reached[kept++] = slot;
        else counts[slot] = 0;
      }
      m = kept;
    }
    for (let i = 0; i < m; i++) {
      const slot = reached[i]!;
      const shared = counts[slot]!;
      const size = sizes[slot] ?? 0;
      if (shared < need || !alike(shared, size)) continue;
      const doc = docs.at(slot)!;
      found.push({
        id: doc.id,
        description: doc.description,
        tags: doc.tags,
        changedAt: doc.changedAt,
        similarity: shared / (n + size - shared),
      });
    }
  } finally {
    if (counted) for (let i = 0; i < m; i++) counts[reached[i]!] = 0;
    else counts.fill(0, 0, slots);
  }
  return found
    .sort((a, b) => b.similarity - a.similarity || (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : a.id < b.id ? -1 : 1))
    .slice(0, limit);
}
