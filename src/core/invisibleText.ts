/**
 * Invisible characters in memory text that a later agent will read (bidirectional controls,
 * zero-width characters, Unicode tag characters, terminal controls): refused, since they hide or
 * reorder text, so a person reviewing the memory does not see what the model reads. The other
 * check of such text, instructions addressed to the agent, is screening.ts's.
 */

/** Names of the invisible and control characters we refuse, for messages a person can act on. */
const NAMES: Record<number, string> = {
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
};

/** C0 and C1 controls but tab and newline; NUL is unstorableText's (core/secrets.ts), with its own message. */
const isControl = (cp: number) => (cp > 0 && cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || (cp >= 0x7f && cp <= 0x9f);
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const test = (re: RegExp, cp: number | undefined) => cp !== undefined && re.test(String.fromCodePoint(cp));
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** What may precede a joiner inside an emoji sequence: a pictograph, VS16, a skin tone. */
const EMOJI_PART = /\p{Extended_Pictographic}|\u{FE0F}|\p{Emoji_Modifier}/u;
/** Letters and marks of scripts whose spelling uses ZWJ/ZWNJ (Persian, the Indic scripts, …): not Latin, not symbols. */
const JOINING_LETTER = /(?![\p{Script=Latin}\p{Script=Common}])[\p{L}\p{M}]/u;
const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;
const IDEOGRAPH = /\p{Ideographic}/u;
const HANGUL = /\p{Script=Hangul}/u;

/**
 * Whether the code point at `i` is refused, given its neighbours. Ordinary uses are kept:
 * a ZWJ inside an emoji sequence (👩‍💻) or between letters of a script that needs it, a ZWNJ
 * between such letters (Persian), LRM/RLM/ALM in text with right-to-left letters, one variation
 * selector after a character (❤️, CJK variants), tag characters in a flag sequence (🏴 + tags +
 * CANCEL TAG), CR in CRLF. Everything else in NAMES, every C0/C1 control but tab and newline,
 * and every tag character is refused.
 */
function refused(cps: number[], i: number, hasRtl: boolean): boolean {
  const cp = cps[i]!;
  const prev = cps[i - 1];
  const next = cps[i + 1];
  if (cp === 0x0d) return next !== 0x0a;
  if (isControl(cp)) return true;
  if (cp === 0x200d)
    return !((test(EMOJI_PART, prev) && test(PICTOGRAPHIC, next)) || (test(JOINING_LETTER, prev) && test(JOINING_LETTER, next)));
  if (cp === 0x200c) return !(test(JOINING_LETTER, prev) && test(JOINING_LETTER, next));
  if (cp === 0x200e || cp === 0x200f || cp === 0x61c) return !hasRtl;
  if (cp === 0x115f || cp === 0x1160) return !(test(HANGUL, prev) || test(HANGUL, next));
  if (isVariationSelector(cp)) {
    if (prev === undefined || isVariationSelector(prev)) return true;
    return cp >= 0xe0100 && !test(IDEOGRAPH, prev);
  }
  if (isTag(cp)) {
    // A subdivision flag: U+1F3F4, tag letters and digits, U+E007F CANCEL TAG.
    let start = i;
    while (start > 0 && isTag(cps[start - 1]!)) start--;
    let end = i;
    while (end + 1 < cps.length && isTag(cps[end + 1]!)) end++;
    const run = cps.slice(start, end + 1);
    const flag =
      cps[start - 1] === 0x1f3f4 &&
      run.length >= 3 &&
      run.length <= 8 &&
      run[run.length - 1] === 0xe007f &&
      run.slice(0, -1).every((c) => (c >= 0xe0030 && c <= 0xe0039) || (c >= 0xe0061 && c <= 0xe007a));
    return !flag;
  }
  return cp in NAMES;
}

const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, '0');

