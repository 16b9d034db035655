import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { asFlags } from '../../src/cli/main';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** A refused command: exit 2 and one line on stderr. */
function refusal(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com' },
  });
  assert.equal(r.status, 2, `expected exit 2, got ${r.status}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  return r.stderr;
}

describe('CLI refusals in the words of the command line (dist/cli.js in a child process)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it("names a field by the flag the person typed, not the contract's camelCase name", () => {
    const store = tmpDir();
    const past = refusal([
      '--store',
      store,
      'fact',
      'assert',
      '--subject',
      'billing',
      '--predicate',
      'uses',
      '--object',
      'pg',
      '--source',
      'wiki',
      '--confidence',
      '0.5',
      '--valid-until',
      '2020-01-01T00:00:00Z',
    ]);
    assert.match(past, /--valid-until: \(2020-01-01T00:00:00\.000Z\) must be later than --observed-at /);
    assert.doesNotMatch(past, /validUntil|observedAt/);
    const small = refusal(['--store', store, 'context', 'the billing service', '--max-tokens', '5']);
    assert.match(small, /--max-tokens: /);
    assert.doesNotMatch(small, /maxTokens/);
  });

  it("states zod's default rules in our words", () => {
    const store = tmpDir();
    const r = refusal(['--store', store, 'list', '--limit', '0']);
    assert.match(r, /^agent-memory: --limit: must be at least 1$/m);
    assert.doesNotMatch(r, /Too small|Too big|Invalid input|expected number/);
  });

  it('maps only fields that are flags of the command: camelCase names anywhere, plain words where a field is named', () => {
    assert.equal(asFlags('validUntil: has passed; observedAt: later', ['valid-until']), '--valid-until: has passed; observedAt: later');
    assert.equal(asFlags('x must follow observedAt (then)', ['observed-at']), 'x must follow --observed-at (then)');
    assert.equal(asFlags('tags[2]: not a tag', ['tags']), '--tags[2]: not a tag');
    assert.equal(asFlags('13 tags given; tags: the limit is 12', ['tags']), '13 tags given; --tags: the limit is 12');
  });
});
