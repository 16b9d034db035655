import * as fs from 'node:fs';
import { ValidationError } from '../core/errors';

/** What a command reads and writes besides the store: injectable for tests of the parser. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The whole of stdin, or undefined when stdin is a terminal (nothing piped). */
  readStdin: () => Promise<string | undefined>;
}

/**
 * Output piped into a reader that stops early (`agent-memory list | head`): the reader has what
 * it wanted, so end quietly with 0, as git and gh do, rather than die on EPIPE with a stack trace.
 */
function stdoutFailed(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE') process.exit(0);
  writeOut(2, `agent-memory: writing the output failed: ${err.message}\n`);
  process.exit(1);
}

let guarded = false;

/** process.stdout, ended as stdoutFailed says when writing to it fails (the MCP server's output, say). */
export function stdoutStream(): NodeJS.WriteStream {
  if (!guarded) process.stdout.on('error', stdoutFailed);
  guarded = true;
  return process.stdout;
}

/** The descriptors whose writes go through process.stdout / process.stderr from now on. */
const streamed = new Set<1 | 2>();

/**
 * Writes `text` to stdout (1) or stderr (2) at once, with fs.writeSync: process.stdout loads
 * Node's stream modules, and for a pipe its socket ones, about 5 ms of a one-shot command's
 * start. A descriptor left non-blocking by whoever started us may refuse a write (EAGAIN):
 * the rest, and everything after it, then goes through the stream, which waits. A failing
 * stderr has no one left to tell.
 */
export function writeOut(fd: 1 | 2, text: string): void {
  const stream = () => (fd === 1 ? stdoutStream() : process.stderr);
  if (streamed.has(fd)) {
    stream().write(text);
    return;
  }
  const data = Buffer.from(text, 'utf8');
  let at = 0;
  try {
    while (at < data.length) at += fs.writeSync(fd, data, at, data.length - at);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EAGAIN') {
      streamed.add(fd);
      stream().write(data.subarray(at));
    } else if (fd === 1) stdoutFailed(e);
  }
}

export const processIo: CliIo = {
  stdout: (t) => writeOut(1, t),
  stderr: (t) => writeOut(2, t),
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
