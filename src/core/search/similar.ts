import { type Doc, describedTerms, type IndexedMemory } from './analysis';
import type { Postings } from './postings';

/** How many of the asked terms each slot holds: kept between calls, zeroed after each. */
let held = new Uint16Array(0);

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
 * candidates for "likely duplicate". Every term's list is walked once, counting per slot (of
 * `slots`) how many of the terms it holds: a memory that shares fewer than ⌈min·|terms|⌉ cannot
 * be alike enough. A pass over the lists as they are saved costs less than making sets of a
 * large store's common terms' lists and probing them per candidate. `termPostings` is an
 * index's description-and-tag field, `docAt` its memory in a slot.
 */
export function similarIn(
  termPostings: Postings,
  docAt: (slot: number) => Doc,
  terms: ReadonlySet<string>,
  min: number,
  limit: number,
  slots: number,
): Array<IndexedMemory & { similarity: number }> {
  const need = termsNeeded(terms.size, min);
  if (held.length < slots) held = new Uint16Array(Math.max(slots, held.length * 2));
  const counts = held;
  for (const t of terms) termPostings.countInto(t, counts);
  const found: Array<IndexedMemory & { similarity: number }> = [];
  try {
    for (let slot = 0; slot < slots; slot++) {
      const shared = counts[slot]!;
      if (shared < need) continue;
      const doc = docAt(slot);
      const size = doc.analysis?.terms.length ?? describedTerms(doc).size;
      const similarity = shared / (terms.size + size - shared);
      if (similarity >= min) found.push({ id: doc.id, description: doc.description, tags: doc.tags, changedAt: doc.changedAt, similarity });
    }
  } finally {
    counts.fill(0, 0, slots);
  }
  return found
    .sort((a, b) => b.similarity - a.similarity || (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : a.id < b.id ? -1 : 1))
    .slice(0, limit);
}
