import { stemmer } from 'stemmer';

/**
 * Text analysis shared by indexing and querying, so both sides agree on what a term is.
 * Words are lower-cased, split on anything that is not a letter or digit, camelCase and
 * snake_case identifiers also contribute their parts, stop words are dropped, and every
 * term is Porter-stemmed (`caching` and `cache` both become `cach`).
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can did do does for from had has have how i if in into is it its ' +
    'no not of on or our so such than that the their then there these they this to too was we were ' +
    'what when where which while who why will with you your after before about also all any been ' +
    'being both each few more most other same some only own just should could would may might must'
  ).split(' '),
);

const stemCache = new Map<string, string>();

/** Porter stem of one lower-case word, memoised (the vocabulary is far smaller than the text). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** True for words that carry no meaning for retrieval ("the", "with", …). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Raw words of a text in order: identifiers split into their parts as well as kept whole. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (!raw) continue;
    const parts = raw
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(/[\s_]+/)
      .filter(Boolean);
    const whole = raw.replace(/_/g, '').toLowerCase();
    if (parts.length > 1 && whole) out.push(whole);
    for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

/** Distinct stemmed terms of a text, stop words removed. */
export function terms(text: string): string[] {
  const seen = new Set<string>();
  for (const w of words(text)) {
    if (w.length < 2 && !/\d/.test(w)) continue;
    if (isStopWord(w)) continue;
    seen.add(stem(w));
  }
  return [...seen];
}
