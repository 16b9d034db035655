import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** Runs the bundled CLI in its own process, as a user would. */
function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com' },
  });
  assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe('CLI: paging hints and search by tags (dist/cli.js in a child process)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('the "More:" hint of list keeps --store, --project and the listing flags, and reads the next page', () => {
    const s = path.join(tmpDir(), "a store's folder");
    const ids = ['one', 'two', 'three'].map((d) =>
      cli(['--store', s, 'create', '--description', d, '--tags', 'a', '--content', 'c']).trim(),
    );
    const first = cli(['list', '--store', s, '--limit', '2']);
    const more = /^More: (.*)$/m.exec(first)?.[1];
    assert.ok(more, first);
    assert.match(more, /^agent-memory --store '.*a store'\\''s folder' list --limit 2 --cursor \S+$/);
    // The hint, run as a shell would run it, reads the rest.
    const r = spawnSync('sh', ['-c', more.replace(/^agent-memory/, `"${process.execPath}" "${CLI}"`)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^${ids[0]}  .*  one  \\[a\\]\\n$`));
  });

  it('search --tags without a keyword lists the memories that carry every one of those tags', () => {
    const s = tmpDir();
    const create = (d: string, tags: string) => cli(['--store', s, 'create', '--description', d, '--tags', tags, '--content', 'c']).trim();
    const both = create('Jest fails on ESM-only packages', 'jest,esm');
    const jest = create('Snapshot files drift on Windows line endings', 'jest,windows');
    create('Vite dev server needs esm too', 'vite,esm');
    const hits = (args: string[]) =>
      (JSON.parse(cli(['--store', s, '--json', 'search', ...args])) as Array<{ id: string }>).map((h) => h.id);
    assert.deepEqual(hits(['--tags', 'jest']).sort(), [both, jest].sort());
    assert.deepEqual(hits(['--tags', 'Jest, ESM']), [both]);
    assert.deepEqual(hits(['--tags', 'nothing-tagged']), []);
  });
});
