import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../src/core/memoryService';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { CLI, cliEnv } from '../helpers/cliRun';
import { tmpDir } from '../helpers/tmp';

/** Memories in the store: their JSON listing is several times a pipe's 64 KB. */
const MEMORIES = 600;

/** A shell word for `s`. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI in a shell pipeline, its stdout a pipe into `reader` (a slow one: `(sleep 1; cat)`;
 * one that stops early: `head -c 100`), as a person or an agent's shell does. `preload` runs
 * first in the CLI's process. Returns what the reader printed, the CLI's stderr and exit code.
 */
function piped(args: string[], reader: string, preload?: string): { code: number; stdout: string; stderr: string } {
  const node = [process.execPath, ...(preload ? ['--require', preload] : []), CLI, ...args].map(q).join(' ');
  const r = spawnSync('sh', ['-c', `{ ${node}; echo "cli exit $?" >&2; } | ${reader}`], {
    encoding: 'utf8',
    env: cliEnv(),
    maxBuffer: 64 << 20,
  });
  const exit = /cli exit (\d+)\n$/.exec(r.stderr);
  assert.ok(exit, `no exit status on stderr: ${r.stderr}`);
  return { code: Number(exit[1]), stdout: r.stdout, stderr: r.stderr.slice(0, exit.index) };
}

describe('CLI output: written at once, whole for a slow reader, quiet for one that stopped (dist/cli.js in a child process)', function () {
  this.timeout(60_000);
  let root: string;
  let store: string;
  /** Makes the child's stdout non-blocking before the CLI runs, as a Node parent that shares its own stdout leaves it. */
  let nonBlocking: string;

  before(async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    root = tmpDir('cli-output-');
    store = path.join(root, 'store');
    const s = await SqlJsStore.open({ dir: store });
    const service = new MemoryService(s, { author: 'ana@example.com' });
    for (let i = 0; i < MEMORIES; i++) {
      await service.create({ description: `note ${i} on the ${'widget '.repeat(40)}build`, tags: ['build'], content: 'x' });
    }
    await s.close();
    nonBlocking = path.join(root, 'non-blocking.cjs');
    // Opening process.stdout on a pipe sets O_NONBLOCK on it (libuv), as a parent process's would.
    fs.writeFileSync(nonBlocking, 'void process.stdout;\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const args = () => ['--store', store, '--json', 'list', '--limit', String(MEMORIES)];

  it('a reader that reads late gets the whole output (the pipe full, the CLI waits)', () => {
    const r = piped(args(), '(sleep 1; cat)');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.ok(r.stdout.length > 2 * 65536, `${r.stdout.length} bytes: more than a pipe holds`);
    assert.equal((JSON.parse(r.stdout) as { items: unknown[] }).items.length, MEMORIES);
  });

  it('so does one whose pipe is non-blocking: what the pipe refuses (EAGAIN) goes through the stream, in order', () => {
    const r = piped(args(), '(sleep 1; cat)', nonBlocking);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal((JSON.parse(r.stdout) as { items: unknown[] }).items.length, MEMORIES);
  });

  it('a reader that stopped (`list | head`): exit 0, nothing on stderr', () => {
    const r = piped(args(), 'head -c 100 >/dev/null');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});
