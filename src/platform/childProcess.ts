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
