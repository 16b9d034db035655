import { normalizeTag, tagParts } from '../tags';
import { terms } from '../text';

/** One keyword as the index sees it. */
export interface AnalyzedKeyword {
  /** As given, trimmed. */
  raw: string;
  /** The keyword in tag form (`Build System` → `build-system`), for exact and prefix tag matches. */
  tag: string;
  /** The keyword's stemmed tag parts, to match a tag that is another inflection (`caching` ~ `cache`). */
  tagStem: string;
  /** Stemmed terms of the keyword, stop words removed. */
  terms: string[];
}

/** A validated, analysed search. */
export interface SearchQuery {
  keywords: AnalyzedKeyword[];
  /** Every result must carry all of these (normalised) tags. */
  tags: string[];
  limit: number;
}

export function analyzeKeyword(raw: string): AnalyzedKeyword {
  const tag = normalizeTag(raw);
  return { raw, tag, tagStem: tagParts(tag).join('-'), terms: terms(raw) };
}

export function analyzeQuery(keywords: string[], tags: string[], limit: number): SearchQuery {
  return { keywords: keywords.map(analyzeKeyword), tags, limit };
}
