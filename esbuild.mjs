// Bundles the extension and the CLI into dist/ and copies sql.js's .wasm next to them.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, chmodSync } from 'node:fs';
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
  external: ['vscode'],
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  { ...common, entryPoints: ['src/cli/index.ts'], outfile: 'dist/cli.js' },
];

mkdirSync('dist', { recursive: true });
copyFileSync(join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  chmodSync('dist/cli.js', 0o755);
}
