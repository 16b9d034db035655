import { type Analysis, analyzeMemory, type Doc, type IndexedMemory, type MemoryToIndex } from './analysis';
import { keepBest } from '../best';
import { DocSlots } from './docSlots';
import type { SavedIndex } from './savedIndex';
import type { AnalyzedKeyword, SearchQuery } from './query';
import { Postings } from './postings';
import { TagPostings } from './tagPostings';
import { similarIn } from './similar';
import { ScoreTable } from './scoreTable';
import { better, DEFAULT_RANKING, MIN_PREFIX, type RankingOptions, type SearchHit, TagMatch } from './ranking';
import { Scoring, unitWeights } from './scoring';

export { type Analysis, ANALYZER_VERSION, type IndexedMemory, type MemoryToIndex } from './analysis';
export { readIndex, type SavedIndex, writeIndex } from './savedIndex';
export { DEFAULT_RANKING, type RankingOptions, type SearchHit } from './ranking';

/**
 * An in-memory inverted index over the descriptions and tags of current memories, and a
 * bounded share of their content (analysis.ts, CONTENT_TERMS). It is derived data: a store
 * rebuilds it on open and keeps it in step with every version it applies.
 *
 * A keyword matches a memory that carries it as a tag, as another inflection of a tag or as
 * the prefix of a tag, or whose description and tag words hold most of its words (weighted
 * by IDF, so the rare words of a pasted error message count most; a compound such as
 * `keep-alive` or `getByRole` is held whole or through its parts); a word held only among
 * the content terms counts for less (RankingOptions.content). Ranking, in order:
 * 1. more matched keywords;
 * 2. the score: per keyword, its weight (the IDF of the keyword over the memories it
 *    matches: a keyword few memories match says more, one none match says most) times the
 *    strength of the match (exact tag > inflected tag > description > tag prefix), summed;
 *    holding some words of an unmatched keyword adds a little;
 * 3. the most recently changed.
 * Only memories that match at least one keyword and a quarter of the query's weight are
 * returned (the relevance floor), and of a query of several keywords only those matching
 * two, unless none does: then those that match one and hold words of another, else the best
 * one alone; when none passes the floor, those that hold words of two keywords (Scoring.keep).
 * So a query about something the memory does not know returns little or nothing rather than
 * whatever shares one common word, and one phrased in other words is not left empty. A query
 * word is also found under its other words (synonyms.ts), at RankingOptions.synonym.
 */
export class SearchIndex {
  private readonly opts: RankingOptions;
  /** The memories by slot (the numbers the postings hold); slots of removed ones are reused. */
  private docs = new DocSlots();
  private termPostings = new Postings();
  private contentPostings = new Postings();
  /** Set by restore (and putAnalyzed without keepContentTerms): docs filed without their content terms learn them from the postings when first removed. */
  private contentUnknown = false;
  private tagPostings = new TagPostings();
  private tagStemPostings = new Postings();

  /** Scratch space for one search, reused (search is synchronous). */
  private readonly table = new ScoreTable();

  constructor(options: Partial<RankingOptions> = {}) {
    this.opts = { ...DEFAULT_RANKING, ...options };
  }

  get size(): number {
    return this.docs.size;
  }

  /** Adds or replaces a memory; its content, if given, is analysed, not kept. */
  put(memory: MemoryToIndex): void {
    this.putAnalyzed(memory, analyzeMemory(memory));
  }

  /**
   * Adds or replaces a memory with an analysis made elsewhere by `analyzeMemory` at this
   * ANALYZER_VERSION (terms a store saved), skipping the costly text analysis. Only the content
   * terms are kept (Doc): the others are analysed again, from the description and tags, if the
   * memory is ever removed. With `keepContentTerms` false the memory keeps none either, as a
   * restored one: a whole index filed at once (a cold build from the journal's terms) then holds
   * each term once, in the postings, and reads a memory's from them if it is ever removed.
   */
  putAnalyzed(memory: IndexedMemory, analysis: Analysis, keepContentTerms = true): void {
    this.remove(memory.id);
    const doc: Doc = {
      id: memory.id,
      description: memory.description,
      tags: memory.tags,
      changedAt: memory.changedAt,
    };
    if (keepContentTerms) doc.contentTerms = analysis.contentTerms;
    else this.contentUnknown = true;
    const slot = this.docs.place(doc, analysis.terms.length);
    for (const t of analysis.terms) this.termPostings.add(t, slot);
    for (const t of analysis.contentTerms) this.contentPostings.add(t, slot);
    for (const st of analysis.tagStems) this.tagStemPostings.add(st, slot);
    for (const tag of new Set(doc.tags)) this.tagPostings.add(tag, slot);
  }

  /** The slot `save()` gives the memory `id` when it holds it changed at `changedAt` (what a saved view refers to instead of repeating them). */
  slotAt(id: string, changedAt: string): number | undefined {
    const slot = this.docs.slotOf(id);
    return slot !== undefined && this.docs.changedAt(slot) === changedAt ? slot : undefined;
  }

