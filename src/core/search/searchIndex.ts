import { tagParts } from '../tags';
import { terms } from '../text';
import type { AnalyzedKeyword, SearchQuery } from './query';
import { better, DEFAULT_RANKING, MIN_PREFIX, type RankingOptions, type SearchHit, TagMatch } from './ranking';

export { DEFAULT_RANKING, type RankingOptions, type SearchHit } from './ranking';

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
interface Doc extends IndexedMemory {
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
 * version it applies.
 *
 * A keyword matches a memory that carries it as a tag, as another inflection of a tag or as
 * the prefix of a tag, or whose description and tag words hold most of its words (weighted
 * by IDF, so the rare words of a pasted error message count most; a compound such as
 * `keep-alive` or `getByRole` is held whole or through its parts). Ranking, in order:
 * 1. more matched keywords;
 * 2. the score: per keyword, its weight (the IDF of the keyword over the memories it
 *    matches: a keyword few memories match says more, one none match says most) times the
 *    strength of the match (exact tag > inflected tag > description > tag prefix), summed;
 *    holding some words of an unmatched keyword adds a little;
 * 3. the most recently changed.
 * Only memories that match at least one keyword and a quarter of the query's weight are
 * returned (the relevance floor), so a query about something the memory does not know
 * returns little or nothing rather than whatever shares one common word.
 */
export class SearchIndex {
  private readonly opts: RankingOptions;
  /** Docs by slot; slots of removed docs are reused. */
  private readonly slots: Array<Doc | undefined> = [];
  private readonly freeSlots: number[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly termPostings = new Map<string, Set<number>>();
  private readonly tagPostings = new Map<string, Set<number>>();
  private readonly tagStemPostings = new Map<string, Set<number>>();
  private sortedTags: string[] | undefined;

  // Scratch space for one search, reused (search is synchronous).
  private rowOf = new Int32Array(0);
  private seenIn = new Int32Array(0);
  private epoch = 0;
  private rowCount = 0;
  /** Per slot, the mark of the compound word whose whole it holds (see nextStamp). */
  private stamp = new Int32Array(0);
  private stampNow = 0;
  private rowSlots = new Int32Array(64);
  private share = new Float64Array(64);
  private tagMatch = new Uint8Array(64);

  constructor(options: Partial<RankingOptions> = {}) {
    this.opts = { ...DEFAULT_RANKING, ...options };
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Adds or replaces a memory. */
  put(memory: IndexedMemory): void {
    this.remove(memory.id);
    const analysis = analyzeMemory(memory);
    const doc: Doc = { id: memory.id, description: memory.description, tags: memory.tags, changedAt: memory.changedAt, analysis };
    const slot = this.freeSlots.pop() ?? this.slots.length;
    this.slots[slot] = doc;
    this.slotOf.set(doc.id, slot);
    for (const t of analysis.terms) add(this.termPostings, t, slot);
    for (const st of analysis.tagStems) add(this.tagStemPostings, st, slot);
    this.fileTags(doc, slot);
  }

  private fileTags(doc: Doc, slot: number): void {
    for (const tag of new Set(doc.tags)) {
      if (!this.tagPostings.has(tag)) this.sortedTags = undefined;
      add(this.tagPostings, tag, slot);
    }
  }

  /** The index in a form JSON can hold; give it to `restore`. */
  save(): SavedIndex {
    return {
      docs: this.slots.map((d) => (d ? [d.id, d.description, d.tags, d.changedAt] : null)),
      terms: [...this.termPostings].map(([t, slots]) => [t, [...slots]]),
      tagStems: [...this.tagStemPostings].map(([t, slots]) => [t, [...slots]]),
    };
  }

  /**
   * Rebuilds an index from `save()`'s output, made with the same ANALYZER_VERSION. Sets are
   * built from whole slot lists, and each memory's analysis is recomputed only if it is
   * ever removed: restoring is several times faster than putting every memory again.
   */
  static restore(saved: SavedIndex, options: Partial<RankingOptions> = {}): SearchIndex {
    const index = new SearchIndex(options);
    saved.docs.forEach((d, slot) => {
      if (!d) {
        index.slots[slot] = undefined;
        index.freeSlots.push(slot);
        return;
      }
      const [id, description, tags, changedAt] = d;
      const doc: Doc = { id, description, tags, changedAt };
      index.slots[slot] = doc;
      index.slotOf.set(id, slot);
      index.fileTags(doc, slot);
    });
    for (const [t, slots] of saved.terms) index.termPostings.set(t, new Set(slots));
    for (const [t, slots] of saved.tagStems) index.tagStemPostings.set(t, new Set(slots));
    return index;
  }

  /** Removes a memory (deleted or purged); unknown ids are ignored. */
  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const doc = this.slots[slot]!;
    this.slotOf.delete(id);
    this.slots[slot] = undefined;
    this.freeSlots.push(slot);
    const analysis = doc.analysis ?? analyzeMemory(doc);
    for (const t of analysis.terms) remove(this.termPostings, t, slot);
    for (const s of analysis.tagStems) remove(this.tagStemPostings, s, slot);
    for (const tag of new Set(doc.tags)) {
      remove(this.tagPostings, tag, slot);
      if (!this.tagPostings.has(tag)) this.sortedTags = undefined;
    }
  }

  clear(): void {
    this.slots.length = 0;
    this.freeSlots.length = 0;
    this.slotOf.clear();
    this.termPostings.clear();
    this.tagPostings.clear();
    this.tagStemPostings.clear();
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

  /** Inverse document frequency of something `df` of the current memories have (never 0). */
  private idf(df: number): number {
    return Math.log(1 + this.size / (df + 0.5));
  }

  /** Makes room for at least `rows` rows of `n` cells, keeping what is there. */
  private grow(rows: number, n: number): void {
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

  /** The first cell of `slot`'s row in this search's scratch space, made (zeroed) on first use. */
  private cellOf(slot: number, n: number): number {
    if (this.seenIn[slot] === this.epoch) return this.rowOf[slot]! * n;
    const r = this.rowCount++;
    if (r >= this.rowSlots.length) this.grow(r + 1, n);
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

  private prepareScratch(n: number): void {
    const cap = this.slots.length;
    if (this.seenIn.length < cap) {
      this.seenIn = new Int32Array(Math.max(cap, this.seenIn.length * 2, 64));
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
    this.rowCount = 0;
    this.grow(64, n);
  }

  /** A fresh mark for `stamp`, to tell in O(1) whether a slot holds a compound's whole word. */
  private nextStamp(): number {
    if (++this.stampNow >= 0x7fffffff) {
      this.stamp.fill(0);
      this.stampNow = 1;
    }
    return this.stampNow;
  }

  /** Marks every memory the keyword reaches: word shares, and the tags it names, inflects or prefixes. */
  private collect(k: AnalyzedKeyword, i: number, n: number): void {
    // Each word of the keyword weighs its IDF; a memory earns a word's weight when it holds
    // the word, or, for a compound, the IDF-weighted share of its parts it holds.
    const units = k.units;
    const weights = units.map((u) => this.idf(this.termPostings.get(u.term)?.size ?? 0));
    const total = weights.reduce((a, b) => a + b, 0);
    for (let j = 0; j < units.length; j++) {
      const u = units[j]!;
      const w = weights[j]! / total;
      const whole = this.termPostings.get(u.term);
      const mark = u.parts.length > 0 ? this.nextStamp() : 0;
      if (whole) {
        for (const slot of whole) {
          const cell = this.cellOf(slot, n) + i;
          this.share[cell] = this.share[cell]! + w;
          if (mark) this.stamp[slot] = mark;
        }
      }
      if (!mark) continue;
      const partWeights = u.parts.map((p) => this.idf(this.termPostings.get(p)?.size ?? 0));
      const partTotal = partWeights.reduce((a, b) => a + b, 0);
      for (let pj = 0; pj < u.parts.length; pj++) {
        const postings = this.termPostings.get(u.parts[pj]!);
        if (!postings) continue;
        const pw = (w * partWeights[pj]!) / partTotal;
        for (const slot of postings) {
          if (this.stamp[slot] === mark) continue; // holds the whole word: already credited in full
          const cell = this.cellOf(slot, n) + i;
          this.share[cell] = this.share[cell]! + pw;
        }
      }
    }
    this.markTag(this.tagPostings.get(k.tag), TagMatch.Exact, i, n);
    // A keyword of stop words only (`the`) may name a tag exactly, but is no word to inflect or complete.
    if (units.length === 0) return;
    this.markTag(this.tagStemPostings.get(k.tagStem), TagMatch.Inflection, i, n);
    if (k.tag.length >= MIN_PREFIX) {
      for (const tag of this.tagsWithPrefix(k.tag)) if (tag !== k.tag) this.markTag(this.tagPostings.get(tag), TagMatch.Prefix, i, n);
    }
  }

  private markTag(postings: Set<number> | undefined, kind: TagMatch, i: number, n: number): void {
    if (!postings) return;
    for (const slot of postings) {
      const cell = this.cellOf(slot, n) + i;
      if (this.tagMatch[cell]! < kind) this.tagMatch[cell] = kind;
    }
  }

  search(query: SearchQuery): SearchHit[] {
    const o = this.opts;
    const keywords = query.keywords;
    const n = keywords.length;
    if (n === 0 || query.limit <= 0 || this.size === 0) return [];
    const required = query.tags.map((t) => this.tagPostings.get(t));
    if (required.some((p) => p === undefined)) return [];
    this.prepareScratch(n);
    for (let i = 0; i < n; i++) this.collect(keywords[i]!, i, n);
    const rows = this.rowCount;
    const { share, tagMatch, rowSlots } = this;

    // The more words a keyword has (pasted error text), the fewer a paraphrasing memory repeats.
    const threshold = keywords.map((k) => (k.units.length >= o.longKeywordWords ? o.longMatchThreshold : o.matchThreshold) - 1e-9);
    // Keyword weights: the IDF of the keyword over the memories it matches (an unknown keyword weighs most).
    const df = new Array<number>(n).fill(0);
    for (let r = 0, cell = 0; r < rows; r++) {
      for (let i = 0; i < n; i++, cell++) if (tagMatch[cell] !== TagMatch.None || share[cell]! >= threshold[i]!) df[i]!++;
    }
    // A keyword of stop words only that names no tag is ignored, so it cannot lower coverage.
    const weight = keywords.map((k, i) => (k.stopWordsOnly && df[i] === 0 ? 0 : this.idf(df[i]!)));
    const totalWeight = weight.reduce((a, b) => a + b, 0);
    if (totalWeight === 0) return [];
    // Coverage is measured in full description matches: 1 = every keyword's words in the description.
    const fullScore = o.description * totalWeight;
    const minScore = o.minCoverage * fullScore;
    const tagBase = [0, o.prefixTag, o.inflectedTag, o.exactTag];

    const limit = query.limit;
    const top: SearchHit[] = [];
    for (let r = 0; r < rows; r++) {
      let matched = 0;
      let score = 0;
      for (let i = 0, cell = r * n; i < n; i++, cell++) {
        const kind = tagMatch[cell]!;
        const sh = share[cell]!;
        if (kind === TagMatch.None && sh === 0) continue;
        const full = sh >= threshold[i]!;
        let s: number;
        if (kind !== TagMatch.None) {
          // A tag match, plus a bonus when the description also holds the keyword.
          s = Math.max(tagBase[kind]! + o.tagAndDescriptionBonus * sh, full ? o.description * sh : 0);
          matched++;
        } else if (full) {
          s = o.description * sh;
          matched++;
        } else {
          // Some words of a keyword: not a match, but it orders memories that match as many keywords.
          s = o.description * sh * o.partialFactor;
        }
        score += weight[i]! * s;
      }
      // A memory that matches no keyword, or too small a share of what was asked, is not returned.
      if (matched === 0 || score < minScore) continue;
      if (top.length === limit) {
        const worst = top[limit - 1]!;
        if (matched < worst.matchedKeywords || (matched === worst.matchedKeywords && score < worst.score)) continue;
      }
      const slot = rowSlots[r]!;
      if (required.length && required.some((p) => !p!.has(slot))) continue;
      const doc = this.slots[slot]!;
      const hit: SearchHit = {
        id: doc.id, description: doc.description, tags: doc.tags, changedAt: doc.changedAt,
        matchedKeywords: matched, score, coverage: score / fullScore,
      };
      // Bounded insertion into the best-first list: no sort of every candidate.
      if (top.length === limit && !better(hit, top[limit - 1]!)) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (better(top[mid]!, hit)) lo = mid + 1;
        else hi = mid;
      }
      top.splice(lo, 0, hit);
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
