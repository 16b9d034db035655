import type { IndexedMemory } from './analysis';

/** One ranked hit, with the figures that ordered it (handy for tests and tuning). */
export interface SearchHit extends IndexedMemory {
  /** How many of the query's keywords this memory matches. */
  matchedKeywords: number;
  /** Sum over keywords of keyword weight × match strength: the order within equal matchedKeywords. */
  score: number;
  /**
   * How much of the query this memory matches: score over what a memory holding every
   * keyword in its description would get. Each keyword weighs its IDF; a tag match counts
   * more than 1, a tag prefix or a keyword only partly held counts less.
   */
  coverage: number;
}

/** How a keyword can meet a tag, weakest first; 0 is no tag match. */
export const enum TagMatch {
  None = 0,
  /** The keyword starts a tag (`type` → `typescript`): a guess, weaker than the word itself in the text. */
  Prefix = 1,
  /** The keyword is another inflection of a tag (`indexes` → `index`, `safe.directory` → `safe-directory`). */
  Inflection = 2,
  /** The keyword is the tag. */
  Exact = 3,
}

/**
 * The ranking's constants. Strengths are per keyword, in [0, 1.25]: a tag match is worth
 * its base plus a bonus for the description also covering the keyword, so an exact tag
 * always outranks a description match of the same keyword.
 */
export interface RankingOptions {
  exactTag: number;
  inflectedTag: number;
  prefixTag: number;
  /** Strength of a description that holds every term of the keyword (scaled by the share it holds). */
  description: number;
  /** Bonus on a tag match, times the share of the keyword's terms the description also holds. */
  tagAndDescriptionBonus: number;
  /** A keyword counts as matched by text when this share of its (IDF-weighted) terms is found. */
  matchThreshold: number;
  /** A keyword of at least longKeywordWords words counts as matched at this lower share. */
  longMatchThreshold: number;
  longKeywordWords: number;
  /**
   * Below matchThreshold a memory still earns description × share × this, which orders it
   * but does not count it as a matched keyword (long pasted error text rarely appears whole).
   */
  partialFactor: number;
  /** A hit whose coverage (share of the query's weight it matches) is below this is not returned. */
  minCoverage: number;
  /**
   * What a word held only in the content is worth beside the same word in the description
   * (the field weight): enough for a one-word keyword to count as matched, less than a
   * description or tag match of it.
   */
  content: number;
  /**
   * What another word for a query word (synonyms.ts) is worth beside the word itself, when a
   * memory holds it instead (times the content weight when only among its content terms).
   */
  synonym: number;
  /**
   * Keywords a hit must match to be returned beside others, when the query has that many
   * keywords that weigh anything: one shared common word (`database`, `timeout`) is not an answer.
   */
  minMatched: number;
  /**
   * When no hit matches minMatched keywords, the fallback: at most this many of the best hits
   * that match one keyword and hold words of another (Scoring.corroborated); when none does,
   * the best hit alone. So a query never comes back empty while anything matches, and a query
   * the memory cannot answer gets one guess, not every memory sharing one word with it.
   */
  weakLimit: number;
}

export const DEFAULT_RANKING: Readonly<RankingOptions> = {
  exactTag: 1,
  inflectedTag: 0.9,
  prefixTag: 0.5,
  description: 0.75,
  tagAndDescriptionBonus: 0.25,
  matchThreshold: 0.5,
  longMatchThreshold: 0.4,
  longKeywordWords: 4,
  partialFactor: 0.5,
  minCoverage: 0.25,
  content: 0.6,
  synonym: 0.5,
  minMatched: 2,
  weakLimit: 5,
};

/** A keyword this long or longer may match a tag by prefix (`type` → `typescript`). */
export const MIN_PREFIX = 3;

/** Better first: more matched keywords, higher score, more recently changed, then id for a stable order. */
export function better(a: SearchHit, b: SearchHit): boolean {
  if (a.matchedKeywords !== b.matchedKeywords) return a.matchedKeywords > b.matchedKeywords;
  if (a.score !== b.score) return a.score > b.score;
  if (a.changedAt !== b.changedAt) return a.changedAt > b.changedAt;
  return a.id < b.id;
}
