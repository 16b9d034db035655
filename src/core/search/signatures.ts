import type { SearchQuery } from './query';
import { DEFAULT_RANKING, MIN_PREFIX, type RankingOptions } from './ranking';
import { Scoring, shareOf, unitWeights } from './scoring';

// Ranking by match signature, for a store that cannot afford to score every memory a broad
// query reaches (the team store on PostgreSQL). A memory's score depends only on which query
// terms it holds and, per keyword, its best tag match; memories alike in both are one group
// with one score. The store counts memories per group, this module ranks the groups with
// SearchIndex's own formulas (scoring.ts), and the store fetches only the best groups' rows,
// most recently changed first.

/** The distinct terms of a query, words, compound parts and other words for them, in order: a signature's `terms` index this list. */
export function queryTerms(query: SearchQuery): string[] {
  const out = new Set<string>();
  for (const k of query.keywords) {
    for (const u of k.units) {
      out.add(u.term);
      for (const p of u.parts) out.add(p);
      for (const a of u.alts ?? []) out.add(a);
    }
  }
  return [...out];
}

/** Whether keyword `k` may match a tag it is a prefix of (`type` → `typescript`), as SearchIndex allows. */
export function mayPrefixTag(query: SearchQuery, k: number): boolean {
  const kw = query.keywords[k]!;
  return kw.units.length > 0 && kw.tag.length >= MIN_PREFIX;
}

/** How a memory holds a query term, in a signature. */
export const enum Held {
  No = 0,
  /** Among its content terms only. */
  Content = 1,
  /** In its description or tag words. */
  Text = 2,
}

/**
 * Calls `visit` with every combination of held states of `count` terms (3^count of them, the
 * first term's state changing fastest). The array is reused: copy it to keep it.
 */
export function forEachHeld(count: number, visit: (held: readonly number[]) => void): void {
  const held = new Array<number>(count).fill(Held.No);
  for (;;) {
    visit(held);
    let t = 0;
    while (t < count && held[t] === Held.Text) held[t++] = Held.No;
    if (t === count) return;
    held[t]!++;
  }
}

/** Memories that meet the query the same way. */
export interface Signature {
  /** Per query term (queryTerms order): how these memories hold it (Held). */
  terms: number[];
  /** Per keyword: the best TagMatch (0 none, 1 prefix, 2 inflection, 3 exact). */
  tagMatch: number[];
  /** Live memories of the project with this signature: the document frequencies are summed from these. */
  count: number;
  /** Of `count`, those carrying every required tag (the ones that may be returned); `count` when not given. */
  eligible?: number;
}

/** Groups of equal rank (same matched keywords, same score): their memories are ordered by changedAt, then id. */
export interface RankedBlock<S extends Signature> {
  matchedKeywords: number;
  score: number;
  signatures: S[];
}

/** What to return: blocks best first, and how many memories of them at most. */
export interface Ranked<S extends Signature> {
  blocks: RankedBlock<S>[];
  limit: number;
}

/**
 * The groups that pass the relevance floor, in blocks of equal rank, best first, ranked
 * exactly as `SearchIndex.search` ranks their memories, and how many memories of them to
 * return (the query's limit, or fewer when no memory matches enough keywords: Scoring.keep).
 * `groups` must hold every live memory that holds a query term or meets a keyword as a tag
 * (the document frequencies are counted over them), `live` the number of live memories.
 * Required tags are the caller's filter, told through `eligible`.
 */
export function rankSignatures<S extends Signature>(
  query: SearchQuery,
  groups: S[],
  live: number,
  options: RankingOptions = DEFAULT_RANKING,
): Ranked<S> {
  const none = { blocks: [], limit: 0 };
  const keywords = query.keywords;
  const n = keywords.length;
  if (n === 0 || live === 0 || groups.length === 0) return none;
  const strength = [0, options.content, 1];
  const terms = queryTerms(query);
  const termDf = new Map<string, number>(terms.map((t) => [t, 0]));
  for (const g of groups) g.terms.forEach((held, t) => held !== Held.No && termDf.set(terms[t]!, termDf.get(terms[t]!)! + g.count));
  const position = new Map(terms.map((t, i) => [t, i]));
  const df = (term: string) => termDf.get(term) ?? 0;

  // Per group and keyword, the share of the keyword's words held; then the cells scoring reads.
  const share = new Float64Array(groups.length * n);
  const tagMatch = new Uint8Array(groups.length * n);
  keywords.forEach((k, i) => {
    const weights = unitWeights(k.units, df, live, options.synonym);
    groups.forEach((g, r) => {
      share[r * n + i] = shareOf(k.units, weights, (term) => strength[g.terms[position.get(term)!]!]!);
      tagMatch[r * n + i] = g.tagMatch[i]!;
    });
  });
  const scoring = new Scoring(keywords, options);
  const matchCount = new Array<number>(n).fill(0);
  groups.forEach((g, r) => {
    for (let i = 0; i < n; i++) if (scoring.matches(i, tagMatch[r * n + i]!, share[r * n + i]!)) matchCount[i]! += g.count;
  });
  if (!scoring.weigh(matchCount, live)) return none;

  // Groups that pass, and apart those that do not but hold words of two keywords (the partial fallback).
  const ranked: Array<{ matched: number; score: number; g: S }> = [];
  const partial: Array<{ matched: number; score: number; g: S }> = [];
  const corroborated = new Set<S>();
  groups.forEach((g, r) => {
    const score = scoring.score(tagMatch, share, r * n);
    const passes = scoring.passes(scoring.matched, score);
    const corroborates = scoring.corroborated(scoring.matched, scoring.touched);
    if (passes) ranked.push({ matched: scoring.matched, score, g });
    else if (corroborates) partial.push({ matched: scoring.matched, score, g });
    if (corroborates) corroborated.add(g);
  });
  // As SearchIndex cuts its best-first hits: judged on the best block of memories that may be returned.
  const returnable = blocksOf(ranked);
  const count = (sigs: Iterable<S>) => [...sigs].reduce((a, s) => a + (s.eligible ?? s.count), 0);
  const corroboratedCount = Math.min(query.limit, count(ranked.filter((x) => corroborated.has(x.g)).map((x) => x.g)));
  const partialCount = Math.min(query.limit, count(partial.map((x) => x.g)));
  const keep = scoring.keep(returnable[0]?.matchedKeywords, corroboratedCount, partialCount);
  const limit = Math.min(query.limit, keep.count);
  if (keep.from === 'all' || keep.from === 'best') return { blocks: returnable, limit };
  if (keep.from === 'partial') return { blocks: blocksOf(partial), limit };
  return { blocks: blocksOf(ranked.filter((x) => corroborated.has(x.g))), limit };
}

/** Groups in blocks of equal rank (matched keywords, score), best first, without those that have nothing to return. */
function blocksOf<S extends Signature>(ranked: Array<{ matched: number; score: number; g: S }>): RankedBlock<S>[] {
  ranked.sort((a, b) => b.matched - a.matched || b.score - a.score);
  const blocks: RankedBlock<S>[] = [];
  for (const x of ranked) {
    const last = blocks[blocks.length - 1];
    if (last && last.matchedKeywords === x.matched && last.score === x.score) last.signatures.push(x.g);
    else blocks.push({ matchedKeywords: x.matched, score: x.score, signatures: [x.g] });
  }
  return blocks.filter((b) => b.signatures.some((s) => (s.eligible ?? s.count) > 0));
}
