// What a run of the VS Code suites starts from, shared by run.mjs (code-server) and
// ../test-electron.mjs (@vscode/test-electron): a workspace that is a git repository with one
// memory the CLI wrote before VS Code starts, the seed file the suites read
// (test/vscode/seed.ts), and user settings.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Prepares <ws> and <userData>/User/settings.json. cli is dist/cli.js; driver (run.mjs only) tells
 * the suites where its driver answers (test/vscode/driver.ts); without it the suites that need
 * clicks skip themselves.
 */
export function prepareWorkspace({ ws, userData, cli, driver }) {
  fs.mkdirSync(ws, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  const store = path.join(ws, '.agent-memory');
  const seed = {
    description: 'Jest fails on ESM-only packages',
    tags: ['jest', 'esm'],
    content: 'Un-ignore the package in transformIgnorePatterns so babel-jest transforms it.',
  };
  const created = execFileSync(
    process.execPath,
    [
      cli,
      '--store',
      store,
      '--json',
      '--author',
      'vscode-test-seed',
      'create',
      '--description',
      seed.description,
      '--tags',
      seed.tags.join(','),
      '--content',
      seed.content,
    ],
    { encoding: 'utf8' },
  );
  const { id } = JSON.parse(created);
  fs.writeFileSync(
    path.join(ws, '.vscode-test-seed.json'),
    JSON.stringify({ id, ...seed, store, cli, node: process.execPath, ...(driver ? { driver } : {}) }, null, 2),
  );
  // Committed, as a team sharing the store through git has it: the suites check that only
  // looking leaves `git status` clean (test/vscode/extension.test.ts).
  const git = (...args) =>
    execFileSync('git', ['-C', ws, '-c', 'user.name=vscode-test', '-c', 'user.email=vscode-test@example.com', ...args]);
  git('add', '-A');
  git('commit', '-q', '-m', 'seed: a workspace store with one memory');

  // A fresh user-data-dir trusts no folder: the workspace would open in Restricted Mode, where
  // workspace.isTrusted is false. (The extension under development activates there all the same,
  // its untrustedWorkspaces.supported = false notwithstanding; an installed .vsix does not.) The
  // tests should see what a person who trusted the folder sees, so trust is switched off.
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'security.workspace.trust.enabled': false,
        'workbench.startupEditor': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
      },
      null,
      2,
    ),
  );
}
