import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ChunkSink, wholeBuffer } from './copyChunks';
import { CHUNK } from './copyRows';
import type { HeadCounts, LoadedHead } from './loadLines';

// The worker threads a load writes its heads' COPY lines in (loadWorker.ts, loadLines.ts). At 1M
// memories the load's own heap holds every version it has read (gigabytes), and each collection
// of the young objects that analysing text makes costs several times what it costs in a small
// heap: measured at 1M, the heads took 75-95 s written in the load's thread, 57 s in two of these.
// The load's thread hands the heads over; the threads analyse them, write their lines and hand
// back buffers (transferred, not copied). The versions' lines stay in the load's thread: handing
// a row over costs about what writing its line does (at 1M the versions took 88 s through the
// threads, 56-67 s without).

/** What a load's thread is told when it starts: the project and transaction every line carries. */
export interface LoadWork {
  project: string;
  xid: string;
}

/**
 * A request to a load thread: heads whose lines to write, with buffers of its earlier lines that
 * have been sent (handed back to write in again); or (null) the term counts of every head it wrote.
 */
export type LoadRequest = { heads: LoadedHead[]; sent: ArrayBuffer[] } | null;

/** Threads a load writes its lines in (the server's own work for them is the lighter part). */
const LOAD_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

/**
 * A load thread: loadWorker.js next to the bundle that loads this module (dist/). Run from the
 * sources (tests and benchmarks, under tsx), the thread loads loadWorker.ts through tsx, which a
 * worker does not inherit from its parent's `--import`.
 */
function loadThread(work: LoadWork): Worker {
  const bundled = path.join(__dirname, 'loadWorker.js');
  if (fs.existsSync(bundled)) return new Worker(bundled, { workerData: work });
  const source = path.join(__dirname, 'loadWorker.ts');
  const tsx = require.resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`, { eval: true, workerData: work });
}

/**
 * Writes heads' lines in worker threads, a batch a call, each to the next thread in turn;
 * `counts` ends it with the term counts of every head written. A failure of a thread fails every
 * call waiting and every later one. Lines given back once sent (`give`, a ChunkSink for
 * copyChunks) go back to a thread with its next batch, to be written in again.
 */
export class LineEncoder implements ChunkSink {
  private readonly threads: LoadThread[];
  private next = 0;
  private sent: ArrayBuffer[] = [];

  constructor(work: LoadWork, threads = LOAD_THREADS) {
    this.threads = Array.from({ length: threads }, () => new LoadThread(work));
  }

  /** The lines of `heads`. */
  async lines(heads: LoadedHead[]): Promise<Buffer[]> {
    const thread = this.threads[this.next++ % this.threads.length]!;
    const sent = this.sent;
    this.sent = [];
    const { chunks } = (await thread.ask({ heads, sent }, sent)) as { chunks: Uint8Array[] };
    return chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  }

  /** Takes back a chunk of lines the socket has sent (its whole buffer, if the chunk is the start of one of CHUNK bytes). */
  give(chunk: Buffer): void {
    const whole = wholeBuffer(chunk, CHUNK);
    if (whole) this.sent.push(whole);
  }

  /** The term counts of every head written (HeadCounts.columns), summed over the threads. */
  async counts(): Promise<ReturnType<HeadCounts['columns']>> {
    const sum = new Map<string, number>();
    for (const thread of this.threads) {
      const { terms, counts } = ((await thread.ask(null)) as { counts: ReturnType<HeadCounts['columns']> }).counts;
      terms.forEach((t, i) => sum.set(t, (sum.get(t) ?? 0) + counts[i]!));
    }
    return { terms: [...sum.keys()], counts: [...sum.values()] };
  }

  /** Stops the threads. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

/** One load thread: its answers come in the order it was asked. */
class LoadThread {
  private readonly worker: Worker;
  private readonly waiting: Array<{ resolve: (v: unknown) => void; reject: (e: Error) => void }> = [];
  private failed: Error | undefined;

  constructor(work: LoadWork) {
    this.worker = loadThread(work);
    this.worker.on('message', (m: unknown) => this.waiting.shift()?.resolve(m));
    const fail = (err: Error) => {
      this.failed ??= err;
      for (const w of this.waiting.splice(0)) w.reject(this.failed);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a thread of the load stopped (exit code ${code})`)));
  }

  ask(request: LoadRequest, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
