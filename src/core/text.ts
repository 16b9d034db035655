import { stemmer } from 'stemmer';
import { keepBest } from './best';
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
function token(raw: string): Token {
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

function keep(word: string): boolean {
  return word.length >= 2 && !isStopWord(word);
}

/** Distinct stemmed terms of a text (compounds whole and in parts), stop words and one-character words removed. */
export function terms(text: string): string[] {
  const seen = new Set<string>();
  const words = new RegExp(TOKEN.source, TOKEN.flags);
  for (let m = words.exec(text); m !== null; m = words.exec(text)) {
    const w = wordOf(m[0]);
    if (w.term !== undefined) seen.add(w.term);
    for (const p of w.parts) if (p !== undefined) seen.add(p);
  }
  return [...seen];
}

/** What analysis makes of one word as written (one match of TOKEN), whatever the text around it. */
interface Word {
  /** The word lower-cased, its joiners removed (Token.whole). */
  whole: string;
  /** Stem of `whole`; undefined for a stop word or a one-character word. */
  term: string | undefined;
  /** A compound's parts' stems, undefined where a part is a stop word; empty for a single-part word. */
  parts: Array<string | undefined>;
  /** Written as code whatever its quoting: a digit and a letter, capitals, a compound (see distinctiveTerms). */
  code: boolean;
}

/**
 * Words already analysed: a text repeats its words and a store repeats its vocabulary, and a
 * word's regular-expression tests, stop-word check and stem cost several times one lookup. Words
 * longer than a content term (hashes, base64) are not kept.
 */
const analysedWords = new Generations<Word>(50_000);

function wordOf(raw: string): Word {
  return analysedWords.get(raw, analyzeWord, raw.length <= CONTENT_TERM_MAX);
}

function analyzeWord(raw: string): Word {
  if (PLAIN.test(raw))
    return { whole: raw, term: keep(raw) ? stem(raw) : undefined, parts: [], code: HAS_DIGIT.test(raw) && HAS_LETTER.test(raw) };
  const t = token(raw);
  return {
    whole: t.whole,
    term: keep(t.whole) ? stem(t.whole) : undefined,
    parts: t.parts.length > 1 ? t.parts.map((p) => (keep(p) ? stem(p) : undefined)) : [],
    code: COMPOUND.test(raw) || CODE_LIKE.test(raw),
  };
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

/** How a content word is ranked for the bounded share of content terms a memory is filed under. */
interface Candidate {
  term: string;
  /** Written as code: an identifier, a code (`TS2589`, `E0308`), a path, in backticks or quotes. */
  code: boolean;
  count: number;
  first: number;
}

/** Text between backticks or straight or typographic quotes: names and error text as written. */
const QUOTED = /`[^`\n]{1,200}`|"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d|'[^'\n\s][^'\n]{0,198}'/g;
/** A word with a digit and a letter (`TS2589`, `0308010C`, `sha2`), or in capitals (`EACCES`). */
const CODE_LIKE = /^(?=.*\p{N})(?=.*\p{L})|^\p{Lu}{3,}$/u;

/** Joined (`keep-alive`, `index.html`) or camel-cased (`getByRole`): a compound as written. */
const COMPOUND = /[-._]|\p{Ll}\p{Lu}/u;
const HAS_DIGIT = /[0-9]/;
const HAS_LETTER = /[a-z]/;

/** Longest content word filed as a term, in characters. */
export const CONTENT_TERM_MAX = 100;

/**
 * The `max` terms of a memory's content that best tell it apart, other than `exclude` (the
 * terms its description and tags already give): words written as code first (identifiers,
 * error codes, compounds, quoted names), then the words the content repeats most, then the
 * longer (rarer) word, then the earlier. Chosen from the memory alone, so every store files a
 * memory under the same terms whatever else it holds; bounded, so the index stays small.
 */
export function distinctiveTerms(content: string, exclude: ReadonlySet<string>, max: number): string[] {
  if (max <= 0 || content.length === 0) return [];
  const quoted = new Set<string>();
  for (const [q] of content.matchAll(QUOTED)) for (const t of tokens(q)) quoted.add(t.whole);
  const candidates = new Map<string, Candidate>();
  let position = 0;
  const note = (term: string | undefined, code: boolean) => {
    if (term === undefined || exclude.has(term)) return;
    const c = candidates.get(term);
    if (c) {
      c.count++;
      c.code ||= code;
    } else candidates.set(term, { term, code, count: 1, first: position++ });
  };
  // exec rather than matchAll: no iterator and no array per word, on every word of every note.
  const words = new RegExp(TOKEN.source, TOKEN.flags);
  for (let m = words.exec(content); m !== null; m = words.exec(content)) {
    const raw = m[0];
    const w = wordOf(raw);
    if (raw.length > CONTENT_TERM_MAX) {
      // A run of characters this long (a hash, base64, a minified line) is no search key, and would
      // not fit PostgreSQL's tsvector (2047 bytes a word): the content's other terms speak for it.
      // Its parts may still be words.
      if (w.whole.length <= CONTENT_TERM_MAX) note(w.term, w.code || quoted.has(w.whole));
      if (w.parts.length > 0) token(raw).parts.forEach((p, i) => p.length <= CONTENT_TERM_MAX && note(w.parts[i], false));
      continue;
    }
    // Most words: a cached analysis, and whether the content quotes them.
    note(w.term, w.code || (quoted.size > 0 && quoted.has(w.whole)));
    // A compound's parts are ordinary words: they rank by how often the content uses them.
    for (const p of w.parts) note(p, false);
  }
  // The best `max` in order, kept as they come (a note has hundreds of words; a sort of all of them cost more than the rest).
  const best: Candidate[] = [];
  for (const c of candidates.values()) keepBest(best, c, max, ranksBefore);
  return best.map((c) => c.term);
}

/** Content term order: code-like first, then used more often, then longer, then earlier (`first` is unique: a total order). */
function ranksBefore(a: Candidate, b: Candidate): boolean {
  if (a.code !== b.code) return a.code;
  if (a.count !== b.count) return a.count > b.count;
  if (a.term.length !== b.term.length) return a.term.length > b.term.length;
  return a.first < b.first;
}
