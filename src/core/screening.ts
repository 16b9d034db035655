/**
 * Screening of memory text that a later agent will read. A memory is data, but a repository
 * can ship memories written to steer the agent that reads them. Two checks, as secrets.ts has:
 *
 * - invisible characters (bidirectional controls, zero-width characters, Unicode tag
 *   characters, terminal controls) are refused: they hide or reorder text, so a person
 *   reviewing the memory does not see what the model reads;
 * - text that addresses the agent (override phrasing, role markers, fetch-and-run commands,
 *   hidden comments, exfiltration links) is flagged, never refused: the reasons go to the
 *   person who reviews the write and to the model that reads the memory later.
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

// ---- instruction-like text

/**
 * A rule for text that addresses the reading agent: the reason shown, and its patterns. `needs`
 * matches every text any of the patterns can match (a word each of them requires): checked first,
 * it spares compiling the patterns (V8 compiles a regular expression at its first use, about 0.7 ms
 * each here) for text that cannot match them, e.g. the few short descriptions of a one-shot search.
 */
interface InstructionRule {
  reason: string;
  needs: RegExp;
  patterns: RegExp[];
}

/** Words for the reading agent: what it is, and the names of the assistants people address. */
const AGENT = String.raw`(?:ai|a\.i\.|llms?|large language models?|language models?|(?:(?:ai|code|coding|programming|autonomous|software)\s+)*(?:assistants?|agents?)|automated [\w ]{0,30}?(?:software|system|tool|reviewer|analysis)|bots?|chatbots?|copilot|claude|chatgpt|gpt(?:-?\d\w*)?|gemini|bard|bing|cursor|devin|codex|duo|windsurf|cline|jules|kiro|amp|aider|tabnine|codeium)`;
const CREDENTIAL_FILE = String.raw`(?:~\/\.ssh\/(?:id_\w+\b(?!\.pub)|\*)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws\/credentials|~\/\.netrc|\/etc\/shadow|\/etc\/passwd|\bmcp\.json\b|wallet\.dat)`;

