import { tagParts } from '../tags';
import { distinctiveTerms, termsInto } from '../wordTerms';

// What the search index files a memory under, and the saved form of an index.

/** What the index needs of a current, non-deleted memory. */
export interface IndexedMemory {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
}

/** A memory as given to the index: its content is analysed, not kept. */
export interface MemoryToIndex extends IndexedMemory {
  content?: string;
}

/** The postings a memory is filed under; recomputed from the memory when not kept. */
export interface Analysis {
  /** Distinct stemmed terms of the description and of the tags' parts. */
  terms: string[];
  /** Stemmed form of each distinct tag (`build-systems` → `build-system`). */
  tagStems: string[];
  /**
   * At most CONTENT_TERMS stemmed terms of the content that the description and tags do not
   * hold: the ones that best tell the memory apart (wordTerms.ts, distinctiveTerms). A weaker field.
   */
  contentTerms: string[];
}

/**
 * A memory in the index. It keeps its content terms (the content is not kept), except in a
 * restored index, which reads them from the postings when first needed (see remove); the other
 * terms come again from the description and tags.
 */
export interface Doc extends IndexedMemory {
  contentTerms?: string[];
}

/**
 * Most content terms a memory is filed under. Content is indexed for what the description
 * leaves out (the exact error text, the other words for the same thing), but bounded, so
 * the index and a broad query's reach grow by a fixed share, not with the length of notes.
 */
export const CONTENT_TERMS = 24;

/**
 * The terms and tag stems a memory is found by. Exported so a store that searches on its
 * own server (PostgreSQL) files memories under exactly the terms this index would.
 */
export function analyzeMemory(memory: Pick<MemoryToIndex, 'description' | 'tags' | 'content'>, maxContentTerms = CONTENT_TERMS): Analysis {
  const docTerms = describedTerms(memory);
  const tags = [...new Set(memory.tags)];
  return {
    terms: [...docTerms],
    tagStems: [...new Set(tags.map((t) => tagParts(t).join('-')))],
    contentTerms: distinctiveTerms(memory.content ?? '', docTerms, maxContentTerms),
  };
}

/** The distinct terms of a memory's description and of its tags' parts (Analysis.terms, as a set). */
export function describedTerms(memory: Pick<IndexedMemory, 'description' | 'tags'>): Set<string> {
  const out = termsInto(memory.description, new Set());
  for (const tag of memory.tags) for (const part of tagParts(tag)) out.add(part);
  return out;
}

/**
 * Marks a content term in a flat list of terms (a store that keeps one list per memory, such
 * as PostgreSQL's search_vector). No analysed term starts with it: terms are letters and
 * digits, tag parts add only `#` and `+`.
 */
export const CONTENT_MARK = '~';

/** An analysis's terms as one list: description and tag terms as they are, content terms marked. */
export function flatTerms(a: Pick<Analysis, 'terms' | 'contentTerms'>): string[] {
  return [...a.terms, ...a.contentTerms.map((t) => CONTENT_MARK + t)];
}

/** The inverse of flatTerms. */
export function splitTerms(flat: readonly string[]): Pick<Analysis, 'terms' | 'contentTerms'> {
  const terms: string[] = [];
  const contentTerms: string[] = [];
  for (const t of flat)
    if (t.startsWith(CONTENT_MARK)) contentTerms.push(t.slice(CONTENT_MARK.length));
    else terms.push(t);
  return { terms, contentTerms };
}

/**
 * Version of the text analysis (src/core/text.ts and wordTerms.ts, tagParts). Saved analyses carry it; bump
 * it whenever a change to the analysis would give a stored memory other terms, so saved
 * indexes are rebuilt rather than searched with stale terms.
 */
export const ANALYZER_VERSION = 2;
