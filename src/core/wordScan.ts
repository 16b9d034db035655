import { FNV_OFFSET, FNV_PRIME } from './fnv';
import { room } from './typedArrays';

/**
 * The words of a text, found by walking its characters, each given a value made once per
 * distinct word and kept in a two-generation table (as generations.ts keeps its values). A word
 * is what text.ts's TOKEN matches: letters and digits (Unicode's L and N), possibly joined by runs
 * of `-`, `.` or `_` that a letter or digit follows; the tests compare the two over every kind of
 * character. Opening a store from its journal alone analyses every memory's content, and there
 * a match, a string per word and that string's hash to find its kept analysis cost most of the
 * open: here a word already in the table costs a comparison of its characters, and nothing is
 * allocated for it.
 */

// Read once: the scan's loop then uses this module's own constants.
const OFFSET = FNV_OFFSET;
const PRIME = FNV_PRIME;

/** 1 for an ASCII letter or digit. */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;

const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
/** Whether a character of the Basic Multilingual Plane is a letter or digit: 0 not asked yet, 1 yes, 2 no. */
let bmpWord: Uint8Array | undefined;

/** Code units taken by the letter or digit at `i`: 1, 2 (a surrogate pair), or 0 when not one. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD[c]!;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return WORD_CHARACTER.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  bmpWord ??= new Uint8Array(0x10000);
  let known = bmpWord[c]!;
  if (known === 0) bmpWord[c] = known = WORD_CHARACTER.test(String.fromCharCode(c)) ? 1 : 2;
  return known === 1 ? 1 : 0;
}

function isJoiner(c: number): boolean {
  return c === 45 || c === 46 || c === 95; // - . _
}

/**
 * An open-addressing table of words by their characters' FNV-1a hash. A slot is four numbers
 * side by side (hash, length, where its characters start, the word's number), so a probe reads
 * one cache line, and the table grows with the words it holds (a store's vocabulary is often a
 * few thousand words: they stay in the processor's cache). The characters are kept in one
 * array: comparing with them costs less than with strings sliced from the texts, and keeps no
 * text alive.
 */
class WordTable {
  private slots = new Int32Array(1024 * 4);
  private mask = 1023;
  private chars = new Uint16Array(1 << 14);
  private used = 0;
  count = 0;

  /** The slot holding text[start, end), or the empty slot where it would go (a word is never empty). */
  slot(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    const { chars, slots, mask } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const s = at << 2;
      const kept = slots[s + 1]!;
      if (kept === 0) return at;
      if (kept !== length || slots[s] !== hash) continue;
      let i = start;
      let p = slots[s + 2]!;
      while (i < end && chars[p] === text.charCodeAt(i)) {
        i++;
        p++;
      }
      if (i === end) return at;
    }
  }

  /** The number of the word in slot `at`; -1 when the slot is empty. */
  numberAt(at: number): number {
    const s = at << 2;
    return this.slots[s + 1] === 0 ? -1 : this.slots[s + 3]!;
  }

  /** Puts a word in slot `at` (from slot()); returns false, putting nothing, when the table grew instead: ask slot() again. */
  put(at: number, text: string, start: number, end: number, hash: number, word: number): boolean {
    if (this.count * 2 >= this.mask) {
      this.grow();
      return false;
    }
    const length = end - start;
    this.chars = room(this.chars, this.used + length - 1);
    const s = at << 2;
    this.slots[s] = hash;
    this.slots[s + 1] = length;
    this.slots[s + 2] = this.used;
    this.slots[s + 3] = word;
    for (let i = start; i < end; i++) this.chars[this.used++] = text.charCodeAt(i);
    this.count++;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let s = 0; s < old.length; s += 4) {
      if (old[s + 1] === 0) continue;
      let at = old[s]! & this.mask;
      while (this.slots[(at << 2) + 1] !== 0) at = (at + 1) & this.mask;
      this.slots.set(old.subarray(s, s + 4), at << 2);
    }
  }
}

/**
 * Walks texts word by word, giving each word the number `make` gave it when it was first met
 * (the caller keeps what a number stands for).
 */
export class WordScanner {
  private young = new WordTable();
  private old: WordTable | undefined;

  /**
   * @param size words kept per generation
   * @param make a word's number (0 or more), from the word as written
   * @param keepMax longest word kept, in code units (longer ones, hashes or base64, are made every time)
   */
  constructor(
    private readonly size: number,
    private readonly make: (raw: string) => number,
    private readonly keepMax: number,
  ) {}

  /** Forgets every word (their numbers were given from state the caller has reset). */
  clear(): void {
    this.young = new WordTable();
    this.old = undefined;
  }

  /**
   * Calls `visit` with each word of `text` in order: its number, and where it stands. Each code
   * unit of a word is hashed (FNV-1a) as it is taken, and a run of ASCII letters and digits is
   * taken in a loop of its own: most words are that, and a second pass over them cost a fifth
   * of the scan.
   */
  scan(text: string, visit: (word: number, start: number, end: number) => void): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c < 128 ? ASCII_WORD[c] === 0 : wordCharAt(text, i) === 0) {
        i++;
        continue;
      }
      const start = i;
      let hash = OFFSET;
      for (;;) {
        // c, at i, is a letter or digit
        if (c < 128) {
          hash = Math.imul(hash ^ c, PRIME);
          i++;
          while (i < n && (c = text.charCodeAt(i)) < 128 && ASCII_WORD[c] === 1) {
            hash = Math.imul(hash ^ c, PRIME);
            i++;
          }
          if (i === n) break;
          // c, at i, is not an ASCII letter or digit
        } else {
          const units = wordCharAt(text, i);
          hash = Math.imul(hash ^ c, PRIME);
          if (units === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), PRIME);
          i += units;
          if (i === n) break;
          c = text.charCodeAt(i);
        }
        if (c < 128 ? ASCII_WORD[c] === 1 : wordCharAt(text, i) !== 0) continue;
        if (!isJoiner(c)) break;
        // joiners, taken when a letter or digit follows them
        let j = i + 1;
        while (j < n && isJoiner(text.charCodeAt(j))) j++;
        if (j === n || wordCharAt(text, j) === 0) break;
        for (; i < j; i++) hash = Math.imul(hash ^ text.charCodeAt(i), PRIME);
        c = text.charCodeAt(i);
      }
      visit(this.valueOf(text, start, i, hash), start, i);
    }
  }

  private valueOf(text: string, start: number, end: number, hash: number): number {
    let at = this.young.slot(text, start, end, hash);
    let word = this.young.numberAt(at);
    if (word >= 0) return word;
    if (this.old !== undefined) word = this.old.numberAt(this.old.slot(text, start, end, hash));
    if (word < 0) {
      word = this.make(text.slice(start, end));
      if (end - start > this.keepMax) return word;
    }
    if (this.young.count >= this.size) {
      this.old = this.young;
      this.young = new WordTable();
      at = this.young.slot(text, start, end, hash);
    }
    while (!this.young.put(at, text, start, end, hash, word)) at = this.young.slot(text, start, end, hash);
    return word;
  }
}
