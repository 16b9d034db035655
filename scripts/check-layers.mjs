// Enforces the dependency rule (docs/ARCHITECTURE.md): the domain never imports vscode or a
// driver; only the VS Code edge imports vscode; only entry points pick a store implementation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.ts')) files.push(relative(root, p).split(sep).join('/'));
  }
})(join(root, 'src'));

const DRIVERS = ['sql.js', 'pg', 'proper-lockfile', 'node:fs', 'fs', 'node:child_process', 'child_process'];
const rules = [
  { files: /^src\/core\//, forbid: (m) => m === 'vscode' || DRIVERS.includes(m) || /\/store\/(?!store$)/.test(m) || /\/(cli|vscode|platform)\//.test(m), why: 'the domain imports no vscode, no driver, no file system, and only the Store interface' },
  { files: /^src\/store\//, forbid: (m) => m === 'vscode' || /\/(cli|vscode)\//.test(m) || /extension$/.test(m), why: 'stores do not import vscode or the adapters' },
  { files: /^src\/(cli|platform)\//, forbid: (m) => m === 'vscode', why: 'the CLI and platform helpers run without VS Code' },
  { files: /^src\/(?!extension\.ts$|vscode\/|cli\/main\.ts$|platform\/openStore\.ts$)/, forbid: (m) => /store\/(sqljs\/sqljsStore|postgres\/pgStore)$/.test(m), why: 'only entry points (and the CLI\'s openStore) choose a store implementation' },
];

const problems = [];
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(['"]([^'"]+)['"]\)/gm)) {
    if (m[1]) continue; // type-only imports carry no runtime dependency
    const spec = m[2] ?? m[3];
    for (const r of rules) if (r.files.test(file) && r.forbid(spec)) problems.push(`${file}: imports "${spec}" — ${r.why}`);
  }
}
if (problems.length) {
  console.error(`Layer check failed:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`Layer check: ${files.length} files follow the dependency rule.`);
