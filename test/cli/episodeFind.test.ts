import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function cli(store: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, '--store', store, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'ana@example.com', AGENT_MEMORY_DATABASE_URL: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(args: string[], store: string): string {
  const r = cli(store, args);
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const NODE_UPGRADE = `name: node-upgrade
description: Upgrade a service to a new Node.js major version
trigger: [upgrade a service to a new node version]
steps:
  - do: Bump the engines field and the CI image
    expect: CI runs on the new version
success_checks: [the service's tests pass on the new version]
`;

interface Found {
  items: Array<{ id: string; outcome: string; errors: string[]; resolution: string; score?: number }>;
  nextCursor: string | null;
  searchedAll: boolean;
}

describe('CLI: episode find (dist/cli.js in a child process)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('finds episodes by words and filters, prints failures with their errors and resolution, pages, and refuses bad flags', () => {
    const s = path.join(tmpDir(), '.agent-memory');
    // An episode may only cite a skill version that exists.
    const skillFile = path.join(tmpDir(), 'node-upgrade.yaml');
    fs.writeFileSync(skillFile, NODE_UPGRADE);
    ok(['skill', 'save', skillFile], s);
    const record = (args: string[]) => ok(['episode', 'record', '--source', 'commit:abc1234', ...args], s).trim();
    const failed = record([
      '--task',
      'Upgrade the payments service to Node 22',
      '--outcome',
      'failure',
      '--error',
      'ERR_REQUIRE_ESM in the payments worker',
      '--resolution',
      'Pin node-fetch to 2.x until the worker is ESM',
      '--tags',
      'node,payments',
      '--skill',
      'node-upgrade@1',
      '--timestamp',
      '2026-02-01T10:00:00Z',
    ]);
    const worked = record(['--task', 'Upgrade the ledger service to Node 22', '--outcome', 'success', '--tags', 'node']);
    record(['--task', 'Write the release notes', '--outcome', 'success']);

    const text = ok(['episode', 'find', 'upgrade', 'payments', 'to', 'node'], s);
    const lines = text.split('\n');
    assert.match(
      lines[0]!,
      new RegExp(
        `^${failed}  2026-02-01T10:00:00.000Z  failure  Upgrade the payments service to Node 22  \\(skill node-upgrade@1\\)  \\[node, payments\\]  score 1$`,
      ),
    );
    assert.equal(lines[1], '    error: ERR_REQUIRE_ESM in the payments worker');
    assert.equal(lines[2], '    resolution: Pin node-fetch to 2.x until the worker is ESM');
    assert.match(lines[3]!, new RegExp(`^${worked}  .*  success  Upgrade the ledger service to Node 22`));
    assert.doesNotMatch(text, /release notes/);

    const byError = JSON.parse(ok(['--json', 'episode', 'find', 'ERR_REQUIRE_ESM'], s)) as Found;
    assert.deepEqual(
      byError.items.map((e) => [e.id, e.resolution]),
      [[failed, 'Pin node-fetch to 2.x until the worker is ESM']],
    );
    assert.equal(byError.searchedAll, true);
    const filtered = (args: string[]) => (JSON.parse(ok(['--json', 'episode', 'find', ...args], s)) as Found).items.map((e) => e.id);
    assert.deepEqual(filtered(['--outcome', 'success', '--tags', 'node']), [worked]);
    assert.deepEqual(filtered(['--skill', 'node-upgrade']), [failed]);
    assert.deepEqual(filtered(['--until', '2026-02-02T00:00:00Z']), [failed]);
    assert.equal(filtered(['--since', '2026-02-02T00:00:00Z']).length, 2);

    const first = JSON.parse(ok(['--json', 'episode', 'find', '--limit', '2'], s)) as Found;
    assert.equal(first.items.length, 2);
    assert.ok(first.nextCursor);
    const rest = JSON.parse(ok(['--json', 'episode', 'find', '--limit', '2', '--cursor', first.nextCursor], s)) as Found;
    assert.deepEqual(
      rest.items.map((e) => e.id),
      [failed],
      'the oldest last',
    );
    assert.match(ok(['episode', 'find', '--limit', '2'], s), /… more: --cursor \S+\n$/);
    assert.equal(ok(['episode', 'find', 'pizza', 'party'], s), 'No episodes match.\n');

    const bad = cli(s, ['episode', 'find', '--outcome', 'failed', '--since', 'last week', '--limit', '99']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /outcome: is one of success, failure, partial/);
    assert.match(bad.stderr, /since: must be an ISO-8601 time/);
    assert.match(bad.stderr, /limit: .*at most 50/);
    assert.match(ok(['episode', 'find', '--help'], s), /episode find \[WORDS…\] \[--tags a,b\]/);
    assert.match(ok(['completion', 'bash'], s), /'episode'\) subs='record list find show'/);
  });
});
