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

/** `a, b,c` → [`a`, `b`, `c`]. */
export function splitList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A whole number from a flag, or a ValidationError naming the flag. */
export function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new ValidationError(name, `must be a whole number, got "${value}"`);
  return Number(value);
}

export function readTextFile(flag: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ValidationError(flag, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

type Flags = Record<string, string | boolean | string[] | undefined>;

/** A string flag's value (undefined when not given). */
export const str = (flags: Flags, key: string) => flags[key] as string | undefined;

/** --limit and --cursor of a paged listing, only when given (the service's defaults apply otherwise). */
export function pageFlags(flags: Flags): { limit?: number; cursor?: string } {
  return {
    ...(flags.limit !== undefined ? { limit: intFlag('limit', str(flags, 'limit')) } : {}),
    ...(flags.cursor !== undefined ? { cursor: str(flags, 'cursor') } : {}),
  };
}
