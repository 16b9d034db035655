import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretError, ValidationError } from '../../src/core/errors';
import { assertNoSecret, findSecret, unstorableText } from '../../src/core/secrets';

// Test secrets are assembled at run time so the repository itself holds none.
const j = (...parts: string[]) => parts.join('');

const SAMPLES: Array<[string, string]> = [
  ['a private key block', j('-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----')],
  ['a private key block', j('-----BEGIN ', 'OPENSSH PRIVATE KEY-----')],
  ['an AWS access key id', j('AKIA', 'IOSFODNN7EXAMPLQ')],
  ['an AWS secret access key', j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')],
  ['a GitHub token', j('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')],
  ['a GitHub token', j('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz')],
  ['a GitLab token', j('glpat-', 'xYz1234567890abcdefGH')],
  ['a Slack token', j('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKl')],
  ['an OpenAI or Anthropic API key', j('sk-', 'proj-abcdefghijklmnopqrstuvwxyz012345')],
  ['an OpenAI or Anthropic API key', j('sk-', 'ant-api03-abcdefghijklmnopqrstuvwxyz')],
  ['a JSON Web Token', j('eyJhbGciOiJIUzI1NiJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')],
  ['a password inside a URL', j('postgres://app:', 'S3cr3t-p4ss@db.internal:5432/app')],
  ['a Google API key', j('AIza', 'SyA1234567890abcdefghijklmnopqrstuv')],
];

describe('secrets', () => {
  for (const [kind, text] of SAMPLES) {
    it(`detects ${kind} (${text.slice(0, 12)}…)`, () => {
      assert.equal(findSecret(`some text\n${text}\nmore`)?.kind, kind);
    });
  }

  it('names the field, kind and line but never echoes the secret', () => {
    const secret = j('ghp_', 'Z'.repeat(36));
    try {
      assertNoSecret('content', `line one\nline two has ${secret}`);
      assert.fail('expected a SecretError');
    } catch (err) {
      assert.ok(err instanceof SecretError);
      assert.equal(err.field, 'content');
      assert.equal(err.line, 2);
      assert.match(err.message, /content: line 2 contains what looks like a GitHub token/);
      assert.ok(!err.message.includes(secret) && !err.message.includes('ZZZZ'));
    }
  });

  it('lets obvious placeholders and ordinary prose and code through', () => {
    for (const ok of [
      'postgres://user:<password>@localhost/db',
      'postgres://app:${PGPASSWORD}@db:5432/app',
      'https://user:****@example.com',
      'https://example.com/path?x=1',
      'Set GITHUB_TOKEN in the CI secrets; never commit it.',
      'The key is sk-short',
      'const token = process.env.NPM_TOKEN;',
      'Use ssh-keygen -t ed25519 to create a key; the public key starts with ssh-ed25519.',
    ]) {
      assert.equal(findSecret(ok), undefined, ok);
    }
  });

  it('refuses text the stores cannot keep (NUL, half a surrogate pair) as a ValidationError naming the field and line', () => {
    assert.equal(unstorableText('plain text, an emoji 🚀, a pair \uD83D\uDE00'), undefined);
    assert.match(unstorableText('ok\nnul \u0000 here') ?? '', /^line 2 contains a NUL character \(\\u0000\)/);
    assert.match(unstorableText('high \uD83D alone') ?? '', /^line 1 contains half of a UTF-16 surrogate pair \(\\uD83D\)/);
    assert.match(unstorableText('\uDE00 low first') ?? '', /\(\\uDE00\)/);
    assert.match(unstorableText('\uD83D\uDE00\uDE00 one low too many') ?? '', /\(\\uDE00\)/);
    assert.throws(
      () => assertNoSecret('content', 'a\u0000b'),
      (e: unknown) => e instanceof ValidationError && e.field === 'content' && /^content: line 1 contains a NUL/.test(e.message),
    );
  });

  it('refuses a password, secret, token or key assigned a literal value, naming the kind and line, never the value', () => {
    const text = 'Fixed the login on staging.\npassword: Sup3rS3cret!';
    assert.deepEqual(findSecret(text), { kind: 'a password or key assigned in the text', line: 2 });
    assert.throws(
      () => assertNoSecret('content', text),
      (e: unknown) => e instanceof SecretError && e.line === 2 && !e.message.includes('Sup3rS3cret'),
    );
  });

  it('lets prose, references, types and placeholders next to such keys through', () => {
    for (const ok of [
      'password: required',
      'The password must be at least 12 characters.',
      'const password = process.env.DB_PASSWORD;',
      'password?: string',
      'password: Optional[str] = None',
      'max_tokens: 4000',
      'token: ${{ secrets.GITHUB_TOKEN }}',
      'password: "<your password>"',
      'client_secret: your-client-secret-here',
      'api_key = os.getenv("API_KEY")',
      'password: !vault |',
    ]) {
      assert.equal(findSecret(ok), undefined, ok);
    }
  });

  // The corpora (test/data/secrets): credentials in the forms people paste them (YAML, .env, JSON,
  // shell, URLs, headers, command lines), and ordinary engineering notes that mention passwords,
  // tokens and keys in prose and code. One text per line, "\n" for a newline.
  const corpus = (file: string) =>
    fs
      .readFileSync(path.join(__dirname, '..', 'data', 'secrets', file), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.replace(/\\n/g, '\n'));

  it('refuses at least 95 % of the secret-bearing corpus (at least 60 texts)', () => {
    const texts = corpus('with-secrets.txt');
    assert.ok(texts.length >= 60, `${texts.length} texts`);
    const missed = texts.filter((t) => findSecret(t) === undefined);
    assert.ok(missed.length <= texts.length * 0.05, `missed ${missed.length} of ${texts.length}:\n${missed.join('\n')}`);
  });

  it('refuses none of 200+ ordinary engineering notes, nor any memory of the evaluation set', () => {
    const notes = corpus('ordinary-notes.txt');
    assert.ok(notes.length >= 200, `${notes.length} notes`);
    const evalSet = fs
      .readFileSync(path.join(__dirname, '..', 'data', 'eval', 'memories.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { description: string; tags: string[]; content: string });
    const texts = [...notes, ...evalSet.flatMap((m) => [m.description, m.content, ...m.tags])];
    const refused = texts.filter((t) => findSecret(t) !== undefined);
    assert.deepEqual(refused, []);
  });
});
