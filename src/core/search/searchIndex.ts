import { tagParts } from '../tags';
import { terms } from '../text';
import type { SearchQuery } from './query';

/** What the index needs of a current, non-deleted memory. */
export interface IndexedMemory {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
}

interface Doc extends IndexedMemory {
  /** Stemmed terms of the description and of the tags' parts. */
  terms: Set<string>;
  /** Stemmed form of each tag (`build-systems` → `build-system`). */
  tagStems: string[];
}

/** One ranked hit, with the figures that ordered it (handy for tests and tuning). */
export interface SearchHit extends IndexedMemory {
  matchedKeywords: number;
  score: number;
}

/** Weights of the ways a keyword can match a memory. */
const EXACT_TAG = 2;
const PARTIAL_TAG = 1.5;
const DESCRIPTION = 1;
/** A keyword counts as matched when this share of its (IDF-weighted) terms is found. */
const MATCH_THRESHOLD = 0.5;

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function remove<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set && set.delete(value) && set.size === 0) map.delete(key);
}

/**
 * An in-memory inverted index over the descriptions and tags of current memories.
 * It is derived data: a store rebuilds it on open and keeps it in step with every
 * version it applies. Ranking, in order: more matched keywords; then the sum of match
 * strengths (an exact tag beats a tag prefix or inflection, which beats the description,
 * rarer terms weigh more); then the most recently changed.
 */
export class SearchIndex {
  private readonly docs = new Map<string, Doc>();
  private readonly termPostings = new Map<string, Set<string>>();
  private readonly tagPostings = new Map<string, Set<string>>();
  private sortedTags: string[] | undefined;

  get size(): number {
    return this.docs.size;
  }

  /** Adds or replaces a memory. */
  put(memory: IndexedMemory): void {
    this.remove(memory.id);
    const docTerms = new Set(terms(memory.description));
    for (const tag of memory.tags) for (const part of tagParts(tag)) docTerms.add(part);
    const doc: Doc = { ...memory, terms: docTerms, tagStems: memory.tags.map((t) => tagParts(t).join('-')) };
    this.docs.set(memory.id, doc);
    for (const t of docTerms) add(this.termPostings, t, memory.id);
    for (const tag of memory.tags) {
      if (!this.tagPostings.has(tag)) this.sortedTags = undefined;
      add(this.tagPostings, tag, memory.id);
    }
  }

  /** Removes a memory (deleted or purged); unknown ids are ignored. */
  remove(id: string): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    this.docs.delete(id);
    for (const t of doc.terms) remove(this.termPostings, t, id);
    for (const tag of doc.tags) {
      remove(this.tagPostings, tag, id);
      if (!this.tagPostings.has(tag)) this.sortedTags = undefined;
    }
  }

  clear(): void {
    this.docs.clear();
    this.termPostings.clear();
    this.tagPostings.clear();
    this.sortedTags = undefined;
  }

  /** The tag vocabulary of current memories with counts, most used first. */
  tagCounts(): Array<{ tag: string; count: number }> {
    return [...this.tagPostings]
      .map(([tag, ids]) => ({ tag, count: ids.size }))
      .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  }

  /** Tags starting with `prefix`, from a sorted copy of the vocabulary. */
  private tagsWithPrefix(prefix: string): string[] {
    const tags = (this.sortedTags ??= [...this.tagPostings.keys()].sort());
    let lo = 0;
    let hi = tags.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tags[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < tags.length && tags[i]!.startsWith(prefix); i++) out.push(tags[i]!);
    return out;
  }

  private idf(term: string): number {
    const df = this.termPostings.get(term)?.size ?? 0;
    return Math.log(1 + (this.docs.size + 1) / (df + 0.5));
  }

  search(query: SearchQuery): SearchHit[] {
    const n = query.keywords.length;
    // Per keyword: candidate ids from its terms and from tags it names or prefixes.
    const candidates = new Set<string>();
    const prefixTags = query.keywords.map((k) => (k.tag.length >= 3 ? new Set(this.tagsWithPrefix(k.tag)) : new Set<string>()));
    const weights = query.keywords.map((k) => k.terms.map((t) => this.idf(t)));
    query.keywords.forEach((k, i) => {
      for (const t of k.terms) for (const id of this.termPostings.get(t) ?? []) candidates.add(id);
      for (const tag of prefixTags[i]!) for (const id of this.tagPostings.get(tag) ?? []) candidates.add(id);
    });

    const hits: SearchHit[] = [];
    for (const id of candidates) {
      const doc = this.docs.get(id)!;
      if (query.tags.some((t) => !doc.tags.includes(t))) continue;
      let matched = 0;
      let score = 0;
      for (let i = 0; i < n; i++) {
        const k = query.keywords[i]!;
        const w = weights[i]!;
        let total = 0;
        let found = 0;
        k.terms.forEach((t, j) => {
          total += w[j]!;
          if (doc.terms.has(t)) found += w[j]!;
        });
        const desc = total > 0 ? found / total : 0;
        let s = 0;
        if (doc.tags.includes(k.tag)) s = EXACT_TAG + desc * 0.25;
        else if (doc.tags.some((t) => prefixTags[i]!.has(t)) || (k.tagStem && doc.tagStems.includes(k.tagStem)))
          s = PARTIAL_TAG + desc * 0.25;
        else if (desc >= MATCH_THRESHOLD) s = DESCRIPTION * desc;
        if (s > 0) {
          matched++;
          score += s;
        }
      }
      if (matched > 0) hits.push({ id, description: doc.description, tags: doc.tags, changedAt: doc.changedAt, matchedKeywords: matched, score });
    }
    hits.sort(
      (a, b) =>
        b.matchedKeywords - a.matchedKeywords ||
        b.score - a.score ||
        (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0) ||
        (a.id < b.id ? -1 : 1),
    );
    return hits.slice(0, query.limit);
  }
}
