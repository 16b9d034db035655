// The CLI as a person runs it (dist/cli.js in a child process), for the suites of test/cli/ that
// drive the playbook's commands: the run, and the two outcomes a test expects of it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI run: AGENT_MEMORY_AUTHOR `author`, never a team database. */
export function cliEnv(author = 'ana@example.com'): NodeJS.ProcessEnv {
  return { ...process.env, AGENT_MEMORY_AUTHOR: author, AGENT_MEMORY_DATABASE_URL: '' };
}

/** `agent-memory --store STORE ARGS` as AGENT_MEMORY_AUTHOR `author` (default ana@example.com), never a team database. */
export function cli(store: string, args: string[], options: { author?: string; input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [CLI, '--store', store, ...args], {
    input: options.input,
    encoding: 'utf8',
    env: cliEnv(options.author),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Its stdout; fails the test unless it exited 0. */
export function ok(r: Run): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Fails the test unless the input was refused (exit 2) with a message matching `re`. */
export function refused(r: Run, re: RegExp): void {
  assert.equal(r.code, 2, `expected exit 2, got ${r.code}: ${r.stdout}${r.stderr}`);
  assert.match(r.stderr, re);
}
