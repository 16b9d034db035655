import type { TermUnit } from '../text';
import type { AnalyzedKeyword } from './query';
import { type RankingOptions, TagMatch } from './ranking';

// The ranking's formulas, in one place: SearchIndex applies them to every memory its postings
// reach, the team store to groups of memories that meet the query the same way (signatures.ts).
// Both must add the same numbers in the same order, so equal inputs give bit-identical scores.

/** Inverse document frequency of something `df` of `n` memories have (never 0 while n > 0). */
function idf(n: number, df: number): number {
  return Math.log(1 + n / (df + 0.5));
}

/**
 * What holding one word of a keyword is worth: `whole` for the word, `parts[p]` for each part
 * of a compound held instead, `alt` for another word for it (TermUnit.alts) held instead.
 */
export interface UnitWeight {
  whole: number;
  /** Empty for a plain word. */
  parts: number[];
  /** `whole` times the synonym weight (RankingOptions.synonym). */
  alt: number;
}

/**
 * Each word of a keyword weighs its IDF, normalised so the keyword's words sum to 1; a
 * compound's parts share its weight by their own IDFs. `df` is how many memories hold a term.
 */
export function unitWeights(units: TermUnit[], df: (term: string) => number, n: number, synonym: number): UnitWeight[] {
  const weights = units.map((u) => idf(n, df(u.term)));
  const total = weights.reduce((a, b) => a + b, 0);
  return units.map((u, j) => {
    const w = weights[j]! / total;
    if (u.parts.length === 0) return { whole: w, parts: [], alt: w * synonym };
    const partWeights = u.parts.map((p) => idf(n, df(p)));
    const partTotal = partWeights.reduce((a, b) => a + b, 0);
    return { whole: w, parts: partWeights.map((pw) => (w * pw) / partTotal), alt: w * synonym };
  });
}

/**
 * The share of a keyword's words a memory holds: a word's weight times the strength it holds
 * it with (`holds`: 1 in the description or tags, the content weight in the content only, 0
 * not at all), else, for a compound, the same for the parts it holds, else the synonym weight
 * times the strength of the first other word for it that it holds. Added in SearchIndex's
 * order (word by word, parts in order), so the sum is the one SearchIndex accumulates.
 */
export function shareOf(units: TermUnit[], weights: UnitWeight[], holds: (term: string) => number): number {
  let share = 0;
  for (let j = 0; j < units.length; j++) {
    const u = units[j]!;
    const w = weights[j]!;
    const whole = holds(u.term);
    if (whole !== 0) {
      share += w.whole * whole;
      continue;
    }
    let anyPart = false;
    for (let p = 0; p < u.parts.length; p++) {
      const part = holds(u.parts[p]!);
      if (part !== 0) {
        share += w.parts[p]! * part;
        anyPart = true;
      }
    }
    if (anyPart || !u.alts) continue;
    for (const alt of u.alts) {
      const held = holds(alt);
      if (held === 0) continue;
      share += w.alt * held;
      break;
    }
  }
  return share;
}

/**
 * The scoring of one query: thresholds, keyword weights, the relevance floor, and the score
 * of a memory from its per-keyword tag matches and shares. Use: `weigh` with how many
 * memories match each keyword (counted with `matches`), then `score` per memory or group.
 */
export class Scoring {
  /** Per keyword, the share of its words that counts as a match by text (with an allowance for rounding). */
  readonly threshold: number[];
  /** Per keyword, its weight (see weigh). */
  weight: number[] = [];
  /** Score of a memory holding every keyword in its description: coverage 1. */
  fullScore = 0;
  /** Below this a memory is not returned (the relevance floor). */
  minScore = 0;
  /** Set by `score`: how many keywords the memory just scored matches. */
  matched = 0;
  /** Set by `score`: how many keywords the memory just scored matches or holds some words of. */
  touched = 0;
  /** Set by `weigh`: keywords a hit must match to be returned beside others (see cut). */
  required = 1;
  private readonly tagBase: number[];

  constructor(
    private readonly keywords: AnalyzedKeyword[],
    private readonly o: RankingOptions,
  ) {
    // The more words a keyword has (pasted error text), the fewer a paraphrasing memory repeats.
    this.threshold = keywords.map((k) => (k.units.length >= o.longKeywordWords ? o.longMatchThreshold : o.matchThreshold) - 1e-9);
    this.tagBase = [0, o.prefixTag, o.inflectedTag, o.exactTag];
  }