export const INSTRUCTION_RULES: readonly InstructionRule[] = [
  {
    reason: 'asks to ignore earlier instructions',
    needs: /ignor|disregard|forget|bypass|overr|discard|abandon|neglect|follow|instruction/i,
    patterns: [
      // ignore / disregard / forget (all) (the|your) previous|prior|above|system … instructions|rules|prompt …
      new RegExp(
        String.raw`\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|bypass|override|overrule|discard|abandon|neglect|do not follow|don't follow|stop following|no longer follow)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+|their\s+)?(?:(?:previous|prior|above|earlier|preceding|former|foregoing|original|initial|old|existing|system|safety|developer|default|current|other|given|preset)\s+|(?:previous|prior|above)[-\s]\w+\s+)+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions?|directives?|guidelines|commands?|context|messages?|guidance|constraints|orders|polic(?:y|ies)|restrictions|programming|tasks?)\b`,
        'i',
      ),
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|all)\s+(?:\w+\s+)?(?:instructions|system prompt|prompt|rules|guidelines|programming|training|directives|restrictions)\b`,
        'i',
      ),
      /\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:(?:that\s+)?(?:is\s+|was\s+)?(?:above|before|previously|prior|earlier)|you(?:'ve| have)? (?:been|were) told|you know|(?:that\s+)?came before)/i,
      /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|preceding|foregoing)\s*(?:and\b|[,.;:!])/i,
      /^\s*(?:[#*>\-\s]*)(?:new|updated|revised|real|actual|true|secret|hidden|override)\s+(?:system\s+)?instructions?\s*[:\-\u2014]/im,
    ],
  },
  {
    reason: 'addresses the AI agent directly',
    needs:
      /\b(?:ai|a\.i|llm|language model|assistant|agent|automated|bot|chatbot|copilot|claude|chatgpt|gpt|gemini|bard|bing|cursor|devin|codex|duo|windsurf|cline|jules|kiro|amp|aider|tabnine|codeium)|from now on/i,
    patterns: [
      new RegExp(
        String.raw`\b(?:note|message|instructions?|attention|reminder|directive|request)s?\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?${AGENT}(?:\s+${AGENT})?\s*[:,.!\u2014)=-]`,
        'i',
      ),
      new RegExp(String.raw`\b(?:if|when|since|because)\s+you(?:\s+are|'re)\s+(?:an?\s+|the\s+)?${AGENT}\b`, 'i'),
      new RegExp(String.raw`\b(?:dear|hey|hi|hello|attention|attn|psst)[\s,:]+(?:the\s+)?${AGENT}\s*[,:!.]`, 'i'),
      new RegExp(
        String.raw`(?:^|[.!?]\s+)${AGENT}\s*[,:]\s*(?:you|please|ignore|do|always|never|from now|before|when|stop|execute|run|make sure|remember)\b`,
        'im',
      ),
      new RegExp(
        String.raw`\byou(?:\s+are|'re)\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}${AGENT}(?:\s+(?:with|that|who|whose|tasked|designed|built|created|working)\b|[.,:;]|$)`,
        'im',
      ),
      new RegExp(String.raw`\bas an?\s+${AGENT}\s*,?\s+(?:you|your)\b`, 'i'),
      /\bfrom now on,?\s+you\s+(?:are|will|must|should|shall|have to|need to|may only)\b/i,
    ],
  },
  {
    reason: 'poses as a system or chat-role message',
    needs: /[<[]|system|assistant|human/i,
    patterns: [
      /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\|>/i,
      /\[\/?INST\]|<<\/?SYS>>/,
      /<\/?(?:system|system[-_]prompt|system[-_]message|sys|instructions?|important|admin|developer|assistant|user_query|user_instructions)(?:\s[^>]*)?>/i,
      /^\s*(?:\[(?:system|assistant)\](?:\(#[\w-]+\))?|\((?:system|assistant)\)|system\s+(?:override|message|prompt|notice|instructions?|update|alert)\s*:)/im,
      /\bSYSTEM\s*(?:OVERRIDE|MESSAGE|PROMPT|NOTICE|INSTRUCTIONS?|UPDATE|ALERT)?\s*:\s/,
      /^\s*(?:Human|Assistant)\s*:/m,
    ],
  },
  {
    reason: 'tells the agent to fetch and run code',
    needs: /curl|wget|\biwr|\birm|invoke-|base64|eval|\biex|powershell|download|fetch|http/i,
    patterns: [
      /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\w+=\S*\s+)*(?:(?:ba|z|da|k|fi)?sh|python[23]?|node|perl|ruby|php|iex|invoke-expression|powershell|pwsh)\b/i,
      /\b(?:(?:ba|z)?sh|source|\.|eval)\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b/i,
      /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python[23]?|node|perl)\b/i,
      /\beval\s*\(\s*(?:atob|Buffer\.from|unescape|decodeURIComponent)\s*\(/i,
      /\biex\s*\(?\s*(?:\(?\s*new-object\s+net\.webclient|iwr|irm|invoke-webrequest|invoke-restmethod)/i,
      /\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{16,}/i,
      /\b(?:download|fetch)\s+(?:and|then)\s+(?:run|execute)\b/i,
      /\b(?:fetch|load|read|retrieve|visit|download|get)\b[^\n]{0,40}https?:\/\/\S+[^\n]{0,40}?\b(?:and|then)\s+(?:follow|obey|execute|carry out)\b/i,
    ],
  },
  {
    reason: 'hides text from a person reading it',
    needs: /<!--|\]:|\\color|decode|style/i,
    patterns: [
      // An HTML comment that holds prose (not `<!-- prettier-ignore -->`): rendered Markdown does not show it.
      /<!--(?:(?!-->)[\s\S])*?(?:[A-Za-z]{2,}[^A-Za-z-]+){4}(?:(?!-->)[\s\S])*?-->/,
      /^\s*\[(?:\/\/|comment|_|hidden)\]:\s*[#<]/im,
      /\\color\{(?:white|#fff(?:fff)?)\}/i,
      // Encoded text the reader is told to decode and obey.
      /\bdecode\b[^\n]{0,60}?\b(?:and|then)\s+(?:follow|obey|execute|run|do)\b/i,
      /<[a-z][\w-]*\s[^>]*style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|opacity\s*:\s*0(?:\.0+)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?|transparent)\b)/i,
    ],
  },
  {
    reason: 'links an image or URL that would carry data out',
    needs: /http|url|link|image|query|parameter/i,
    patterns: [
      // A Markdown image (or a reference one's target) whose query is a slot to fill with data.
      /!\[[^\]\n]*\]\(\s*<?https?:\/\/[^)\s]*\?(?:[^)\s]*=)?(?:\{|<|\$|\[|%7B|%3C|\.\.\.|\u2026|(?:data|secret|secrets|token|key|info|history|chat|conversation|context|summary|password|creds?|credentials|payload|env|memory|prompt|message|content|output|q)\b)/i,
      /^\s*\[[^\]\n]+\]:\s*<?https?:\/\/\S*\?\S*=(?:\{|<|\$|\[|%7B|%3C|\.\.\.|\u2026)/im,
      /\b(?:render|display|show|output|include|print|emit|insert|add)\s+(?:this|the following|an?|the)\s+(?:markdown\s+)?(?:image|img)\b[^\n]{0,120}https?:\/\//i,
      /\b(?:append|add|include|encode|put|embed|insert|attach|replace)\b[^\n.]{0,60}\b(?:conversation|chat history|previous messages|secrets?|credentials?|api keys?|tokens?|passwords?|environment variables|env vars|private keys?|user'?s? (?:data|info\w*|messages?|email|address|name))\b[^\n.]{0,40}\b(?:to|into|in|as)\s+(?:the\s+|a\s+|this\s+)?(?:url|link|image(?:\s+url)?|query(?:\s+string)?|query parameter|\w+ parameter)\b/i,
    ],
  },
  {
    reason: 'asks to keep something from the user',
    needs: /not\b|n't|never|without|no need|secretly|silently|covertly|quietly/i,
    patterns: [
      /\b(?:do not|don't|never|must not|should not|without)\s+(?:tell|telling|inform|informing|notify|notifying|let|letting|alert|alerting|warn|warning|ask|asking)\s+(?:the\s+)?(?:user|human|developer|operator)s?\s+(?:about|of|know|that|this|it)\b/i,
      /\b(?:do not|don't|never|must not|should not|without|no need to)\s+(?:mention|mentioning|reveal|revealing|disclose|disclosing|acknowledge|acknowledging|report|reporting|explain|explaining|show|showing)\s+(?:this|these|that|it|them|the\s+(?:instructions?|changes?|steps?|request|file|addition|script|line|code))\s+(?:to\s+the\s+(?:user|human|developer)|in\s+(?:your|the|any)\s+(?:response|reply|answer|output|summary|explanation|message|chat))/i,
      /\b(?:do not|don't|never)\s+(?:mention|reveal|disclose|acknowledge)\s+(?:these|this|the(?:se)?)\s+(?:instructions?|message|note|rules?)\b/i,
      /\b(?:secretly|silently|covertly|quietly)\s+(?:add|insert|include|send|upload|post|exfiltrate|append|execute|run|install|modify|replace)\b(?!\w)[^\n]{0,80}\b(?:without|do not|don't|so that the user)\b/i,
      /\b(?:the\s+)?user\s+(?:must|should|will)\s+not\s+(?:know|see|notice|be told)\b/i,
    ],
  },
  {
    reason: 'asks to reveal the system prompt',
    needs: /system|instruction|prompt/i,
    patterns: [
      /\b(?:reveal|print|show|output|repeat|display|tell me|leak|dump|share|give me|write out|spell out|recite|translate|summari[sz]e)\b[^\n]{0,30}?\b(?:your|the)\s+(?:(?:full|entire|complete|original|initial|hidden|secret|exact|verbatim)\s+)*(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|instructions\s+(?:above|you were given)|prompt\s+above|original\s+prompt|pre-?prompt)\b/i,
    ],
  },
  {
    reason: "tries to lift the agent's restrictions",
    needs:
      /anything now|dan\s+mode|jailbr|god mode|you|not\b|pretend|imagine|\bact\s|behave|respond|roleplay|autoapprove|dangerously|yolo|trust-all-tools/i,
    patterns: [
      /\bdo anything now\b|\bDAN\s+mode\b|\bjailbr(?:oken|eak mode)\b|\bgod mode\b/i,
      /\byou(?:\s+are|'re)\s+(?:now\s+)?(?:no longer|free from|freed from|unrestricted|unfiltered|not bound)\b/i,
      /\bnot\s+(?:bound|restricted|limited)\s+by\s+(?:any\s+|the\s+|your\s+)?(?:rules|guidelines|policies|restrictions|content policy|safety)\b/i,
      /\b(?:pretend|imagine)\s+(?:to be|you are|that you are|you're)\b|\b(?:act|behave|respond)\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|evil|jailbroken|uncensored)\b|\broleplay\s+as\b/i,
      /chat\.tools\.autoApprove|["']?autoApprove["']?\s*:\s*true|--dangerously-skip-permissions|--dangerously-bypass-approvals\w*|--yolo\b|\byolo mode\b|--trust-all-tools\b/i,
    ],
  },
  {
    reason: 'asks to read or send credential files',
    needs:
      /\.ssh\/|id_|\.aws\/credentials|\.netrc|\/etc\/(?:shadow|passwd)|mcp\.json|wallet\.dat|\$\(|\b(?:send|post|upload|exfiltrate|transmit|forward|leak|beacon)\s/i,
    patterns: [
      new RegExp(
        String.raw`\b(?:read|cat|open|type|print|dump|get|fetch|collect|gather|grab|copy|exfiltrate|steal|include|pass|send|upload|post|attach|append|concatenate)\b[^\n]{0,60}?${CREDENTIAL_FILE}[^\n]{0,100}?\b(?:pass|send|upload|post|include|append|attach|put|add|sidenote|parameter|argument|https?:\/\/|to\s+(?:the\s+|an?\s+|my\s+|our\s+)?(?:server|endpoint|webhook|url|attacker|external|remote|address|email))`,
        'i',
      ),
      new RegExp(
        String.raw`${CREDENTIAL_FILE}[^\n]{0,80}?\b(?:as|in|into)\s+(?:the\s+|an?\s+)?['"]?\w+['"]?\s+(?:argument|parameter|param|field)\b`,
        'i',
      ),
      // A secret substituted into a network command: ping $(cat .env | base64).host
      /\b(?:ping|nslookup|dig|host|curl|wget|nc)\b[^\n]*\$\([^)\n]*(?:\.env\b|id_rsa|credentials|secret|token|\.npmrc|\.netrc)/i,
      /\b(?:send|post|upload|exfiltrate|transmit|forward|leak|beacon)\s+(?:all\s+|the\s+|any\s+|every\s+|your\s+|their\s+|its\s+)*(?:[\w.-]+\s+){0,2}(?:secrets|credentials|env vars|environment variables|api keys|private keys|ssh keys|tokens|cookies|chat history|conversation|\.env(?:\s+file)?)\b[^\n]{0,60}?\b(?:to|at)\s+(?:https?:\/\/|[\w-]+\.[a-z]{2,}\/|the\s+(?:attacker|remote|external))/i,
    ],
  },
];

/**
 * Why `text` reads like instructions to an agent rather than a note: short plain reasons
 * ("asks to ignore earlier instructions"), none when it reads as a note. General rules over the
 * shape of the text, not a list of known attacks; measured in test/core/screening.test.ts.
 */
export function instructionLike(text: string): string[] {
  return INSTRUCTION_RULES.filter((r) => r.needs.test(text) && r.patterns.some((re) => re.test(text))).map((r) => r.reason);
}

/** The reasons of a memory's text (description and content; tags cannot hold a phrase), each once. */
export function screenMemory(m: { description?: string; content?: string }): string[] {
  return [...new Set([...instructionLike(m.description ?? ''), ...instructionLike(m.content ?? '')])];
}

/** `{ instructionLike: reasons }` when there are any, else `{}`: spread into an answer to mark a memory. */
export function instructionLikeField(m: { description?: string; content?: string }): { instructionLike?: string[] } {
  const reasons = screenMemory(m);
  return reasons.length ? { instructionLike: reasons } : {};
}
