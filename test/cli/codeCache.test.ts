import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';
import { cacheKey } from '../../src/cli/codeCache';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const VERSION = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
/** Node 22.1 and later keep compiled code themselves; older Node goes through src/cli/codeCache.ts's own files. */
const NODE_CACHE = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** `agent-memory --version` with the cache under `xdg`: its output, which must be the version. */
function version(xdg: string, env: NodeJS.ProcessEnv = {}): void {
  const r = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg, ...env } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${VERSION}\n`);
  assert.equal(r.stderr, '');
}

describe('CLI: compiled code kept between runs (dist/cli.js in a child process)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));
  let root: string;
  beforeEach(() => (root = tmpDir('code-cache-')));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const cacheDir = () => path.join(root, 'agent-memory', 'code-cache');
  const ours = () => fs.readdirSync(cacheDir()).filter((f) => /^cli-main\.js-[0-9a-f]{32}\.v8$/.test(f));

  it("writes the bundle's code into the user's cache folder at the first run, readable by the user only, and uses it after", function () {
    version(root);
    assert.ok(fs.readdirSync(cacheDir()).length > 0, 'something is kept');
    if (NODE_CACHE) this.skip(); // Node keeps its own files there; the rest is about ours (Node 20 here and in CI)
    const [file] = ours();
    assert.ok(file, `one cache file: ${fs.readdirSync(cacheDir()).join(', ')}`);
    const full = path.join(cacheDir(), file);
    if (process.platform !== 'win32') assert.equal(fs.statSync(full).mode & 0o777, 0o600);
    const before = fs.readFileSync(full);
    assert.ok(before.length > 100_000, `${before.length} bytes of code`);
    const mtime = fs.statSync(full).mtimeMs;
    version(root);
    // V8 accepted it: a refused cache would have been written again.
    assert.equal(fs.statSync(full).mtimeMs, mtime);
    assert.deepEqual(ours(), [file]);
  });

  it('a damaged cache file is refused by V8 and written again; the command runs as usual', function () {
    if (NODE_CACHE) this.skip(); // our files only (Node 20 here and in CI)
    version(root);
    const full = path.join(cacheDir(), ours()[0]!);
    fs.writeFileSync(full, Buffer.alloc(4096, 7));
    version(root);
    const again = fs.readFileSync(full);
    assert.notDeepEqual(again, Buffer.alloc(4096, 7));
    assert.ok(again.length > 100_000);
  });

  it('keeps nothing when turned off, and runs when the cache folder cannot be made', () => {
    version(root, { AGENT_MEMORY_NO_CODE_CACHE: '1' });
    assert.equal(fs.existsSync(path.join(root, 'agent-memory')), false);
    const blocked = path.join(root, 'not-a-folder');
    fs.writeFileSync(blocked, 'a file where the cache folder would go');
    version(blocked);
    assert.equal(fs.readFileSync(blocked, 'utf8'), 'a file where the cache folder would go');
  });
});

describe('CLI: the name of kept compiled code (cacheKey)', () => {
  const tagged = (body: string, hash: string) => Buffer.from(`${body}\n//# agent-memory-build ${hash}\n`);
  const A = 'a'.repeat(64);
  const B = 'b'.repeat(64);

  it("a release build's bundle is named by the hash in its last line and by the Node that runs it, not by hashing its bytes", () => {
    const key = cacheKey(tagged('console.log(1)', A), 'v20.0.0\0x64\0');
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(key.slice(0, 24), A.slice(0, 24));
    assert.equal(cacheKey(tagged('console.log(2)', A), 'v20.0.0\0x64\0'), key, 'the tag names the bytes');
    assert.notEqual(cacheKey(tagged('console.log(1)', B), 'v20.0.0\0x64\0'), key);
    assert.notEqual(cacheKey(tagged('console.log(1)', A), 'v22.0.0\0x64\0'), key);
    assert.notEqual(cacheKey(tagged('console.log(1)', A), 'v20.0.0\0arm64\0'), key);
  });

  it('a bundle without the tag (a development build, or a tag not on its last line) is named by its bytes', () => {
    const key = cacheKey(Buffer.from('console.log(1)\n'), 'v20.0.0\0x64\0');
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.notEqual(cacheKey(Buffer.from('console.log(2)\n'), 'v20.0.0\0x64\0'), key, 'same length, other bytes');
    assert.notEqual(cacheKey(Buffer.from('console.log(1)\n'), 'v22.0.0\0x64\0'), key);
    const notLast = Buffer.from(`//# agent-memory-build ${A}\nconsole.log(1)\n`);
    assert.notEqual(cacheKey(notLast).slice(0, 24), A.slice(0, 24));
    assert.notEqual(cacheKey(notLast), cacheKey(Buffer.from(`//# agent-memory-build ${A}\nconsole.log(2)\n`)));
  });
});
