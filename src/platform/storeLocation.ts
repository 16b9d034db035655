import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitOutput } from './childProcess';

/** The store folder's name inside a workspace. */
export const STORE_FOLDER = '.agent-memory';

/**
 * Where the CLI finds the store when --store is not given: the nearest `.agent-memory`
 * folder in `cwd` or above it (so the CLI works from any sub-folder of a workspace);
 * else `.agent-memory` at the root of the git repository; else in `cwd`.
 */
export function defaultStoreDir(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, STORE_FOLDER);
    if (holdsStore(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  return path.join(workspaceRoot(cwd), STORE_FOLDER);
}

/**
 * The store a folder given by hand names (`migrate --from/--to DIR`): the folder itself when it
 * holds a journal, else its `.agent-memory` folder when that does (a workspace given by its root,
 * as `--from .`); undefined when neither holds one.
 */
export function storeIn(dir: string): string | undefined {
  return [dir, path.join(dir, STORE_FOLDER)].find(holdsStore);
}

/** Whether `dir` holds a store (its journal). */
function holdsStore(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'journal.jsonl'));
}

/** The top folder of the git repository holding `cwd`, or undefined outside one (or without git). */
function gitTopLevel(cwd: string): string | undefined {
  return gitOutput(['rev-parse', '--show-toplevel'], cwd);
}

/**
 * The workspace folder for files agents read at its top (AGENTS.md, .github/instructions/):
 * the root of the git repository holding `cwd`, else `cwd`.
 */
export function workspaceRoot(cwd: string): string {
  return gitTopLevel(cwd) ?? path.resolve(cwd);
}

/**
 * The workspace whose code the memories cite, for the CLI and the MCP server: the folder holding the
 * store folder (`<root>/.agent-memory`), else the root of the git repository around `cwd`, else `cwd`.
 * Citations are paths relative to it.
 */
export function codebaseRoot(spec: { kind: string; dir?: string }, cwd: string): string {
  if (spec.kind === 'dir' && spec.dir && path.basename(spec.dir) === STORE_FOLDER) return path.dirname(path.resolve(spec.dir));
  return workspaceRoot(cwd);
}