  /** The index in columns (savedIndex.ts); give it to `restore`. */
  save(): SavedIndex {
    const tags = this.tagPostings.save();
    const tagNo = new Map<string, number>();
    tags.terms.all().forEach((t, i) => tagNo.set(t, i));
    return {
      ...this.docs.save(tagNo),
      terms: this.termPostings.save(),
      tags,
      tagStems: this.tagStemPostings.save(),
      content: this.contentPostings.save(),
    };
  }

  /**
   * An index from `save()`'s output, made with the same ANALYZER_VERSION, that reads it as
   * it is asked (DocSlots, Postings): a memory when a search returns it or a change reaches
   * it, a posting list when a search asks for its term, the ids when a change first needs
   * them, and each memory's analysis only if it is ever removed. Opening costs about what
   * reading the file costs. Throws when the columns do not agree.
   */
  static restore(saved: SavedIndex, options: Partial<RankingOptions> = {}): SearchIndex {
    const index = new SearchIndex(options);
    index.docs = DocSlots.restore(saved);
    index.termPostings = Postings.restore(saved.terms);
    index.tagPostings = TagPostings.restore(saved.tags);
    index.tagStemPostings = Postings.restore(saved.tagStems);
    index.contentPostings = Postings.restore(saved.content);
    index.contentUnknown = saved.content.terms.length > 0;
    return index;
  }

  /** Removes a memory (deleted or purged); unknown ids are ignored. */
  remove(id: string): void {
    const slot = this.docs.slotOf(id);
    if (slot === undefined) return;
    const doc = this.docs.at(slot)!;
    // Read while the memory still holds its slot: restoredContentTerms files it among all the others.
    const contentTerms = doc.contentTerms ?? this.restoredContentTerms(doc);
    this.docs.release(id, slot);
    const analysis = analyzeMemory(doc);
    for (const t of analysis.terms) this.termPostings.remove(t, slot);
    for (const t of contentTerms) this.contentPostings.remove(t, slot);
    for (const s of analysis.tagStems) this.tagStemPostings.remove(s, slot);
    for (const tag of new Set(doc.tags)) this.tagPostings.remove(tag, slot);
  }

  /**
   * The content terms of a memory filed by restore (which keeps no analysis, and the content
   * is not at hand): read once for every such memory from the postings, on the first removal.
   */
  private restoredContentTerms(doc: Doc): string[] {
    if (this.contentUnknown) {
      this.contentUnknown = false;
      const unknown = new Map<number, string[]>();
      for (const [s, d] of this.docs.all()) if (!d.contentTerms) unknown.set(s, (d.contentTerms = []));
      this.contentPostings.forEach((t, s) => unknown.get(s)?.push(t));
    }
    return doc.contentTerms ?? [];
  }

  clear(): void {
    this.docs = new DocSlots();
    this.termPostings.clear();
    this.contentPostings.clear();
    this.contentUnknown = false;
    this.tagPostings.clear();
    this.tagStemPostings.clear();
  }

  /** The tag vocabulary of current memories with counts, most used first. */
  tagCounts(): Array<{ tag: string; count: number }> {
    return this.tagPostings.counts();
  }

  /** Marks every memory the keyword reaches: word shares, and the tags it names, inflects or prefixes. */
  private collect(k: AnalyzedKeyword, i: number): void {
    const t = this.table;
    // Each word of the keyword weighs its IDF; a memory earns a word's weight when it holds
    // the word, or, for a compound, the IDF-weighted share of its parts it holds; times the
    // content weight when it holds it among its content terms only (a term is in one field).
    const units = k.units;
    const c = this.opts.content;
    const weights = unitWeights(units, (term) => this.df(term), this.size, this.opts.synonym);
    for (let j = 0; j < units.length; j++) {
      const u = units[j]!;
      const w = weights[j]!;
      const alts = u.alts ?? [];
      const mark = u.parts.length > 0 || alts.length > 0 ? t.nextStamp() : 0;
      t.credit(this.termPostings.slots(u.term), i, w.whole * 1, mark, 0);
      t.credit(this.contentPostings.slots(u.term), i, w.whole * c, mark, 0);
      if (!mark) continue;
      for (let pj = 0; pj < u.parts.length; pj++) {
        // Skipping memories that hold the whole word: already credited for it.
        t.credit(this.termPostings.slots(u.parts[pj]!), i, w.parts[pj]! * 1, 0, mark);
        t.credit(this.contentPostings.slots(u.parts[pj]!), i, w.parts[pj]! * c, 0, mark);
      }
      // Other words for a plain word (alts are given for plain words only, never with parts):
      // the first one a memory holds counts, when it does not hold the word itself.
      for (const alt of alts) {
        t.credit(this.termPostings.slots(alt), i, w.alt * 1, mark, mark);
        t.credit(this.contentPostings.slots(alt), i, w.alt * c, mark, mark);
      }
    }
    t.markTag(this.tagPostings.slots(k.tag), TagMatch.Exact, i);
    // A keyword of stop words only (`the`) may name a tag exactly, but is no word to inflect or complete.
    if (units.length === 0) return;
    t.markTag(this.tagStemPostings.slots(k.tagStem), TagMatch.Inflection, i);
    if (k.tag.length >= MIN_PREFIX) {
      for (const tag of this.tagPostings.withPrefix(k.tag)) if (tag !== k.tag) t.markTag(this.tagPostings.slots(tag), TagMatch.Prefix, i);
    }
  }

