// Bundles the extension and the CLI (dist/cli.js, which runs dist/cli-main.js) into dist/ and
// copies sql.js's .wasm next to them; outside --production also the VS Code test suites (test/vscode/ → dist-test/vscode/, mocha included)
// that scripts/vscode-test/run.mjs loads into a real extension host.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const require = createRequire(import.meta.url);

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // pg loads pg-native only when asked to (we never do); it is an optional native module. tsx is
  // named only by code run from the sources (loadThreads.ts: worker threads under the tests).
  external: ['vscode', 'pg-native', 'tsx'],
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  // The CLI: a small launcher (the package's bin) that runs the bundle with V8's compiled code kept
  // between runs (src/cli/codeCache.ts).
  { ...common, entryPoints: ['src/cli/launcher.ts'], outfile: 'dist/cli.js' },
  { ...common, entryPoints: ['src/cli/index.ts'], outfile: 'dist/cli-main.js' },
  // The thread a load into an empty team database writes its heads' lines in (src/store/postgres/loadThreads.ts).
  { ...common, entryPoints: ['src/store/postgres/loadWorker.ts'], outfile: 'dist/loadWorker.js' },
];

// One file per suite next to index.js, which hands them to mocha; a packaged build needs none.
if (!production) {
  const suites = readdirSync('test/vscode')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/vscode/${f}`);
  rmSync('dist-test/vscode', { recursive: true, force: true }); // no stale suites of deleted files
  builds.push({
    ...common,
    entryPoints: ['test/vscode/index.ts', ...suites],
    outdir: 'dist-test/vscode',
    outbase: 'test/vscode',
    // Only mocha's parallel mode (not used in the host) resolves files of its own at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
}

mkdirSync('dist', { recursive: true });
copyFileSync(join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  chmodSync('dist/cli.js', 0o755);
  // A release build names its bundle's hash in its last line: the launcher keys the kept compiled
  // code by it instead of hashing the megabyte at every start (src/cli/codeCache.ts, cacheKey).
  // Not in a development build, whose bundle a person may edit by hand: that one is hashed at start.
  if (production) {
    const bundle = readFileSync('dist/cli-main.js');
    const newline = bundle[bundle.length - 1] === 0x0a ? '' : '\n';
    const hash = createHash('sha256').update(bundle).update(newline).digest('hex');
    appendFileSync('dist/cli-main.js', `${newline}//# agent-memory-build ${hash}\n`);
  }
  // One character outside ASCII (a regular expression's dash, say) makes Node read a whole bundle
  // as a two-byte string: twice the memory, and a one-shot CLI call about 15 ms slower. Write it as \u2014.
  // (Checked in the release build: a development build keeps the comments.)
  for (const file of production ? ['dist/cli-main.js', 'dist/extension.js', 'dist/loadWorker.js'] : []) {
    const text = readFileSync(file, 'utf8');
    let at = 0;
    while (at < text.length && text.charCodeAt(at) <= 0x7f) at++;
    if (at < text.length) {
      const line = text.slice(0, at).split('\n').length;
      console.error(
        `${file}:${line}: a character outside ASCII (${JSON.stringify(text.slice(Math.max(0, at - 30), at + 10))}): escape it in the source`,
      );
      process.exit(1);
    }
  }
}
