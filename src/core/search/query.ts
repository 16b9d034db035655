import { normalizeTag, tagParts } from '../tags';
import { onlyStopWords, termUnits, type TermUnit } from '../text';
import { terms } from '../wordTerms';
import { otherWords } from './synonyms';

/** One keyword as the index sees it. */
export interface AnalyzedKeyword {
  /** As given, trimmed. */
  raw: string;
  /** The keyword in tag form (`Build System` → `build-system`), for exact and prefix tag matches. */
  tag: string;
  /** The keyword's stemmed tag parts, to match a tag that is another inflection (`caching` ~ `cache`). */
  tagStem: string;
  /**
   * Stemmed terms of the keyword, stop words removed. Empty for a keyword of stop words
   * only (`the`, `with`): such a keyword can still match a tag exactly (`c`, `c#`), nothing else.
   */
  terms: string[];
  /**
   * The keyword's words as the index weighs them: each a stemmed term, for a compound
   * (`keep-alive`, `getByRole`) the parts that may stand for it, and for a plain word the
   * other words for it (synonyms.ts) that the keyword does not hold already.
   */
  units: TermUnit[];
  /**
   * True for a keyword of stop words only: unless it names a tag it is ignored, so it neither
   * matches nor lowers anyone's coverage. A keyword of words too short to be terms (`n+1`)
   * is not: it was asked for, and a memory that cannot be shown to hold it covers less.
   */
  stopWordsOnly: boolean;
}

/** A validated, analysed search. */
export interface SearchQuery {
  keywords: AnalyzedKeyword[];
  /** Every result must carry all of these (normalised) tags. */
  tags: string[];
  limit: number;
}

export function analyzeKeyword(raw: string): AnalyzedKeyword {
  const trimmed = raw.trim();
  const tag = normalizeTag(trimmed);
  const units = termUnits(trimmed);
  const own = new Set(units.flatMap((u) => [u.term, ...u.parts]));
  for (const u of units) {
    const alts = u.parts.length === 0 ? otherWords(u.term).filter((t) => !own.has(t)) : [];
    if (alts.length > 0) u.alts = alts;
  }
  return {
    raw: trimmed,
    tag,
    tagStem: tagParts(tag).join('-'),
    terms: terms(trimmed),
    units,
    stopWordsOnly: onlyStopWords(trimmed),
  };
}

/**
 * Analyses the keywords of a search. A keyword given twice (in any case or spacing) counts
 * once, so repeating a word cannot make a memory look like it matched more keywords.
 */
export function analyzeQuery(keywords: string[], tags: string[], limit: number): SearchQuery {
  const seen = new Set<string>();
  const analyzed: AnalyzedKeyword[] = [];
  for (const raw of keywords) {
    const k = analyzeKeyword(raw);
    if (!k.tag || seen.has(k.tag)) continue;
    seen.add(k.tag);
    analyzed.push(k);
  }
  return { keywords: analyzed, tags, limit };
}