function nameOf(cp: number): string {
  if (NAMES[cp]) return NAMES[cp];
  if (isTag(cp))
    return cp >= 0xe0020 && cp <= 0xe007e ? `TAG CHARACTER (an invisible "${String.fromCodePoint(cp - 0xe0000)}")` : 'TAG CHARACTER';
  if (isVariationSelector(cp)) return cp >= 0xe0100 ? `VARIATION SELECTOR-${cp - 0xe0100 + 17}` : `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  return 'CONTROL CHARACTER';
}

/** A refused character found in a text: its code point, name and 1-based position (in characters), line and column. */
export interface InvisibleCharacter {
  codePoint: string;
  name: string;
  position: number;
  line: number;
  column: number;
}

const u = (cp: number) => `\\u{${cp.toString(16)}}`;
/**
 * Every code point `refused` may refuse, whatever its neighbours: C0 and C1 controls but tab and
 * newline (CR included), the joiners and direction marks, the Hangul fillers, variation
 * selectors, tag characters, and NAMES. A text holding none is clean without a look at each
 * character: most are (a scan costs about a microsecond per character, this test a few nanoseconds).
 */
const MAY_BE_REFUSED = new RegExp(
  `[${[
    [0x01, 0x08],
    [0x0b, 0x1f],
    [0x7f, 0x9f],
    [0x61c, 0x61c],
    [0x115f, 0x1160],
    [0x200c, 0x200f],
    [0xfe00, 0xfe0f],
    [0xe0000, 0xe007f],
    [0xe0100, 0xe01ef],
    ...Object.keys(NAMES).map((k) => [Number(k), Number(k)]),
  ]
    .map(([a, b]) => (a === b ? u(a!) : `${u(a!)}-${u(b!)}`))
    .join('')}]`,
  'u',
);

/** Every refused character of `text`, in order. */
export function invisibleCharacters(text: string): InvisibleCharacter[] {
  return MAY_BE_REFUSED.test(text) ? everyInvisibleCharacter(text) : [];
}

/** invisibleCharacters looking at every character, without the quick test first (what the tests hold that test to). */
export function everyInvisibleCharacter(text: string): InvisibleCharacter[] {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const hasRtl = RTL_LETTER.test(text);
  const out: InvisibleCharacter[] = [];
  let line = 1;
  let column = 0;
  cps.forEach((cp, i) => {
    column++;
    if (refused(cps, i, hasRtl)) out.push({ codePoint: `U+${hex(cp)}`, name: nameOf(cp), position: i + 1, line, column });
    if (cp === 0x0a) {
      line++;
      column = 0;
    }
  });
  return out;
}

/**
 * Why `text` cannot be stored because of an invisible character, or undefined: the first one
 * named with its place ("U+202E RIGHT-TO-LEFT OVERRIDE at position 12"), and how many more.
 */
export function invisibleCharacterProblem(text: string): string | undefined {
  const found = invisibleCharacters(text);
  const first = found[0];
  if (!first) return undefined;
  const where = text.includes('\n') ? `at line ${first.line}, column ${first.column}` : `at position ${first.position}`;
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  return (
    `contains ${first.codePoint} ${first.name} ${where}${more}, an invisible character that can hide or reorder text ` +
    'so a reviewer does not see what an agent reads; remove it'
  );
}

/**
 * `text` with every character `invisibleCharacters` refuses written as `\u{…}`, so a terminal
 * never receives a raw control, bidi or zero-width character of memories stored before they
 * were refused. `keepNewlines: false` writes newlines as `\n` too (one-line fields).
 */
export function escapeInvisible(text: string, keepNewlines = true): string {
  const found = invisibleCharacters(text);
  if (found.length === 0 && (keepNewlines || !text.includes('\n'))) return text;
  const at = new Set(found.map((f) => f.position));
  return [...text].map((c, i) => (at.has(i + 1) ? `\\u{${hex(c.codePointAt(0)!)}}` : !keepNewlines && c === '\n' ? '\\n' : c)).join('');
}
