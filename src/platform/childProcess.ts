import type * as ChildProcess from 'node:child_process';

let loaded: typeof ChildProcess | undefined;

/**
 * node:child_process, loaded when a caller first starts a process. Loading it (with net and
 * dgram, which it loads) costs about 2.5 ms, a fortieth of a one-shot CLI search, which starts
 * none: git's files are read directly when they are plain (gitConfig.ts).
 */
export function childProcess(): typeof ChildProcess {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not when the bundle starts
  return (loaded ??= require('node:child_process') as typeof ChildProcess);
}

/**
 * What `git args` prints in `cwd`, trimmed; undefined when it fails (no git, not a repository,
 * nothing configured) or prints nothing. Waits for it, at most 3 s.
 */
export function gitOutput(args: string[], cwd: string): string | undefined {
  try {
    const out = childProcess()
      .execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 3000 })
      .trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}
