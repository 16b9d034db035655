import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const WRITER = path.join(__dirname, '..', 'store', 'workers', 'writer.ts');
export const PG_WRITER = path.join(__dirname, '..', 'store', 'workers', 'pgWriter.ts');

/** Runs a writer worker (default: the sql.js one) in its own Node process; resolves with its acknowledged lines. */
export function runWriter(args: string[], worker = WRITER): Promise<{ code: number | null; acks: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, acks: out.split('\n').filter((l) => l.startsWith('ack ')), stderr: err }));
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
