import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** The file scripts/vscode-test/run.mjs writes into the test workspace. */
export const SEED_FILE = '.vscode-test-seed.json';

/** What run.mjs seeded the workspace with, and how to run the CLI against the same store. */
export interface Seed {
  /** Id of the memory the CLI created before VS Code started. */
  id: string;
  description: string;
  tags: string[];
  content: string;
  /** Absolute paths: the store folder, the built CLI (dist/cli.js) and the Node that runs it. */
  store: string;
  cli: string;
  node: string;
  /** Set by run.mjs (code-server + Playwright): how to reach its driver (see driver.ts). */
  driver?: { answers: string; screenshots: boolean };
}

export const EXTENSION_ID = 'agent-memory.agent-memory';

export function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the VS Code tests need a workspace folder (run them with scripts/vscode-test/run.mjs)');
  return folder.uri.fsPath;
}

export function readSeed(): Seed {
  return JSON.parse(fs.readFileSync(path.join(workspaceFolder(), SEED_FILE), 'utf8')) as Seed;
}

/** The memory document of the current version (the extension's own memoryUri is not imported: tests see the built extension from outside). */
export function memoryUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'agent-memory', path: `/memories/${id}.md` });
}

/** Runs the built CLI against the test workspace's store (another process, as a teammate's agent would be) and parses its --json output. */
export function cli<T = unknown>(...args: string[]): T {
  const seed = readSeed();
  const out = execFileSync(seed.node, [seed.cli, '--store', seed.store, '--json', '--author', 'cli-in-test', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return JSON.parse(out) as T;
}

/** Resolves when `check` returns true, polling; fails with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
