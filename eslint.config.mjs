// ESLint (flat config) for src/, test/, bench/, scripts/ and the root .mjs files. Prettier owns
// formatting (.prettierrc.json); eslint-config-prettier, last, turns off the rules it would fight.
//
// The dependency rule (docs/ARCHITECTURE.md) is written here as lint rules, type imports included:
//   - src/core (the domain) imports nothing from src/store, src/platform, src/cli, src/vscode,
//     src/extension, nor vscode, a database driver, the file system or child processes;
//   - src/store imports neither vscode nor src/cli, src/vscode, src/platform, src/extension;
//   - src/platform and src/cli import neither vscode nor src/vscode;
//   - only src/extension.ts, src/vscode, src/cli and src/platform/openStore.ts import a store
//     implementation (sqljsStore, pgStore);
//   - no import cycles in src/, type imports included (local/no-import-cycle below: the cycle rule
//     of eslint-plugin-import(-x) always skips `import type`, with no option to count it).
// Folders are matched with gitignore-style patterns on the import path, so `**/store/**` needs a
// path segment `store/`: '../../store/records' is caught, '../ports/store' is not.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;
const SRC = path.join(ROOT, 'src');

// ---- local/no-import-cycle -------------------------------------------------------------------
// The graph of src/: every `import`/`export ... from`, `import type` included, `import()` and
// `import('...')` types, resolved like tsc does (tsconfig.json's options). Rebuilt when a file
// changes (checked at most once a second, so an editor session stays current). Since a file's
// result depends on other files, do not run ESLint with --cache.
const graph = { files: new Map(), checkedAt: 0, options: undefined, cache: undefined };

function tsOptions() {
  if (!graph.options) {
    const file = path.join(ROOT, 'tsconfig.json');
    const { config } = ts.readConfigFile(file, ts.sys.readFile);
    graph.options = ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
    graph.cache = ts.createModuleResolutionCache(ROOT, (f) => f, graph.options);
  }
  return graph.options;
}

function resolveImport(specifier, fromFile) {
  const r = ts.resolveModuleName(specifier, fromFile, tsOptions(), ts.sys, graph.cache).resolvedModule;
  if (!r || r.isExternalLibraryImport || r.resolvedFileName.endsWith('.d.ts')) return undefined;
  const target = path.normalize(r.resolvedFileName);
  return target.startsWith(SRC + path.sep) ? target : undefined;
}

// file → Map(target → 'value' | 'type'): 'value' when any import of target from file survives
// compilation (not `import type`, not all-`type` specifiers, not an `import('...')` type).
function importsOf(file, text) {
  const edges = new Map();
  const add = (spec, kind) => {
    const target = resolveImport(spec, file);
    if (!target || target === file) return;
    if (edges.get(target) !== 'value') edges.set(target, kind);
  };
  const typeOnlyImport = (n) =>
    n.importClause?.isTypeOnly ||
    (n.importClause &&
      !n.importClause.name &&
      n.importClause.namedBindings?.elements?.length > 0 &&
      n.importClause.namedBindings.elements.every((e) => e.isTypeOnly));
  const visit = (n) => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier))
      add(n.moduleSpecifier.text, typeOnlyImport(n) ? 'type' : 'value');
    else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      add(n.moduleSpecifier.text, n.isTypeOnly || n.exportClause?.elements?.every((e) => e.isTypeOnly) ? 'type' : 'value');
    else if (
      ts.isImportEqualsDeclaration(n) &&
      ts.isExternalModuleReference(n.moduleReference) &&
      ts.isStringLiteral(n.moduleReference.expression)
    )
      add(n.moduleReference.expression.text, n.isTypeOnly ? 'type' : 'value');
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      add(n.argument.literal.text, 'type');
    else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    )
      add(n.arguments[0].text, 'value');
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return edges;
}

function srcFiles(dir = SRC, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) srcFiles(p, out);
    else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function refreshGraph() {
  if (Date.now() - graph.checkedAt < 1000) return;
  const seen = new Set();
  for (const file of srcFiles()) {
    seen.add(file);
    const { mtimeMs, size } = fs.statSync(file);
    const known = graph.files.get(file);
    if (known && known.mtimeMs === mtimeMs && known.size === size) continue;
    graph.files.set(file, { mtimeMs, size, edges: importsOf(file, fs.readFileSync(file, 'utf8')) });
  }
  for (const file of graph.files.keys()) if (!seen.has(file)) graph.files.delete(file);
  graph.checkedAt = Date.now();
}

