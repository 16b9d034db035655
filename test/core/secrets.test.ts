import { strict as assert } from 'node:assert';
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
});
