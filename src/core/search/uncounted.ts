import type { AnalyzedKeyword, SearchQuery } from './query';
import { DEFAULT_RANKING, type RankingOptions, TagMatch } from './ranking';
import { Scoring, shareOf, unitWeights } from './scoring';
import { forEachHeld, mayPrefixTag, queryTerms, type Signature } from './signatures';

// Ranking a query without counting the memories it reaches. rankSignatures needs counts for two
// things: each term's document frequency (how a keyword's words weigh against each other) and
// how many memories match each keyword (how the keywords weigh against each other, and the
// relevance floor). A query of one keyword needs only the first: the keyword's own weight
// multiplies every score and the floor alike. A keyword of one plain word (not a compound) needs
// neither: the word weighs all of the keyword, another word for it a fixed share (the synonym
// weight). Any other single keyword (several words, a compound whose parts weigh by their own
// document frequencies) needs the document frequencies of its terms, which a store may keep as
// it writes (TermStats). Either way the order of the possible signatures is known before reading
// a memory, and a store can read the best blocks' rows directly, newest first, however many
// memories the keyword reaches.

/** A match signature without counts: how a memory holds each query term, and its tag match per keyword. */
export type Shape = Pick<Signature, 'terms' | 'tagMatch'>;

/** The blocks of an uncounted query, best first: each block's memories are ordered by changedAt, then id. */
export interface UncountedRanking {
  /** Blocks that pass the relevance floor, best first. */
  passing: Shape[][];
  /** Per passing block, how many keywords its memories match. */
  matched: number[];
  /**
   * The passing blocks again, of the signatures whose memories are corroborated only
   * (Scoring.corroborated): returned, up to `partialLimit`, when the best memory returned matches
   * fewer than `required` keywords (Scoring.keep).
   */
  corroborated: Shape[][];
  /** Keywords a memory must match for the passing blocks to be returned as they are (Scoring.required). */
  required: number;
  /**
   * Blocks of corroborated memories below the floor: returned, best first and at most
   * `partialLimit` of them, only when no passing block holds a memory that may be returned.
   */
  partial: Shape[][];
  partialLimit: number;
  /**
   * How many leading blocks of each list are in their sure order (all when not given): past
   * them, two blocks too close to tell apart without the exact weights, or one on the floor. A
   * store that needs to read further counts the query instead (readRanking throws UncertainOrder).
   */
  sure?: { passing: number; corroborated: number; partial: number };
}

/** Thrown by readRanking when answering needs blocks whose order the ranking could not settle: count the query instead. */
export class UncertainOrder extends Error {
  constructor() {
    super('the order of the blocks past those read depends on counts not kept');
  }
}

/**
 * What a store returns of an uncounted ranking (as Scoring.keep): `read(blocks, want)` reads the
 * blocks' memories best first, newest first within a block, up to `want`, each with the index of
 * its block. The passing blocks up to the limit when the best one read matches `required`
 * keywords; else the corroborated ones (up to `partialLimit`), else the best memory alone; when
 * no passing block holds a memory, the partial blocks. Throws UncertainOrder when that needs
 * blocks past those in their sure order (`ranking.sure`).
 */
export async function readRanking<H>(
  ranking: UncountedRanking,
  limit: number,
  read: (blocks: Shape[][], want: number) => Promise<Array<H & { block: number }>>,
): Promise<H[]> {
  const strip = (hits: Array<H & { block: number }>) => hits.map(({ block: _, ...hit }) => hit as unknown as H);
  // Only the blocks in their sure order are read; needing more than they hold is UncertainOrder.
  const readSure = async (blocks: Shape[][], sure: number | undefined, want: number) => {
    const hits = await read(sure === undefined ? blocks : blocks.slice(0, sure), want);
    if (hits.length < want && sure !== undefined && sure < blocks.length) throw new UncertainOrder();
    return hits;
  };
  const sure = ranking.sure;
  const passing = await readSure(ranking.passing, sure?.passing, limit);
  if (passing.length === 0) return strip(await readSure(ranking.partial, sure?.partial, ranking.partialLimit));
  if (ranking.matched[passing[0]!.block]! >= ranking.required) return strip(passing);
  const corroborated = await readSure(ranking.corroborated, sure?.corroborated, ranking.partialLimit);
  return strip(corroborated.length > 0 ? corroborated : passing.slice(0, 1));
}

/** How many live memories hold each term (in any field), and how many memories are live. */
export interface TermStats {
  df(term: string): number;
  live: number;
}

