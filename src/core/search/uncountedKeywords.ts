import { tagParts } from '../tags';
import type { AnalyzedKeyword, SearchQuery } from './query';
import { DEFAULT_RANKING, type RankingOptions, TagMatch } from './ranking';
import { Scoring, shareOf, unitWeights } from './scoring';
import { forEachHeld, Held, mayPrefixTag, queryTerms } from './signatures';
import type { Shape, UncountedRanking } from './uncounted';

// Ranking a query of several keywords without counting the memories they reach. Its keywords
// weigh by how many memories match each (Scoring.weigh), which a store that keeps per-term and
// per-tag counts (termCounts.ts on PostgreSQL) knows exactly for a keyword of one plain word,
// when no memory holds one of its other words and no tag it matches lacks the word: then the
// memories matching it are those holding the word. With those weights, every possible signature
// is scored with Scoring itself (the same numbers, added in the same order, as SearchIndex adds
// them), and the blocks are known before a row is read.

/** Counts a store keeps as it writes (PostgreSQL: termCounts.ts), in the snapshot of the search. */
export interface KeptCounts {
  live: number;
  /** Live memories holding the term in their description or tags. */
  text(term: string): number;
  /** Live memories holding the term among their content terms only. */
  content(term: string): number;
  tagged(tag: string): number;
  /** Live memories carrying a tag of this stem (analysis.ts, tagStems). */
  stemmed(stem: string): number;
}

/** A keyword matchCountBounds can bound: one plain word (not a compound, not stop words only). */
function plainWord(kw: AnalyzedKeyword): boolean {
  return !kw.stopWordsOnly && kw.units.length === 1 && kw.units[0]!.parts.length === 0;
}

/** Whether rankUncountedKeywords may rank `query`: two keywords or more, each of one plain word. */
export function rankableKeywords(query: SearchQuery): boolean {
  return query.keywords.length >= 2 && query.limit > 0 && query.keywords.every(plainWord);
}

/**
 * Between how many live memories match keyword `k` (Scoring.matches), from the counts: a keyword
 * of one plain word is matched by every memory holding the word (in the text, or in the content
 * at the content weight), and at most also by those holding one of its other words in a way that
 * matches, or carrying its tag, a tag of its stem or a tag it is a prefix of (`prefixedTags`)
 * that does not hold the word among its own words. `lo === hi`: the count is exact. Undefined for
 * any other keyword (several words, a compound, stop words only).
 */
export function matchCountBounds(
  query: SearchQuery,
  k: number,
  counts: KeptCounts,
  prefixedTags: readonly string[],
  options: RankingOptions = DEFAULT_RANKING,
): { lo: number; hi: number } | undefined {
  const kw = query.keywords[k]!;
  if (!plainWord(kw)) return undefined;
  const word = kw.units[0]!.term;
  const threshold = new Scoring(query.keywords, options).threshold[k]!;
  // The word in the description or tags matches (a share of 1); in the content only, at the content weight.
  const lo = counts.text(word) + (options.content >= threshold ? counts.content(word) : 0);
  let more = 0;
  for (const alt of kw.units[0]!.alts ?? []) {
    if (options.synonym >= threshold) more += counts.text(alt);
    if (options.synonym * options.content >= threshold) more += counts.content(alt);
  }
  const holdsWord = (tag: string) => tagParts(tag).includes(word);
  if (!holdsWord(kw.tag)) more += counts.tagged(kw.tag);
  if (kw.tagStem !== word) more += counts.stemmed(kw.tagStem);
  for (const t of prefixedTags) if (!holdsWord(t)) more += counts.tagged(t);
  return { lo, hi: Math.min(counts.live, lo + more) };
}

/** Most terms one keyword may have here (3^terms states each, times its tag matches). */
const MAX_KEYWORD_TERMS = 5;
/** Most combinations of the keywords' classes enumerated before giving up (the query is then counted). */
const MAX_COMBINATIONS = 20_000;
/** Most signatures one block may hold (each is a value of the statement that reads it). */
const MAX_BLOCK_SHAPES = 5_000;

/** One way a memory may meet one keyword: its terms' held states, and its tag match. */
interface KeywordState {
  held: number[];
  kind: number;
}

/** Per keyword, states alike in what they give Scoring.score: touched or not, matched or not, the same strength. */
interface KeywordClass {
  kind: number;
  share: number;
  states: KeywordState[];
}

/** One combination of the keywords' classes: what Scoring.score makes of it, and its strength per keyword. */
interface Combination {
  combo: KeywordClass[];
  matched: number;
  corroborated: boolean;
  strengths: number[];
  /** The score at the exact weights, or at the middle of their bounds. */
  score: number;
  /** With bounded weights: above the floor for some of them, below it for others. */
  onFloor: boolean;
}

