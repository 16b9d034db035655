import { parentPort, workerData } from 'node:worker_threads';
import { CsvLines } from './csvLines';
import { HeadCounts, headLine } from './loadLines';
import type { LoadRequest, LoadWork } from './loadThreads';

// A thread a load writes its heads' lines in (loadThreads.ts): each batch of heads is answered
// with their lines; `null` asks for the term counts of every head this thread wrote.

const { project, xid } = workerData as LoadWork;
const port = parentPort!;
const counts = new HeadCounts();
const out = new CsvLines();

port.on('message', (request: LoadRequest) => {
  if (request === null) {
    port.postMessage({ counts: counts.columns() });
    return;
  }
  for (const head of request) headLine(out, project, head, xid, counts);
  const chunks = out.take();
  // Each chunk is a buffer of its own (CsvLines): handed over, not copied.
  port.postMessage({ chunks }, [...new Set(chunks.map((c) => c.buffer as ArrayBuffer))]);
});
