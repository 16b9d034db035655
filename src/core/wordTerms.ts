import { keepBest } from './best';
import { room } from './typedArrays';
import { keep, stem, token, tokens } from './text';
import { WordScanner } from './wordScan';

/**
 * The terms a memory is filed under: terms() of a description, distinctiveTerms() of a content.
 * Every word of a text is analysed once (text.ts: lower-cased, split into parts, stemmed) and
 * kept with its analysis, found again by its characters (wordScan.ts) as later texts repeat it.
 */

/** Longest content word filed as a term, in characters. */
export const CONTENT_TERM_MAX = 100;

/** Distinct stemmed terms of a text (compounds whole and in parts), stop words and one-character words removed. */
export function terms(text: string): string[] {
  return [...termsInto(text, new Set())];
}

/** Adds the terms() of `text` to `into`, and returns it. */
export function termsInto(text: string, into: Set<string>): Set<string> {
  bound();
  scanner.scan(text, (w) => {
    if (wordTerm[w]! >= 0) into.add(termText[wordTerm[w]!]!);
    for (let p = wordParts[w]!, end = p + wordPartCount[w]!; p < end; p++) if (parts[p]! >= 0) into.add(termText[parts[p]!]!);
  });
  return into;
}

// What the words met so far are, in columns of numbers indexed by a word's, a term's or a whole
// word's number (opening a store from its journal walks every word of every memory: objects,
// scattered through a large heap, cost a cache miss each where a column's numbers sit together).

/**
 * Stemmed terms (`cach` for `cache` and `caching`). distinctiveTerms keeps a note's counts in
 * the term's columns: `termSeen` says which call they belong to, `termExcludedIn` which call's
 * description holds the term.
 */
const termNumbers = new Map<string, number>();
const termText: string[] = [];
let termLength = new Int32Array(1024);
let termSeen = new Int32Array(1024);
let termExcludedIn = new Int32Array(1024);
let termCode = new Uint8Array(1024);
let termCount = new Int32Array(1024);
let termFirst = new Int32Array(1024);

/** `text`'s number in `numbers`: a new one, given to `added` first, when it has none. */
function numberOf(numbers: Map<string, number>, text: string, added: (n: number, text: string) => void): number {
  let n = numbers.get(text);
  if (n === undefined) {
    numbers.set(text, (n = numbers.size));
    added(n, text);
  }
  return n;
}

function termOf(text: string): number {
  return numberOf(termNumbers, text, addTerm);
}

function addTerm(t: number, text: string): void {
  termText.push(text);
  termLength = room(termLength, t);
  termSeen = room(termSeen, t);
  termExcludedIn = room(termExcludedIn, t);
  termCode = room(termCode, t);
  termCount = room(termCount, t);
  termFirst = room(termFirst, t);
  termLength[t] = text.length;
}

/**
 * Words as lower-cased and joined (Token.whole), one number for every way of writing one
 * (`KeepAlive`, `keep-alive`): `wholeQuotedIn` is the distinctiveTerms call whose content quotes it.
 */
const wholeNumbers = new Map<string, number>();
let wholeLength = new Int32Array(1024);
let wholeQuotedIn = new Int32Array(1024);

function wholeOf(text: string): number {
  return numberOf(wholeNumbers, text, addWhole);
}

function addWhole(w: number, text: string): void {
  wholeLength = room(wholeLength, w);
  wholeQuotedIn = room(wholeQuotedIn, w);
  wholeLength[w] = text.length;
}

/** The term of a word of the text; -1 for a stop word or a one-character word. */
function keptTerm(word: string): number {
  return keep(word) ? termOf(stem(word)) : -1;
}

/**
 * What analysis makes of one word as written (one match of TOKEN), whatever the text around it:
 * its whole word; its term; a compound's parts' terms (-1 where a part is a stop word), none for a
 * single-part word, at `wordParts` in `parts`; whether it is written as code whatever its quoting
 * (a digit and a letter, capitals, a compound: see distinctiveTerms).
 */
let words = 0;
let wordWhole = new Int32Array(1024);
let wordTerm = new Int32Array(1024);
let wordCode = new Uint8Array(1024);
let wordParts = new Int32Array(1024);
let wordPartCount = new Int32Array(1024);
let parts = new Int32Array(1024);
let partsUsed = 0;

function analyzeWord(raw: string): number {
  const t = token(raw);
  const w = words++;
  wordWhole = room(wordWhole, w);
  wordTerm = room(wordTerm, w);
  wordCode = room(wordCode, w);
  wordParts = room(wordParts, w);
  wordPartCount = room(wordPartCount, w);
  wordWhole[w] = wholeOf(t.whole);
  wordTerm[w] = keptTerm(t.whole);
  wordCode[w] = COMPOUND.test(raw) || CODE_LIKE.test(raw) ? 1 : 0;
  wordParts[w] = partsUsed;
  const n = t.parts.length > 1 ? t.parts.length : 0;
  wordPartCount[w] = n;
  parts = room(parts, partsUsed + n);
  for (let i = 0; i < n; i++) parts[partsUsed++] = keptTerm(t.parts[i]!);
  return w;
}