// Shortest path from `from` back to `to` (the linted file), over value edges only when asked.
function pathBack(from, to, edgesOf, valueOnly) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    for (const [next, kind] of edgesOf(node)) {
      if (valueOnly && kind !== 'value') continue;
      if (next === to) {
        const route = [to];
        for (let n = node; n !== undefined; n = previous.get(n)) route.unshift(n);
        return route;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles within src/, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle ({{kind}}): {{route}}' },
  },
  create(context) {
    const file = path.normalize(context.physicalFilename);
    if (!file.startsWith(SRC + path.sep)) return {};
    refreshGraph();
    // The linted text, which an editor may not have saved yet, stands for this file.
    const own = importsOf(file, context.sourceCode.text);
    const edgesOf = (f) => (f === file ? own : (graph.files.get(f)?.edges ?? new Map()));
    const rel = (f) => path.relative(ROOT, f).split(path.sep).join('/');
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(source.value, file);
      const kind = target && own.get(target);
      if (!kind) return;
      const runtime = kind === 'value' ? pathBack(target, file, edgesOf, true) : undefined;
      const route = runtime ?? pathBack(target, file, edgesOf, false);
      if (!route) return;
      context.report({
        node,
        messageId: 'cycle',
        data: { kind: runtime ? 'runtime' : 'through type imports', route: [file, ...route].map(rel).join(' → ') },
      });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
      TSImportType: (n) => check(n, n.argument?.literal),
      TSExternalModuleReference: (n) => check(n, n.expression),
    };
  },
};

// ---- the dependency rule ---------------------------------------------------------------------
const restricted = (name, message) => ({ name, message, allowTypeImports: false });
const group = (patterns, message) => ({ group: patterns, message, allowTypeImports: false });

const VSCODE = restricted('vscode', 'Only src/extension.ts and src/vscode/ import vscode.');
const NOT_VSCODE_FOLDER = group(['**/vscode/**'], 'Only src/extension.ts and src/vscode/ import from src/vscode/.');
const STORE_IMPLEMENTATIONS = group(
  ['**/sqljsStore', '**/pgStore'],
  'Only src/extension.ts, src/vscode/, src/cli/ and src/platform/openStore.ts pick a store implementation; import the Store interface instead.',
);
const CORE =
  'src/core is the domain: it imports no vscode, no driver, no file system, no process, and nothing from the adapters (declare a port in src/core instead).';
const CORE_MODULES = [
  'vscode',
  'sql.js',
  'pg',
  'pg-connection-string',
  'proper-lockfile',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'child_process',
  'node:child_process',
];

const layer = (files, ignores, paths, patterns) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] },
});

// One block per file set, each with the whole list for its files: a later block that sets the
// same rule replaces the earlier one's options instead of adding to them.
const dependencyRule = [
  layer(
    ['src/**/*.ts'],
    ['src/extension.ts', 'src/vscode/**', 'src/cli/**', 'src/platform/**', 'src/core/**', 'src/store/**'],
    [],
    [STORE_IMPLEMENTATIONS],
  ),
  layer(
    ['src/core/**/*.ts'],
    [],
    CORE_MODULES.map((m) => restricted(m, CORE)),
    [
      group(['sql.js/**', 'pg/**', 'pg-connection-string/**', 'proper-lockfile/**'], CORE),
      group(['**/store/**'], `${CORE} Not even types from src/store/.`),
      group(['**/platform/**', '**/cli/**', '**/vscode/**', '**/extension'], CORE),
    ],
  ),
  layer(
    ['src/store/**/*.ts'],
    [],
    [restricted('vscode', 'src/store runs without VS Code: no vscode.')],
    [
      group(
        ['**/cli/**', '**/vscode/**', '**/platform/**', '**/extension'],
        'src/store imports no adapter: not src/cli, src/vscode, src/platform or src/extension.',
      ),
      STORE_IMPLEMENTATIONS,
    ],
  ),
  layer(['src/platform/**/*.ts'], ['src/platform/openStore.ts'], [VSCODE], [NOT_VSCODE_FOLDER, STORE_IMPLEMENTATIONS]),
  layer(['src/platform/openStore.ts', 'src/cli/**/*.ts'], [], [VSCODE], [NOT_VSCODE_FOLDER]),
  {
    // import() hides a dependency from the rules above (and from bundling decisions).
    files: ['src/core/**/*.ts', 'src/store/**/*.ts', 'src/platform/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'No dynamic import() outside src/vscode and src/extension.ts: import statically.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'local/no-import-cycle': 'error' },
  },
];

export default defineConfig(
  globalIgnores(['dist/', 'dist-test/', 'out/', 'coverage/', '.vscode-test/', '.agent-memory/', 'bench/results/', 'test/data/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `!` is used deliberately, where a check the compiler cannot follow already happened.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      // `import type` for what is only a type (fixable); `import('...')` types are not allowed,
      // so every dependency is an import statement the dependency rule sees.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', disallowTypeAnnotations: true }],
    },
  },
  {
    // Plain JavaScript loaded with require() by VS Code (the test-only scripted model).
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  dependencyRule,
  prettier,
);
