import * as fs from 'node:fs';
import { ValidationError } from '../core/errors';

/** What a command reads and writes besides the store: injectable for tests of the parser. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The whole of stdin, or undefined when stdin is a terminal (nothing piped). */
  readStdin: () => Promise<string | undefined>;
}

export const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin: async () => {
    if (process.stdin.isTTY) return undefined;
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

export function readTextFile(flag: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ValidationError(flag, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