  /** Memories holding a term in any field. */
  private df(term: string): number {
    return this.termPostings.size(term) + this.contentPostings.size(term);
  }

  /** `similarIn` over this index: the candidates for "likely duplicate" (similar.ts). */
  similar(terms: ReadonlySet<string>, min: number, limit: number): Array<IndexedMemory & { similarity: number }> {
    return similarIn(this.termPostings, this.docs, terms, min, limit);
  }

  search(query: SearchQuery): SearchHit[] {
    const o = this.opts;
    const keywords = query.keywords;
    const n = keywords.length;
    if (n === 0 || query.limit <= 0 || this.size === 0) return [];
    const required = query.tags.map((t) => this.tagPostings.get(t));
    if (required.some((p) => p === undefined)) return [];
    this.table.prepare(this.docs.length, n);
    for (let i = 0; i < n; i++) this.collect(keywords[i]!, i);
    const { rowCount: rows, share, tagMatch } = this.table;

    const scoring = new Scoring(keywords, o);
    // Keyword weights: the IDF of the keyword over the memories it matches.
    const df = new Array<number>(n).fill(0);
    for (let r = 0, cell = 0; r < rows; r++) {
      for (let i = 0; i < n; i++, cell++) if (scoring.matches(i, tagMatch[cell]!, share[cell]!)) df[i]!++;
    }
    if (!scoring.weigh(df, this.size)) return [];

    // Usually the best hits that pass are the answer; only when none matches enough keywords
    // are the rows read again for the fallback (Scoring.keep), so the common case pays nothing for it.
    const top = this.hits(scoring, required, query.limit, (passes) => passes);
    if (top.length > 0 && top[0]!.matchedKeywords >= scoring.required) return top;
    const guesses = Math.min(query.limit, o.weakLimit);
    const corroborated = () => scoring.corroborated(scoring.matched, scoring.touched);
    const fallback = top.length > 0 ? this.hits(scoring, required, guesses, (passes) => passes && corroborated()) : [];
    const partial = top.length === 0 ? this.hits(scoring, required, guesses, (passes) => !passes && corroborated()) : [];
    const keep = scoring.keep(top[0]?.matchedKeywords, fallback.length, partial.length);
    return (keep.from === 'corroborated' ? fallback : keep.from === 'partial' ? partial : top).slice(0, keep.count);
  }

  /**
   * The best `limit` memories of this search's rows, best first, that carry the required tags
   * and that `which` accepts (given whether the memory passes; `scoring` holds its figures).
   */
  private hits(
    scoring: Scoring,
    required: Array<Set<number> | undefined>,
    limit: number,
    which: (passes: boolean) => boolean,
  ): SearchHit[] {
    const { rowCount: rows, share, tagMatch, rowSlots } = this.table;
    const n = scoring.threshold.length;
    const top: SearchHit[] = [];
    for (let r = 0; r < rows; r++) {
      const score = scoring.score(tagMatch, share, r * n);
      const matched = scoring.matched;
      if (!which(scoring.passes(matched, score))) continue;
      const slot = rowSlots[r]!;
      if (top.length === limit) {
        const worst = top[limit - 1]!;
        if (matched < worst.matchedKeywords || (matched === worst.matchedKeywords && score < worst.score)) continue;
        // Tied with the worst kept, the newer wins (better): a broad query ties thousands of memories,
        // and reading only the time of one that cannot displace it keeps the rest of it unread
        // (a restored index reads a memory from its columns when first asked: DocSlots.at).
        if (matched === worst.matchedKeywords && score === worst.score && this.docs.changedAt(slot)! < worst.changedAt) continue;
      }
      if (required.length && required.some((p) => !p!.has(slot))) continue;
      const doc = this.docs.at(slot)!;
      const hit: SearchHit = {
        id: doc.id,
        description: doc.description,
        tags: doc.tags,
        changedAt: doc.changedAt,
        matchedKeywords: matched,
        score,
        coverage: score / scoring.fullScore,
      };
      // Bounded insertion into the best-first list: no sort of every candidate.
      keepBest(top, hit, limit, better);
    }
    return top;
  }
}
