import type * as ChildProcess from 'node:child_process';

/**
 * node:child_process, loaded when a program is first run rather than when a module naming it is
 * loaded: a one-shot CLI command that runs no program (a search with --store) does not pay for it
 * and the net and dgram modules it brings (about 8 ms of CPU here, against Node's own start of
 * about 110 ms). process.getBuiltinModule is Node 20.16 and later (engines: 20.19; VS Code 1.95's
 * Electron has 20.18).
 */
export function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule('node:child_process');
}
