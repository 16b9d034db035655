import { strict as assert } from 'node:assert';
import { WordScanner } from '../../src/core/wordScan';
import { prng } from '../../bench/generate';

// The words text.ts analyses, as its regular expression finds them: the scanner must find the same.
const TOKEN = /[\p{L}\p{N}]+(?:[-._]+[\p{L}\p{N}]+)*/gu;

/** Pieces random texts are made of: every kind of character the walk tells apart. */
const PIECES = [
  ...'abcxyzABCXYZ0189',
  ...'-._',
  ...' \n\t,;:/\\`\'"()[]{}#+*@!?~',
  'é', // a letter outside ASCII
  'ß',
  'Ж',
  '中',
  '٣', // an Arabic-Indic digit: \p{N}
  'Ⅻ', // a Roman numeral: \p{N} (Nl)
  '\u0301', // a combining accent: \p{M}, not a letter
  '\u00a0', // no-break space
  '—',
  '\u{1d400}', // MATHEMATICAL BOLD CAPITAL A: a letter outside the BMP (a surrogate pair)
  '\u{1f600}', // an emoji: a surrogate pair that is no letter
  '\u{10340}', // GOTHIC LETTER AHSA
  '\ud800', // a lone high surrogate
  '\udc00', // a lone low surrogate
  'keep-alive',
  'node_modules',
  'getByRole',
  '..',
];

function randomText(rnd: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

/** A scanner whose words' numbers index `made`, the words as make() was given them. */
function recording(size: number, keepMax = 100): { scanner: WordScanner; made: string[] } {
  const made: string[] = [];
  return { scanner: new WordScanner(size, (raw) => made.push(raw) - 1, keepMax), made };
}

/** The words of `text` as the scanner numbered them, each checked against where it stands. */
function scanned({ scanner, made }: { scanner: WordScanner; made: string[] }, text: string): string[] {
  const out: string[] = [];
  scanner.scan(text, (word, start, end) => {
    assert.equal(made[word], text.slice(start, end), 'the number given to this word, and where it stands');
    out.push(made[word]!);
  });
  return out;
}

describe('WordScanner', () => {
  it('finds the words the regular expression finds, in every kind of text (20,000 random texts)', () => {
    const rnd = prng(17);
    const scanner = recording(50_000);
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(rnd, 1 + Math.floor(rnd() * 40));
      const expected = [...text.matchAll(TOKEN)].map((m) => m[0]);
      assert.deepEqual(scanned(scanner, text), expected, JSON.stringify(text));
    }
  });

  it('gives each word its own value while the table grows and its generations turn over', () => {
    const rnd = prng(5);
    // Six words a generation: every few words the young table becomes the old one.
    const scanner = recording(6);
    const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'x'.repeat(i % 7)}`);
    for (let i = 0; i < 2000; i++) {
      const words = Array.from({ length: 20 }, () => vocabulary[Math.floor(rnd() * (i < 1000 ? 40 : vocabulary.length))]!);
      assert.deepEqual(scanned(scanner, words.join(' ')), words);
    }
    assert.ok(scanner.made.length > 3000, 'words were made again after their generation went');

    // A table large enough keeps what it made: the same words again make nothing new.
    const big = recording(10_000);
    const text = vocabulary.join(' ');
    scanned(big, text);
    const before = big.made.length;
    assert.deepEqual(scanned(big, text), vocabulary);
    assert.equal(big.made.length, before, 'every word was kept (the table grew past 3,000 words)');
  });

  it('makes a word longer than the longest kept every time, and keeps the others', () => {
    const long = `h${'0123456789abcdef'.repeat(8)}`;
    const scanner = recording(100);
    assert.deepEqual(scanned(scanner, `${long} short ${long} short`), [long, 'short', long, 'short']);
    assert.equal(scanner.made.length, 3, 'the long word twice, the short one once');
  });

  it('makes each word once, wherever it stands and whatever characters it is made of', () => {
    // The hash is taken as the walk goes, by paths that differ with the characters (ASCII runs,
    // other letters, surrogate pairs, joiners): a word hashed another way in another place would
    // be missed in the table and made again.
    const words = ['cache', 'a-b', 'x.y_z', 'v1.2.3', 'café', 'é-ß', 'Жx', '中文', '\u{1d400}b', 'a\u{1d400}', 'node_modules', 'k8s'];
    const around = ['', ' ', '(', '-', '.', '..', ' -', '—', '\u0301', '\u{1f600}'];
    const rnd = prng(23);
    const scanner = recording(1000);
    for (let i = 0; i < 3000; i++) {
      const word = words[Math.floor(rnd() * words.length)]!;
      const text = `${around[Math.floor(rnd() * around.length)]}${word}${around[Math.floor(rnd() * around.length)]}`;
      assert.deepEqual(
        scanned(scanner, text),
        [...text.matchAll(TOKEN)].map((m) => m[0]),
        JSON.stringify(text),
      );
    }
    assert.deepEqual([...scanner.made].sort(), [...words].sort(), 'each word made once: the same word is hashed alike where it stands');
  });

  it('tells apart different words of one length and one hash (FNV-1a collisions)', () => {
    // Pairs with the same 32-bit FNV-1a hash, found by search: only their characters tell them apart.
    const pairs = [
      ['yaczfa', 'glbppa'],
      ['yzfzfa', 'geeppa'],
      ['yomzfa', 'gvlppa'],
    ];
    const fnv1a = (word: string) => [...word].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 0x811c9dc5 | 0);
    for (const [a, b] of pairs) assert.equal(fnv1a(a!), fnv1a(b!), `${a} and ${b} collide`);
    const scanner = recording(100);
    for (const [a, b] of pairs) {
      assert.deepEqual(scanned(scanner, `${a} ${b} ${a} ${b}`), [a, b, a, b]);
    }
    assert.equal(scanner.made.length, 6, 'each word made once, and kept under its own characters');
  });
});
