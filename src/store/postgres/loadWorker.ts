import { parentPort, workerData } from 'node:worker_threads';
import { ChunkPool } from './copyChunks';
import { CHUNK, CopyRows } from './copyRows';
import { HeadCounts, headLine } from './loadLines';
import type { LoadRequest, LoadWork } from './loadThreads';

// A thread a load writes its heads' lines in (loadThreads.ts): each batch of heads is answered
// with their lines, written in the buffers of earlier lines the request hands back once sent (a
// new buffer each time would be memory the load's thread keeps collecting: copyChunks.ts);
// `null` asks for the term counts of every head this thread wrote.

const { project } = workerData as LoadWork;
// Read once: every head's row carries it.
const xid = BigInt((workerData as LoadWork).xid);
const port = parentPort!;
const counts = new HeadCounts();
const pool = new ChunkPool(CHUNK);
const out = new CopyRows(pool);

port.on('message', (request: LoadRequest) => {
  if (request === null) {
    port.postMessage({ counts: counts.columns() });
    return;
  }
  for (const buffer of request.sent) pool.give(Buffer.from(buffer));
  for (const head of request.heads) headLine(out, project, head, xid, counts);
  const chunks = out.take();
  // Each chunk is a buffer of its own (CopyRows): handed over, not copied.
  port.postMessage({ chunks }, [...new Set(chunks.map((c) => c.buffer as ArrayBuffer))]);
});
