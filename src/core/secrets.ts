import { SecretError } from './errors';

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
    kind: 'a password inside a URL',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"]+:([^\s@/'"]+)@[^\s/'"]+/i,
    accept: (m) => isPlaceholder(m[1] ?? ''),
  },
];

/** The first secret found in `text`: its kind and 1-based line, or undefined. */
export function findSecret(text: string): { kind: string; line: number } | undefined {
  for (const p of PATTERNS) {
    const re = new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : p.re.flags + 'g');
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (p.accept?.(m)) continue;
      const line = text.slice(0, m.index).split('\n').length;
      return { kind: p.kind, line };
    }
  }
  return undefined;
}

/** Throws a SecretError naming the field and the kind of secret when `text` holds one. */
export function assertNoSecret(field: string, text: string): void {
  const found = findSecret(text);
  if (found) throw new SecretError(field, found.kind, found.line);
}