/**
 * Most terms (words, parts, other words) a keyword may have to be ranked without counts: the
 * signatures enumerated are 3^terms (times the tag matches).
 */
const MAX_TERMS = 8;

/** Whether rankUncounted may rank `query` when given its terms' document frequencies (it needs them unless the keyword is one plain word). */
export function rankableUncounted(query: SearchQuery): boolean {
  if (query.keywords.length !== 1 || query.limit <= 0) return false;
  const kw = query.keywords[0]!;
  return !kw.stopWordsOnly && (isPlain(kw) || queryTerms(query).length <= MAX_TERMS);
}

/** One word, not a compound (or no word: a keyword of characters only a tag holds). */
function isPlain(kw: AnalyzedKeyword): boolean {
  return kw.units.length <= 1 && kw.units.every((u) => u.parts.length === 0);
}

/**
 * Two strengths this close (relative) might round to one score once multiplied by the keyword's
 * weight, or fall on either side of the floor: their blocks' order is not sure (`sure`).
 */
const MARGIN = 1e-9;

/**
 * The blocks of `query` as SearchIndex would rank them, when that order needs no counts: one
 * keyword, not of stop words only, of at most one word that is not a compound, or, given the
 * terms' document frequencies (`stats`), any such keyword of at most MAX_TERMS terms. Undefined
 * for any other query. Blocks past two strengths too close to be told apart without the
 * keyword's weight are not in a sure order (`sure`). `prefixed`: whether some live memory carries a tag the keyword is a prefix
 * of (else no signature has a prefix match).
 */
export function rankUncounted(
  query: SearchQuery,
  prefixed: boolean,
  stats?: TermStats,
  options: RankingOptions = DEFAULT_RANKING,
): UncountedRanking | undefined {
  if (query.keywords.length !== 1 || query.limit <= 0) return undefined;
  const kw = query.keywords[0]!;
  if (kw.stopWordsOnly) return undefined;
  const terms = queryTerms(query);
  const plain = isPlain(kw);
  if (!plain && (!stats || stats.live <= 0 || terms.length > MAX_TERMS)) return undefined;
  const position = new Map(terms.map((t, i) => [t, i]));
  // One plain word weighs 1 whatever its document frequency (its weight over the sum of its weight).
  const weights = plain
    ? unitWeights(kw.units, () => 0, 1, options.synonym)
    : unitWeights(kw.units, stats!.df, stats!.live, options.synonym);
  const strength = [0, options.content, 1];
  const scoring = new Scoring(query.keywords, options);
  const kinds = [TagMatch.None, TagMatch.Exact];
  if (kw.units.length > 0) kinds.push(TagMatch.Inflection);
  if (prefixed && mayPrefixTag(query, 0)) kinds.push(TagMatch.Prefix);

  const byStrength = new Map<number, Shape[]>();
  forEachHeld(terms.length, (held) => {
    const share = shareOf(kw.units, weights, (term) => strength[held[position.get(term)!]!]!);
    for (const kind of kinds) {
      if (!scoring.matches(0, kind, share)) continue;
      const s = scoring.strength(0, kind, share);
      const block = byStrength.get(s) ?? [];
      block.push({ terms: [...held], tagMatch: [kind] });
      byStrength.set(s, block);
    }
  });

  const floor = options.minCoverage * options.description;
  const strengths = [...byStrength.keys()].sort((a, b) => b - a);
  const close = (a: number, b: number) => Math.abs(a - b) <= MARGIN * Math.max(Math.abs(a), Math.abs(b));
  // The blocks before the first one that might merge with its neighbour, or fall on either side of the floor.
  let sure = strengths.length;
  strengths.forEach((s, i) => {
    if (close(s, floor)) sure = Math.min(sure, i);
    if (i > 0 && close(s, strengths[i - 1]!)) sure = Math.min(sure, i - 1);
  });
  // One keyword: every memory of a block matches it, so the passing blocks are returned as they are.
  const passing = strengths.filter((s) => s >= floor).map((s) => byStrength.get(s)!);
  const surePassing = Math.min(sure, passing.length);
  return {
    passing,
    matched: passing.map(() => 1),
    corroborated: passing,
    required: 1,
    partial: strengths.filter((s) => s < floor).map((s) => byStrength.get(s)!),
    partialLimit: Math.min(query.limit, options.weakLimit),
    sure: { passing: surePassing, corroborated: surePassing, partial: surePassing < passing.length ? 0 : sure - passing.length },
  };
}