  /** True when keyword `i` counts as matched by a memory with this tag match and share. */
  matches(i: number, tagMatch: number, share: number): boolean {
    return tagMatch !== TagMatch.None || share >= this.threshold[i]!;
  }

  /**
   * Keyword weights: the IDF of the keyword over the `df[i]` of `n` memories it matches (an
   * unknown keyword weighs most); a keyword of stop words only that names no tag is ignored,
   * so it cannot lower coverage. False when the query weighs nothing (nothing to return).
   */
  weigh(df: number[], n: number): boolean {
    this.weight = this.keywords.map((k, i) => (k.stopWordsOnly && df[i] === 0 ? 0 : idf(n, df[i]!)));
    const totalWeight = this.weight.reduce((a, b) => a + b, 0);
    // Coverage is measured in full description matches: 1 = every keyword's words in the description.
    this.fullScore = this.o.description * totalWeight;
    this.minScore = this.o.minCoverage * this.fullScore;
    this.required = Math.max(1, Math.min(this.o.minMatched, this.weight.filter((w) => w > 0).length));
    return totalWeight !== 0;
  }

  /**
   * The score of one memory from its cells (`tagMatch[first + i]`, `share[first + i]` for
   * keyword i); sets `matched`. Compare with `minScore` and `matched > 0` before returning it.
   */
  score(tagMatch: ArrayLike<number>, share: ArrayLike<number>, first: number): number {
    const n = this.keywords.length;
    let matched = 0;
    let touched = 0;
    let score = 0;
    for (let i = 0, cell = first; i < n; i++, cell++) {
      const kind = tagMatch[cell]!;
      const sh = share[cell]!;
      if (kind === TagMatch.None && sh === 0) continue;
      touched++;
      if (this.matches(i, kind, sh)) matched++;
      score += this.weight[i]! * this.strength(i, kind, sh);
    }
    this.matched = matched;
    this.touched = touched;
    return score;
  }

  /**
   * What keyword `i` is worth to a memory before its weight, from its tag match and share:
   * a tag match plus a bonus when the description also holds the keyword; a full share of
   * its words; some words of it (not a match, but it orders memories that match as many
   * keywords).
   */
  strength(i: number, kind: number, sh: number): number {
    const o = this.o;
    const full = sh >= this.threshold[i]!;
    if (kind !== TagMatch.None) return Math.max(this.tagBase[kind]! + o.tagAndDescriptionBonus * sh, full ? o.description * sh : 0);
    if (full) return o.description * sh;
    return o.description * sh * o.partialFactor;
  }

  /** A memory that matches no keyword, or too small a share of what was asked, is not returned. */
  passes(matched: number, score: number): boolean {
    return matched > 0 && score >= this.minScore;
  }

  /**
   * Whether a hit that scored `matched` and `touched` (see score) is corroborated: it matches
   * `required` keywords, or it holds words of two keywords at least. Only corroborated hits
   * are returned beside others when no hit matches `required` keywords (see keep).
   */
  corroborated(matched: number, touched: number): boolean {
    return matched >= this.required || touched >= 2;
  }

  /**
   * Which ranked hits to return, from the best returnable hit's `bestMatched` (undefined when
   * no hit passes) and the numbers of corroborated hits that pass and that do not:
   * - `all` of them when the best matches `required` keywords;
   * - else the best `weakLimit` corroborated hits that pass (`corroborated`);
   * - else, when some hit passes, the best one alone (`best`), a guess rather than nothing;
   * - else, when none passes, the best `weakLimit` corroborated hits that do not (`partial`):
   *   they hold words of two keywords, though neither wholly nor enough of the query.
   * (Hits matching fewer keywords below a strong best are kept: paraphrased keywords often
   * match one keyword only, and they rank after the strong ones.) So a query gets an answer
   * while anything holds words of two of its keywords, and a query the memory cannot answer
   * gets at most one guess that rests on one keyword.
   */
  keep(
    bestMatched: number | undefined,
    corroborated: number,
    partial: number,
  ): { from: 'all' | 'corroborated' | 'best' | 'partial'; count: number } {
    const o = this.o;
    if (bestMatched === undefined) return { from: 'partial', count: Math.min(o.weakLimit, partial) };
    if (bestMatched >= this.required) return { from: 'all', count: Infinity };
    if (corroborated > 0) return { from: 'corroborated', count: Math.min(o.weakLimit, corroborated) };
    return { from: 'best', count: 1 };
  }
}