/**
 * Scores this close (relative to the query's scale) may fall either way once the exact weights
 * are known: such a query is counted instead.
 */
const MARGIN = 1e-9;

/**
 * The blocks of a query of two keywords or more, ranked as SearchIndex ranks them, given how many
 * live memories match each keyword (`bounds`, from matchCountBounds) and how many are live. With
 * every count exact, each combination is scored by Scoring itself (the same sums SearchIndex
 * adds). Otherwise each keyword's weight is known to lie between two values, and the blocks are
 * in a sure order (`sure`) up to the first whose side of the relevance floor, or whose order
 * against the next, is not the same for every weight in those bounds (checked at their ends:
 * the scores are linear in the weights).
 * `prefixed[k]`: whether keyword k may match a tag by prefix (some live memory carries a tag it is
 * a prefix of); `possible(term, held)` and `possibleKind(k, kind)` leave out states no live memory
 * has (the store's counts). Undefined too when the keywords share a term, a keyword has too many
 * terms or the combinations are too many: the query is then counted.
 */
export function rankUncountedKeywords(
  query: SearchQuery,
  prefixed: readonly boolean[],
  bounds: ReadonlyArray<{ lo: number; hi: number }>,
  live: number,
  possible: (term: string, held: number) => boolean = () => true,
  possibleKind: (k: number, kind: number) => boolean = () => true,
  options: RankingOptions = DEFAULT_RANKING,
): UncountedRanking | undefined {
  const keywords = query.keywords;
  const n = keywords.length;
  if (n < 2 || query.limit <= 0 || live <= 0) return undefined;
  const terms = queryTerms(query);
  const position = new Map(terms.map((t, i) => [t, i]));
  const termsOf = keywords.map((kw) => [...new Set(kw.units.flatMap((u) => [u.term, ...u.parts, ...(u.alts ?? [])]))]);
  if (termsOf.reduce((a, ts) => a + ts.length, 0) !== terms.length || termsOf.some((ts) => ts.length > MAX_KEYWORD_TERMS)) return undefined;

  // The weights at the bounds' ends: more matches weigh less.
  const exact = bounds.every((b) => b.lo === b.hi);
  const scoring = new Scoring(keywords, options);
  if (
    !scoring.weigh(
      bounds.map((b) => b.hi),
      live,
    )
  )
    return undefined;
  const low = [...scoring.weight];
  if (!exact)
    scoring.weigh(
      bounds.map((b) => b.lo),
      live,
    );
  const high = [...scoring.weight];
  const strength = [0, options.content, 1];
  const classes = keywords.map((kw, k) =>
    keywordClasses(query, k, termsOf[k]!, prefixed[k]!, possible, possibleKind, scoring, strength, options),
  );
  if (classes.reduce((a, c) => a * c.length, 1) > MAX_COMBINATIONS) return undefined;

  // Every combination of one class per keyword, scored by Scoring on a representative of each class.
  const tagMatch = new Uint8Array(n);
  const share = new Float64Array(n);
  const floor = options.minCoverage * options.description;
  const scale = high.reduce((a, w) => a + w, 0) * Math.max(1, floor) * (options.exactTag + options.tagAndDescriptionBonus);
  // The least and most of Σ w·x over the weights' bounds (linear: at the ends, term by term).
  const least = (x: number[]) => x.reduce((a, v, k) => a + Math.min(low[k]! * v, high[k]! * v), 0);
  const most = (x: number[]) => x.reduce((a, v, k) => a + Math.max(low[k]! * v, high[k]! * v), 0);
  const passing: Combination[] = [];
  const partial: Combination[] = [];
  const pick = new Array<number>(n).fill(0);
  for (;;) {
    const combo = pick.map((c, k) => classes[k]![c]!);
    combo.forEach((c, k) => ((tagMatch[k] = c.kind), (share[k] = c.share)));
    const score = scoring.score(tagMatch, share, 0);
    if (scoring.touched > 0) {
      const strengths = combo.map((c, k) => (c.kind === TagMatch.None && c.share === 0 ? 0 : scoring.strength(k, c.kind, c.share)));
      const x: Combination = {
        combo,
        matched: scoring.matched,
        corroborated: scoring.corroborated(scoring.matched, scoring.touched),
        strengths,
        score,
        onFloor: false,
      };
      let passes: boolean;
      if (exact) passes = scoring.passes(scoring.matched, score);
      else {
        // Above the floor for every weight in the bounds, or below it for every one; else on
        // the floor, in both lists: no block from it on is in a sure order.
        const overFloor = strengths.map((v) => v - floor);
        x.onFloor = scoring.matched > 0 && least(overFloor) <= MARGIN * scale && most(overFloor) >= -MARGIN * scale;
        passes = scoring.matched > 0 && least(overFloor) > MARGIN * scale;
        x.score = strengths.reduce((a, v, k) => a + ((low[k]! + high[k]!) / 2) * v, 0);
      }
      if (passes || x.onFloor) passing.push(x);
      if ((!passes || x.onFloor) && x.corroborated) partial.push(x);
    }
    let k = 0;
    while (k < n && pick[k] === classes[k]!.length - 1) pick[k++] = 0;
    if (k === n) break;
    pick[k]!++;
  }

  // Blocks: equal matched and score (exact), or equal strengths (bounds: two others are in a
  // sure order only when ordered alike for every weight in the bounds). `sure`: the blocks before
  // the first that is not.
  const same = (a: Combination, b: Combination) =>
    a.matched === b.matched && (exact ? a.score === b.score : a.strengths.every((v, k) => v === b.strengths[k]));
  const blocks = (xs: Combination[]) => {
    xs.sort((a, b) => b.matched - a.matched || b.score - a.score);
    const out: Array<{ matched: number; shapes: Shape[] }> = [];
    let sure = Infinity;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      const prev = xs[i - 1];
      const merges = prev !== undefined && same(prev, x);
      if (x.onFloor) sure = Math.min(sure, merges ? out.length - 1 : out.length);
      if (
        !exact &&
        prev &&
        !merges &&
        prev.matched === x.matched &&
        least(prev.strengths.map((v, k) => v - x.strengths[k]!)) <= MARGIN * scale
      )
        sure = Math.min(sure, out.length - 1);
      const shapes = shapesOf(x.combo, termsOf, position, terms.length);
      if (merges) out[out.length - 1]!.shapes.push(...shapes);
      else out.push({ matched: x.matched, shapes });
    }
    return { out, sure: Math.min(sure, out.length) };
  };
  const all = blocks(passing);
  const corroborated = blocks(passing.filter((x) => x.corroborated));
  const fallback = blocks(partial);
  if ([...all.out, ...fallback.out].some((b) => b.shapes.length > MAX_BLOCK_SHAPES)) return undefined;
  return {
    passing: all.out.map((b) => b.shapes),
    matched: all.out.map((b) => b.matched),
    corroborated: corroborated.out.map((b) => b.shapes),
    required: scoring.required,
    partial: fallback.out.map((b) => b.shapes),
    partialLimit: Math.min(query.limit, options.weakLimit),
    ...(exact ? {} : { sure: { passing: all.sure, corroborated: corroborated.sure, partial: fallback.sure } }),
  };
}

