import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { fnv1aBytes } from '../core/fnv';
import { sha256Hex } from '../core/nodeCrypto';

/*
 * Runs the CLI's bundle with V8's compiled code kept between runs. An agent without MCP starts
 * the CLI once per operation, and compiling the bundle (about 0.9 MB) was a third of a one-shot
 * search: kept code skips it. Node 22.1 and later keep it themselves (module.enableCompileCache);
 * on older Node the bundle is compiled here through vm.Script with the cached data of the last
 * run, as Node's own cache does. Nothing here may fail a command: a cache that cannot be read or
 * written is a slower start, never an error.
 */

/** Cache files of one bundle kept side by side (other versions of the CLI on the machine). */
const KEEP = 4;

/**
 * The folder for compiled code: the user's own cache folder (XDG_CACHE_HOME, on Windows
 * LOCALAPPDATA, else ~/.cache), never a shared temporary folder, since code read from there would
 * run. Undefined when turned off (AGENT_MEMORY_NO_CODE_CACHE, or Node's NODE_DISABLE_COMPILE_CACHE).
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.AGENT_MEMORY_NO_CODE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : undefined) || path.join(os.homedir(), '.cache');
  return path.join(base, 'agent-memory', 'code-cache');
}

type EnableCompileCache = (dir: string) => { status: number };

/**
 * Runs the CommonJS file `bundle` as Node's require would (its own module, exports and require),
 * with compiled code kept in `dir` (none when undefined): Node's own compile cache when it has one.
 */
export function runBundle(bundle: string, dir: string | undefined): void {
  const enable = (Module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (dir && enable) {
    try {
      enable(dir);
    } catch {
      // A folder Node cannot use: the bundle runs compiled from scratch.
    }
    Module.createRequire(bundle)(bundle);
    return;
  }
  // The wrapper Node puts around a CommonJS file (the bundle has no `#!` line: the launcher does).
  const source = fs.readFileSync(bundle);
  const wrapped = Module.wrap(source.toString('utf8'));
  const file = dir && path.join(dir, `${path.basename(bundle)}-${cacheKey(source)}.v8`);
  const cachedData = file ? readOptional(file) : undefined;
  const script = new vm.Script(wrapped, {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  } as vm.ScriptOptions);
  // Written (when missing or refused) at exit, so the functions this run compiled, lazily as they
  // were first called, are in it.
  if (file && (!cachedData || script.cachedDataRejected)) process.once('exit', () => writeCache(file, script));
  const mod = new Module(bundle);
  mod.filename = bundle;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(bundle));
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
}

/** How a release build ends its bundle (esbuild.mjs): the SHA-256 of the bytes before this line. */
const BUILD_TAG = /\n\/\/# agent-memory-build ([0-9a-f]{64})\n$/;
/** Longer than the tag line. */
const TAG_WINDOW = 100;

/**
 * The name of a bundle's kept code, 32 hex digits: it must change with the bundle's bytes and
 * with the Node that compiled it, since V8 checks only the source's length (a stale cache of a
 * source of the same length would run the old code). A release build names its own hash in its
 * last line, so a start hashes no megabyte and loads no node:crypto; a bundle without that line
 * (a development build) is hashed here.
 */
export function cacheKey(source: Buffer, runtime = `${process.version}\0${process.arch}\0`): string {
  const tag = BUILD_TAG.exec(source.toString('latin1', Math.max(0, source.length - TAG_WINDOW)));
  if (!tag) return sha256Hex(runtime, source).slice(0, 32);
  const node = Buffer.from(runtime);
  return `${tag[1]!.slice(0, 24)}${(fnv1aBytes(node, 0, node.length) >>> 0).toString(16).padStart(8, '0')}`;
}

function readOptional(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the script's code for the next run (atomically: a reader never sees half a file), and prunes old ones. */
function writeCache(file: string, script: vm.Script): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, file);
    const prefix = path.basename(file).replace(/-[0-9a-f]+\.v8$/, '-');
    const dir = path.dirname(file);
    const old = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(prefix) && f.endsWith('.v8'))
      .map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(KEEP);
    for (const { f } of old) fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // No folder to hold it: nothing was written.
    }
  }
}
