import { type Doc, describedTerms, type IndexedMemory } from './analysis';
import type { Postings } from './postings';

/**
 * Memories whose description and tag terms (`describedTerms`) are at least `min` alike to
 * `terms` (Jaccard), most alike first, then most recently changed, at most `limit`: the
 * candidates for "likely duplicate". Such a memory shares at least ⌈min·|terms|⌉ of the terms,
 * so it holds one of the |terms| − ⌈min·|terms|⌉ + 1 rarest (prefix filtering): only those
 * terms' memories are read, however common the others are. `termPostings` is an index's
 * description-and-tag field, `docAt` its memory in a slot.
 */
export function similarIn(
  termPostings: Postings,
  docAt: (slot: number) => Doc,
  terms: ReadonlySet<string>,
  min: number,
  limit: number,
): Array<IndexedMemory & { similarity: number }> {
  const need = Math.max(1, Math.ceil(min * terms.size - 1e-9));
  const lists = [...terms].map((t) => termPostings.get(t) ?? new Set<number>()).sort((a, b) => a.size - b.size);
  const prefix = lists.length - need + 1;
  // How many of the prefix's lists hold each candidate; then the other lists, rarest first,
  // until the candidate has missed more of them than it can afford.
  const inPrefix = new Map<number, number>();
  for (const list of lists.slice(0, prefix)) for (const slot of list) inPrefix.set(slot, (inPrefix.get(slot) ?? 0) + 1);
  const found: Array<IndexedMemory & { similarity: number }> = [];
  for (const [slot, held] of inPrefix) {
    let shared = held;
    let spare = lists.length - prefix - (need - held);
    for (let i = prefix; i < lists.length && spare >= 0; i++) {
      if (lists[i]!.has(slot)) shared++;
      else spare--;
    }
    if (shared < need) continue;
    const doc = docAt(slot);
    const size = doc.analysis?.terms.length ?? describedTerms(doc).size;
    const similarity = shared / (terms.size + size - shared);
    if (similarity >= min) found.push({ id: doc.id, description: doc.description, tags: doc.tags, changedAt: doc.changedAt, similarity });
  }
  return found
    .sort((a, b) => b.similarity - a.similarity || (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : a.id < b.id ? -1 : 1))
    .slice(0, limit);
}