/**
 * Words already analysed: a text repeats its words and a store repeats its vocabulary, and a
 * word's regular-expression tests, stop-word check and stem cost several times one lookup. Words
 * longer than a content term (hashes, base64) are not kept.
 */
const scanner = new WordScanner(50_000, analyzeWord, CONTENT_TERM_MAX);

/**
 * Most words, terms or whole words numbered, and parts listed (a word too long to keep is
 * numbered, its parts listed, each time it is met), before all are forgotten and numbered again.
 */
const KEPT = 200_000;
const PARTS_KEPT = 1_000_000;

/** Starts over when the words, terms, whole words or parts met grow past their bound (a word's columns name its terms: all go). */
function bound(): void {
  if (words <= KEPT && termNumbers.size <= KEPT && wholeNumbers.size <= KEPT && partsUsed <= PARTS_KEPT) return;
  termNumbers.clear();
  termText.length = 0;
  wholeNumbers.clear();
  words = 0;
  partsUsed = 0;
  scanner.clear();
}

/** Text between backticks or straight or typographic quotes: names and error text as written. */
const QUOTED = /`[^`\n]{1,200}`|"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d|'[^'\n\s][^'\n]{0,198}'/g;
/** A word with a digit and a letter (`TS2589`, `0308010C`, `sha2`), or in capitals (`EACCES`). */
const CODE_LIKE = /^(?=.*\p{N})(?=.*\p{L})|^\p{Lu}{3,}$/u;

/** Joined (`keep-alive`, `index.html`) or camel-cased (`getByRole`): a compound as written. */
const COMPOUND = /[-._]|\p{Ll}\p{Lu}/u;

/**
 * The `max` terms of a memory's content that best tell it apart, other than `exclude` (the
 * terms its description and tags already give): words written as code first (identifiers,
 * error codes, compounds, quoted names), then the words the content repeats most, then the
 * longer (rarer) word, then the earlier. Chosen from the memory alone, so every store files a
 * memory under the same terms whatever else it holds; bounded, so the index stays small.
 */
export function distinctiveTerms(content: string, exclude: ReadonlySet<string>, max: number): string[] {
  if (max <= 0 || content.length === 0) return [];
  bound();
  const call = ++calls;
  for (const [q] of content.matchAll(QUOTED)) for (const t of tokens(q)) wholeQuotedIn[wholeOf(t.whole)] = call;
  for (const e of exclude) termExcludedIn[termOf(e)] = call;
  const candidates: number[] = [];
  const note = (t: number, code: number) => {
    if (t < 0 || termExcludedIn[t] === call) return;
    if (termSeen[t] !== call) {
      termSeen[t] = call;
      termCode[t] = code;
      termCount[t] = 1;
      termFirst[t] = candidates.length;
      candidates.push(t);
    } else {
      termCount[t] = termCount[t]! + 1;
      termCode[t] = termCode[t]! | code;
    }
  };
  scanner.scan(content, (w, start, end) => {
    const code = wordCode[w]! | (wholeQuotedIn[wordWhole[w]!] === call ? 1 : 0);
    if (end - start > CONTENT_TERM_MAX) {
      // A run of characters this long (a hash, base64, a minified line) is no search key, and would
      // not fit PostgreSQL's tsvector (2047 bytes a word): the content's other terms speak for it.
      // Its parts may still be words.
      if (wholeLength[wordWhole[w]!]! <= CONTENT_TERM_MAX) note(wordTerm[w]!, code);
      if (wordPartCount[w]! > 0)
        for (const p of token(content.slice(start, end)).parts) if (p.length <= CONTENT_TERM_MAX) note(keptTerm(p), 0);
      return;
    }
    // Most words: a kept analysis, and whether the content quotes them.
    note(wordTerm[w]!, code);
    // A compound's parts are ordinary words: they rank by how often the content uses them.
    for (let p = wordParts[w]!, end = p + wordPartCount[w]!; p < end; p++) note(parts[p]!, 0);
  });
  // The best `max` in order, kept as they come (a note has hundreds of words; a sort of all of them cost more than the rest).
  const best: number[] = [];
  for (const c of candidates) keepBest(best, c, max, ranksBefore);
  return best.map((t) => termText[t]!);
}

/**
 * Calls of distinctiveTerms so far: a term's counts belong to the call its `termSeen` names. The
 * stamps only grow, so what a number's columns held before a restart (bound) never matches.
 */
let calls = 0;

/** Content term order: code-like first, then used more often, then longer, then earlier (`first` is unique: a total order). */
function ranksBefore(a: number, b: number): boolean {
  if (termCode[a] !== termCode[b]) return termCode[a] === 1;
  if (termCount[a] !== termCount[b]) return termCount[a]! > termCount[b]!;
  if (termLength[a] !== termLength[b]) return termLength[a]! > termLength[b]!;
  return termFirst[a]! < termFirst[b]!;
}
