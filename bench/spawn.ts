import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { RESULT_PREFIX } from './plan';

/**
 * Runs one measurement (child.ts) in a fresh Node process and returns its parsed RESULT line.
 * `cpuProf` profiles the child into a folder of its own under that folder (`<phase>-<time>`): one
 * file per thread, Node's default names (one fixed name would let tsx's loader thread overwrite
 * the main thread's profile).
 */
export function runChild<T>(phase: string, planFile: string, options: { dir?: string; cpuProf?: string } = {}): T {
  const prof = options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.join(options.cpuProf, `${phase}-${Date.now()}`)}`] : [];
  const res = spawnSync(
    process.execPath,
    [...prof, '--import', 'tsx', path.join(__dirname, 'child.ts'), phase, planFile, ...(options.dir ? [options.dir] : [])],
    { cwd: path.resolve(__dirname, '..'), encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = res.stdout?.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (res.status !== 0 || !line) throw new Error(`child ${phase} failed (exit ${res.status}): ${res.stdout}`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}
