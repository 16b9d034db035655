import { SecretError, ValidationError } from './errors';
import { invisibleCharacterProblem } from './invisibleText';

/**
 * Detection of credentials in text a person or a model wants to store. Patterns are
 * specific (prefixes and shapes that issuers document) so that ordinary prose and code
 * are not refused; a match is reported by kind and line, never by value.
 */
interface SecretPattern {
  kind: string;
  re: RegExp;
  /** Optional second look at the match, e.g. to let obvious placeholders through. */
  accept?: (match: RegExpExecArray) => boolean;
}

/** Placeholders people write instead of a real password: `<password>`, `${PGPASS}`, `****`, `xxx`. */
function isPlaceholder(value: string): boolean {
  return (
    /^(<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|\{[^}]*\}|%s|\*+|x+|\.\.\.)$/i.test(value) ||
    /^(password|passwd|pass|pwd|secret|changeme|example)$/i.test(value)
  );
}

/**
 * Values of a `password = …` style assignment that are not a secret: references (an environment
 * variable, a template, a member or a call), types and keywords, and the words people put where
 * the secret goes (`your-password-here`, `REDACTED`, `changeme`, `dummy`).
 */
function isNotALiteralSecret(value: string): boolean {
  const v = value.trim();
  return (
    v.length < 6 ||
    isPlaceholder(v) ||
    /^[$%@&*!]|^\{|^<|^\(|^\[/.test(v) || // $VAR, %VAR%, ${…}, {{…}}, <…>, ***, &anchor, *alias, !vault / !Ref tags, (…), […]
    /[()]/.test(v) || // a call: getpass(), os.getenv("X"), z.string().min(8)
    /^[A-Za-z_][\w.]*[<[]/.test(v) || // a generic type: Optional[str], Optional<String>, List<Token>
    /^(?:process\.env|os\.environ|env|ENV|secrets|vars|config|settings|self|this|req|request|args|opts|options|params)\b/.test(v) ||
    // a member path (config.db.password), not a dotted token such as a Vault token (s.Abc123Def456…)
    (/^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+$/.test(v) && !v.split('.').some((part) => /\d.*\d.*\d/.test(part))) ||
    /^(?:string|str|String|number|int|bool|boolean|bytes|Buffer|SecretStr|None|null|nil|undefined|true|false|required|optional|string\[\]|any|unknown|object|text|varchar|hidden|masked|omitted|redacted|removed|empty|none|unset|same|secret|random|generated)$/i.test(
      v,
    ) ||
    /^(?:your|my|the|some|an?)[-_ ]\w|(?:^|[-_])here$|^(?:dummy|fake|test|sample|placeholder|redacted|replace|todo|tbd|fixme|foo|bar|example)\b|(?:^|[-_])(?:example|placeholder|dummy)(?:$|[-_])/i.test(
      v,
    ) ||
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) // another variable's name: DB_PASSWORD
  );
}

/**
 * Whether the value of a key that names a credential looks like one: without spaces (prose says
 * "password: must be 8 characters"), and with a digit or a symbol, or mixed case, in its 6+
 * characters (a word such as `required` is prose; `Sup3rS3cret!` and `hunter22` are not).
 */
function looksLikeCredential(value: string): boolean {
  if (/\s/.test(value) || isNotALiteralSecret(value)) return false;
  return /\d/.test(value) || /[^A-Za-z0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value) && value.length >= 8);
}

/** A key that names a credential, ending in the word (db_password, apiKey, GITHUB_TOKEN; not max_tokens, tokenizer). */
const CREDENTIAL_KEY = String.raw`[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|signing[_-]?key|encryption[_-]?key)`;

const PATTERNS: SecretPattern[] = [
  { kind: 'a private key block', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'an AWS access key id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  {
    kind: 'an AWS secret access key',
    re: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/i,
  },
  { kind: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'an Azure storage account key', re: /AccountKey=[A-Za-z0-9+/]{40,}={0,2}/ },
  { kind: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/ },
  { kind: 'a GitLab token', re: /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { kind: 'a Slack webhook URL', re: /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+/ },
  { kind: 'an OpenAI or Anthropic API key', re: /\bsk-(?:proj-|ant-(?:api\d+-)?|svcacct-)?[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'a Stripe secret key', re: /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}\b/ },
  { kind: 'an npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    kind: 'a JSON Web Token',
    re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  },
  {
    // `password: Sup3rS3cret!`, `DB_PASSWORD=hunter22`, `"apiKey": "a8f…"`, `--password 'x9!k…'`:
    // a key that names a credential given a literal value (group 2 quoted, group 3 bare).
    kind: 'a password or key assigned in the text',
    re: new RegExp(
      String.raw`(?<![A-Za-z0-9_])(?:["']?${CREDENTIAL_KEY}["']?\s*(?::=|=>|=|:)|--${CREDENTIAL_KEY}(?:=|\s+))[ \t]*(?:(["'\`])([^"'\`\n]*)\1|([^\s,;"'\`)}\]]+))`,
      'i',
    ),
    accept: (m) => !looksLikeCredential(m[2] ?? m[3] ?? ''),
  },
  {
    // curl -u user:pass, mysql -pPass: a command line with the password in it.
    kind: 'a password on a command line',
    re: /\b(?:curl\b[^\n]*?\s(?:-u|--user)\s+["']?[^\s:"']+:([^\s"'@]+)|mysql(?:dump|admin)?\b[^\n]*?\s-p["']?([^\s"']+))/,
    accept: (m) => !looksLikeCredential(m[1] ?? m[2] ?? ''),
  },
  {
    kind: 'a bearer token',
    re: /\b(?:Bearer|Basic)\s+([A-Za-z0-9._~+/-]{20,}=*)/,
    accept: (m) => isNotALiteralSecret(m[1] ?? ''),
  },
  {
    kind: 'a password inside a URL',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"]+:([^\s@/'"]+)@[^\s/'"]+/i,
    accept: (m) => isPlaceholder(m[1] ?? ''),
  },
];

/**
 * The patterns with the `g` flag (every match is looked at: `accept` may let one through), made
 * once: every write looks at each of its fields, and each tag, with all of them.
 */
const SCANS: SecretPattern[] = PATTERNS.map((p) => ({
  ...p,
  re: new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : p.re.flags + 'g'),
}));

/** The first secret found in `text`: its kind and 1-based line, or undefined. */
export function findSecret(text: string): { kind: string; line: number } | undefined {
  for (const p of SCANS) {
    const re = p.re;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (p.accept?.(m)) continue;
      const line = text.slice(0, m.index).split('\n').length;
      return { kind: p.kind, line };
    }
  }
  return undefined;
}

/**
 * A NUL, or a UTF-16 surrogate without its other half (a string cut in the middle of an emoji,
 * or a stray `\uD83D` escape). PostgreSQL text cannot hold NUL, and neither JSON nor UTF-8 can
 * carry a lone surrogate: sql.js would keep them, PostgreSQL refuse or alter them, so a store
 * holding one could not be migrated.
 */
// eslint-disable-next-line no-control-regex -- a NUL is exactly what this finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as it is (a NUL or an unpaired surrogate, with its line), or undefined. */
export function unstorableText(text: string): string | undefined {
  const m = UNSTORABLE.exec(text);
  if (!m) return undefined;
  const line = text.slice(0, m.index).split('\n').length;
  const code = `\\u${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return m[0] === '\u0000'
    ? `line ${line} contains a NUL character (${code}), which the stores cannot keep; remove it`
    : `line ${line} contains half of a UTF-16 surrogate pair (${code}), which is not valid Unicode; send the whole character or remove it`;
}

/**
 * The check every text field of memories and of the other tiers passes before it is stored:
 * a ValidationError naming the field for text the stores cannot keep (unstorableText) or that
 * holds an invisible character (core/screening.ts), then a SecretError naming the field and the
 * kind of secret when `text` holds one.
 */
export function assertNoSecret(field: string, text: string): void {
  const problem = unstorableText(text) ?? invisibleCharacterProblem(text);
  if (problem) throw new ValidationError(field, problem);
  const found = findSecret(text);
  if (found) throw new SecretError(field, found.kind, found.line);
}
