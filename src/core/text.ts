import { stemmer } from 'stemmer';
import { Generations } from './generations';

/**
 * Text analysis shared by indexing and querying, so both sides agree on what a term is.
 * Words are lower-cased and split on anything that is not a letter or digit; compounds
 * (`keep-alive`, `safe.directory`, `node_modules`) and camelCase identifiers contribute
 * their whole and their parts (`getByRole` → `getbyrole`, `get`, `role`), an acronym's
 * plural stays one word (`JWTs`, `IDs`), words shorter than two characters and stop words
 * are dropped, British spellings take their American form, and every term is
 * Porter-stemmed (`caching` and `cache` both become `cach`).
 */

/**
 * Function words that carry no meaning for retrieval: articles, pronouns, auxiliaries,
 * prepositions, conjunctions, and the fragments contractions leave (`doesn't` → `doesn`).
 * Content words, however common in this domain (`error`, `fail`), are left to IDF.
 */
const STOP_WORDS = new Set(
  // articles, conjunctions, determiners
  (
    'a an the and or nor but so yet if then than that this these those such both either neither ' +
    'each every all any some few more most other another same own only just also too very ' +
    // pronouns
    'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'what which who whom whose whatever whichever ' +
    // auxiliaries and modals
    'am is are was were be been being do does did doing done have has had having ' +
    'can cannot could will would shall should may might must ' +
    // contraction fragments (doesn't, can't, we'll, they're, you've, it's, I'd, I'm)
    'don doesn didn isn aren wasn weren hasn haven hadn won wouldn couldn shouldn mustn ' +
    'll ve re ' +
    // prepositions and adverbs of place/time/manner
    'about above across after against along among around at before behind below beneath beside ' +
    'between beyond by down during except for from in inside into near of off on onto out outside ' +
    'over per since through throughout till to toward towards under underneath until unto up upon ' +
    'via with within without ' +
    'how when where why while whether again ever here there once now not no ' +
    'although though because however instead otherwise still even'
  ).split(/\s+/),
);

/** Stems already computed (the vocabulary is far smaller than the text). */
const stems = new Generations<string>(100_000);

/**
 * British spellings in their American form, so `normalised` meets `normalizing` and
 * `behaviour` meets `behavior`: -ise/-yse verbs (`initialise`, `analyse`) and -our nouns
 * (`colour`). Applied to both sides, so a word it changes by mistake still matches itself.
 */
function americanize(word: string): string {
  if (word.length < 6) return word;
  return word
    .replace(/^([a-z]{3,})is(e|es|ed|ing|er|ers|ation|ations)$/, '$1iz$2')
    .replace(/^([a-z]{2,})ys(e|es|ed|ing|er|ers)$/, '$1yz$2')
    .replace(/^([a-z]{2,}[bcdfghjklmnpqrstvwxzi])our(s|ed|ing|ite|ites|able)?$/, '$1or$2');
}

const LETTERS = /^[a-z]+$/;

/** Porter stem of one lower-case word, memoised (the vocabulary is far smaller than the text). */
export function stem(word: string): string {
  return stems.get(word, stemOf);
}

function stemOf(word: string): string {
  return LETTERS.test(word) ? stemmer(americanize(word)) : word;
}

/** True for words that carry no meaning for retrieval ("the", "with", …). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * A word of the text as written, lower-cased: `whole` is the word with its joiners removed,
 * `parts` its pieces. `keep-alive`, `safe.directory`, `node_modules`, `getByRole` and
 * `HTMLParser` are compounds (`keepalive` of `keep` + `alive`, …); a plain word is its own
 * single part.
 */
export interface Token {
  whole: string;
  parts: string[];
}

/** Letters and digits, possibly joined by single `-`, `.` or `_` (`keep-alive`, `index.html`). */
const TOKEN = /[\p{L}\p{N}]+(?:[-._]+[\p{L}\p{N}]+)*/gu;
const PLAIN = /^[a-z0-9]+$/;
const LOWER_OR_DIGIT_THEN_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
/** `HTMLParser` → `HTML Parser`, but not `JWTs` / `IDs` (an acronym's plural). */
const ACRONYM_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll}{2,})/gu;

/** A word as the text writes it: one capital, then lower-case letters and digits (`Postgres`, `The`). */
const CAPITALIZED = /^[A-Z][a-z0-9]*$/;

/** One match of TOKEN as a Token. */
export function token(raw: string): Token {
  // The common shapes first, with the answer the general path gives them.
  if (PLAIN.test(raw)) return { whole: raw, parts: [raw] };
  if (CAPITALIZED.test(raw)) {
    const lower = raw.toLowerCase();
    return { whole: lower, parts: [lower] };
  }
  const parts = raw
    .replace(LOWER_OR_DIGIT_THEN_UPPER, '$1 $2')
    .replace(ACRONYM_THEN_WORD, '$1 $2')
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  return { whole: parts.join(''), parts };
}

/** The words of a text in order, each with its parts. */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const [raw] of text.matchAll(TOKEN)) out.push(token(raw));
  return out;
}

/** Raw words of a text in order: compounds and identifiers as a whole and as their parts. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const t of tokens(text)) {
    if (t.parts.length > 1) out.push(t.whole);
    out.push(...t.parts);
  }
  return out;
}

/** True when a text has no word that is not a stop word (`the`, `to be or not`, `--`). */
export function onlyStopWords(text: string): boolean {
  return words(text).every(isStopWord);
}

/** True for a word that gives a term: two characters or more, and no stop word. */
export function keep(word: string): boolean {
  return word.length >= 2 && !isStopWord(word);
}

/**
 * One word of a query: its stemmed term, and for a compound the stemmed parts that may
 * stand for it (`keep-alive` is found as `keepalive`, or as `keep` and `alive`).
 */
export interface TermUnit {
  term: string;
  /** Empty for a plain word. */
  parts: string[];
  /**
   * Stems of other words for a plain word of a query (search/synonyms.ts), tried in order
   * when a memory holds neither the word nor its parts; absent for memories' own words.
   */
  alts?: readonly string[];
}

/** The distinct words of a query text as term units, stop words and one-character words removed. */
export function termUnits(text: string): TermUnit[] {
  const units = new Map<string, TermUnit>();
  for (const t of tokens(text)) {
    const parts = [...new Set(t.parts.filter(keep).map(stem))];
    if (t.parts.length === 1 || parts.length <= 1) {
      // A plain word, or a compound with at most one meaningful part (`get-by` → `get`); a
      // compound of stop words only (`for_each`) is its whole word, as the index files it.
      const word = t.parts.length === 1 || parts.length === 0 ? t.whole : undefined;
      const term = word !== undefined ? (keep(word) ? stem(word) : undefined) : parts[0];
      if (term !== undefined && !units.has(term)) units.set(term, { term, parts: [] });
      continue;
    }
    const term = stem(t.whole);
    if (!units.has(term)) units.set(term, { term, parts: parts.filter((p) => p !== term) });
  }
  return [...units.values()];
}
