import type { Writable } from 'node:stream';

// A load's COPY data, written into buffers that are used again once the connection has sent them.
//
// At 1M memories a load sends about 3 GB of lines. Written into a new 4 MB buffer each, they kept
// V8 collecting the load's heap (gigabytes: the heads it holds): memory outside the heap that
// grows by tens of megabytes starts a collection of the whole heap, freed or not. Measured at 1M,
// the versions' COPY took 56-67 s with new buffers and 40 s with buffers used again.

/** Where copyChunks gives back the chunks the socket has sent. */
export interface ChunkSink {
  give(chunk: Buffer): void;
}

/** The buffers lines are written in (copyRows.ts), each `size` bytes; a buffer given back is handed out again. */
export class ChunkPool implements ChunkSink {
  private readonly free: Buffer[] = [];

  constructor(readonly size: number) {}

  /** A buffer of `size` bytes (its own memory, not a slice of a shared one), with whatever it held. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives back the buffer `chunk` was cut from (a chunk of another size's buffer is left to the collector). */
  give(chunk: Buffer): void {
    const whole = wholeBuffer(chunk, this.size);
    if (whole) this.free.push(Buffer.from(whole));
  }
}

/** The memory `chunk` was cut from, when the chunk starts it and it is `size` bytes (a buffer of a pool of that size). */
export function wholeBuffer(chunk: Buffer, size: number): ArrayBuffer | undefined {
  return chunk.byteOffset === 0 && chunk.buffer.byteLength === size ? (chunk.buffer as ArrayBuffer) : undefined;
}

/** What the COPY stream of pg-copy-streams exposes once submitted: the connection whose socket it writes to. */
interface Submitted {
  connection?: { stream?: Writable };
}

/**
 * Writes each batch of chunks into `copy` (pg-copy-streams' `from`, already given to the client),
 * waiting while it asks to, then ends it; gives every chunk to `pool` once the connection's
 * socket has sent it. A chunk's bytes are sent when no more bytes than it and the ones after it
 * are waiting, in the COPY stream and in the socket (both send in order; the socket's count
 * includes the message headers the COPY adds, so it errs towards waiting). When the socket
 * cannot be seen, no chunk is given back. A failure of the batches cancels the COPY; a failure
 * of the COPY stops the batches; either way the first error is thrown, after the COPY has ended.
 */
export async function copyChunks(copy: Writable, batches: AsyncIterable<Buffer[]>, pool: ChunkSink): Promise<void> {
  // pg-copy-streams reports the server's refusal as an event; the stream cannot be written after it.
  let failure: Error | undefined;
  const ended = new Promise<void>((resolve, reject) => {
    copy.once('finish', resolve);
    copy.on('error', (err: Error) => {
      failure ??= err;
      reject(failure);
    });
  });
  // Settled below; until then a failure must not count as unhandled.
  ended.catch(() => undefined);
  const socket = () => (copy as Submitted).connection?.stream;
  const sending: Array<{ chunk: Buffer; end: number }> = [];
  let written = 0;
  const giveSent = () => {
    const s = socket();
    if (s === undefined) return;
    const sent = written - copy.writableLength - s.writableLength;
    while (sending.length && sending[0]!.end <= sent) pool.give(sending.shift()!.chunk);
  };
  try {
    for await (const batch of batches) {
      for (const chunk of batch) {
        if (failure) throw failure;
        const more = copy.write(chunk);
        written += chunk.length;
        sending.push({ chunk, end: written });
        if (!more) await Promise.race([new Promise((resolve) => copy.once('drain', resolve)), ended]);
        giveSent();
      }
    }
  } catch (err) {
    // The batches failed: the COPY is cancelled (the server stores none of it).
    if (!failure) {
      copy.destroy(err as Error);
      await ended.catch(() => undefined);
    }
    throw err;
  }
  copy.end();
  await ended;
}
