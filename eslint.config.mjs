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
//   - an import() (a module loaded on first use) names a module the file also imports statically,
//     so the rules above see it (scripts/eslint/lazyImport.mjs).
// The cycle rule lives in scripts/eslint/noImportCycle.mjs.
// Folders are matched with gitignore-style patterns on the import path, so `**/store/**` needs a
// path segment `store/`: '../../store/records' is caught, '../ports/store' is not.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { lazyImport } from './scripts/eslint/lazyImport.mjs';
import { noImportCycle } from './scripts/eslint/noImportCycle.mjs';

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
  'pg-copy-streams',
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
      group(['sql.js/**', 'pg/**', 'pg-connection-string/**', 'pg-copy-streams/**', 'proper-lockfile/**'], CORE),
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
    // A lazy import() must also be imported statically (`import type` will do): else it would
    // hide a dependency from the rules above. The bundle still holds it; only its loading waits.
    files: ['src/core/**/*.ts', 'src/store/**/*.ts', 'src/platform/**/*.ts', 'src/cli/**/*.ts'],
    plugins: { lazy: { rules: { 'lazy-import': lazyImport } } },
    rules: { 'lazy/lazy-import': 'error' },
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
      // A variable a callback reads before it is assigned (a pool's error handler) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `import type` for what is only a type (fixable); `import('...')` types are not allowed,
      // so every dependency is an import statement the dependency rule sees.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', disallowTypeAnnotations: true, fixStyle: 'inline-type-imports' },
      ],
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
