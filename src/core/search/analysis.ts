import { tagParts } from '../tags';
import { terms } from '../text';

// What the search index files a memory under, and the saved form of an index.

/** What the index needs of a current, non-deleted memory. */
export interface IndexedMemory {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
}

/** The postings a memory is filed under; recomputed from the memory when not kept. */
export interface Analysis {
  /** Distinct stemmed terms of the description and of the tags' parts. */
  terms: string[];
  /** Stemmed form of each distinct tag (`build-systems` → `build-system`). */
  tagStems: string[];
}

/** A memory in the index. A restored index does not keep the analysis (see remove). */
export interface Doc extends IndexedMemory {
  analysis?: Analysis;
}

/**
 * The terms and tag stems a memory is found by. Exported so a store that searches on its
 * own server (PostgreSQL) files memories under exactly the terms this index would.
 */
export function analyzeMemory(memory: Pick<IndexedMemory, 'description' | 'tags'>): Analysis {
  const docTerms = new Set(terms(memory.description));
  const tags = [...new Set(memory.tags)];
  for (const tag of tags) for (const part of tagParts(tag)) docTerms.add(part);
  return { terms: [...docTerms], tagStems: [...new Set(tags.map((t) => tagParts(t).join('-')))] };
}

/**
 * Version of the text analysis (src/core/text.ts, tagParts). Saved analyses carry it; bump
 * it whenever a change to the analysis would give a stored memory other terms, so saved
 * indexes are rebuilt rather than searched with stale terms.
 */
export const ANALYZER_VERSION = 1;

/**
 * An index as saved next to a snapshot: the memories by slot (null for a free slot) and
 * the postings of terms and tag stems as slot lists, so restoring needs no text analysis.
 */
export interface SavedIndex {
  docs: Array<[id: string, description: string, tags: string[], changedAt: string] | null>;
  terms: Array<[string, number[]]>;
  tagStems: Array<[string, number[]]>;
}

export function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

export function remove<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set && set.delete(value) && set.size === 0) map.delete(key);
}
