import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

export const WRITER = path.join(__dirname, '..', 'store', 'workers', 'writer.ts');
export const PG_WRITER = path.join(__dirname, '..', 'store', 'workers', 'pgWriter.ts');

/** Runs a writer worker (default: the sql.js one) in its own Node process; resolves with its acknowledged lines. */
export function runWriter(args: string[], worker = WRITER): Promise<{ code: number | null; acks: string[]; stderr: string; pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, acks: out.split('\n').filter((l) => l.startsWith('ack ')), stderr: err, pid: child.pid! }));
  });
}

/** Starts the writer in loop mode and SIGKILLs it after `afterMs`; resolves with what it acknowledged. */
export function killWriterAfter(dir: string, afterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, 'loop'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let started = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // Count the time from the first acknowledged write, so start-up time does not eat the window.
      if (!started) {
        started = true;
        setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.on('error', reject);
    child.on('close', () =>
      resolve(
        out
          .split('\n')
          .filter((l) => l.startsWith('ack '))
          .map((l) => l.split(' ')[1]!),
      ),
    );
  });
}

export const LOCKER = path.join(__dirname, '..', 'store', 'workers', 'locker.ts');

/** Starts a process that takes the store's write lock inside a write and keeps it; resolves once it holds it. */
export function holdLockInChild(dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOCKER, dir, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('held\n')) resolve(child);
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the lock holder ended (${code}) before holding the lock`)));
  });
}

/** Runs the locker worker with `args` after DIR (see locker.ts) to its end. */
export function runLocker(dir: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOCKER, dir, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** SIGKILLs a child and resolves once it is gone (reaped, so its pid no longer exists). */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGKILL');
  });
}