/** One keyword's possible states, in classes of what they give its cell of a score. */
function keywordClasses(
  query: SearchQuery,
  k: number,
  own: string[],
  prefixed: boolean,
  possible: (term: string, held: number) => boolean,
  possibleKind: (k: number, kind: number) => boolean,
  scoring: Scoring,
  strength: number[],
  options: RankingOptions,
): KeywordClass[] {
  const kw = query.keywords[k]!;
  const weights = unitWeights(kw.units, () => 0, 1, options.synonym);
  if (kw.units.length !== 1 || kw.units[0]!.parts.length > 0) throw new Error('only keywords of one plain word are ranked without counts');
  const kinds = [
    TagMatch.None,
    TagMatch.Exact,
    TagMatch.Inflection,
    ...(prefixed && mayPrefixTag(query, k) ? [TagMatch.Prefix] : []),
  ].filter((kind) => kind === TagMatch.None || possibleKind(k, kind));
  const byKey = new Map<string, KeywordClass>();
  const position = new Map(own.map((t, i) => [t, i]));
  forEachHeld(own.length, (held) => {
    if (!held.every((h, i) => h === Held.No || possible(own[i]!, h))) return;
    const sh = shareOf(kw.units, weights, (term) => strength[held[position.get(term)!]!]!);
    for (const kind of kinds) {
      const touched = kind !== TagMatch.None || sh !== 0;
      const key = touched ? `${scoring.matches(k, kind, sh)}|${scoring.strength(k, kind, sh)}` : 'untouched';
      const c = byKey.get(key) ?? { kind, share: sh, states: [] };
      c.states.push({ held: [...held], kind });
      byKey.set(key, c);
    }
  });
  return [...byKey.values()];
}

/** The signatures of a combination of classes: every choice of one state per keyword. */
function shapesOf(combo: KeywordClass[], termsOf: string[][], position: Map<string, number>, width: number): Shape[] {
  let shapes: Shape[] = [{ terms: new Array<number>(width).fill(Held.No), tagMatch: [] }];
  combo.forEach((c, k) => {
    shapes = shapes.flatMap((s) =>
      c.states.map((st) => {
        const t = [...s.terms];
        termsOf[k]!.forEach((term, i) => (t[position.get(term)!] = st.held[i]!));
        return { terms: t, tagMatch: [...s.tagMatch, st.kind] };
      }),
    );
  });
  return shapes;
}
