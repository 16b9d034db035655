import { MemoryService } from '../src/core/memoryService';
import { analyzeQuery } from '../src/core/search/query';
import type { StoredVersion } from '../src/core/ports/store';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { MemoryWriter, prng } from './generate';
import type { OpenFigures, OursFigures, Plan, SearchFigures } from './plan';
import { rssMb, sample, summarize } from './stats';

const AUTHOR = 'bench@example.com';
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Loads generated version rows through the real store: importVersions in batches (each
 * batch is one journal append + fdatasync and one transaction), then one checkpoint so
 * the folder holds a snapshot, as a long-used store would.
 */
export async function loadOurs(dir: string, rows: StoredVersion[], batch = 5000): Promise<{ importMs: number; checkpointMs: number }> {
  // No automatic checkpoints while loading: one explicit checkpoint at the end instead.
  const store = await SqlJsStore.open({ dir, checkpointEvery: Number.MAX_SAFE_INTEGER });
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += batch) {
    const { added } = await store.importVersions(rows.slice(i, i + batch));
    if (added !== Math.min(batch, rows.length - i)) throw new Error(`import added ${added} of a batch of ${batch}`);
  }
  const importMs = performance.now() - t0;
  const t1 = performance.now();
  store.checkpoint();
  const checkpointMs = performance.now() - t1;
  await store.close();
  return { importMs, checkpointMs };
}

/** Opens the store in `dir` and runs one search: what a fresh process (CLI, window) pays. */
export async function openOnce(
  dir: string,
  keywords: string[],
  options: { viewFirstFrom?: number } = {},
): Promise<{ figures: OpenFigures; store: SqlJsStore; service: MemoryService }> {
  const t0 = performance.now();
  const store = await SqlJsStore.open({ dir, ...options });
  const t1 = performance.now();
  const service = new MemoryService(store, { author: AUTHOR });
  const hits = await service.search({ keywords });
  const t2 = performance.now();
  if (hits.length === 0) throw new Error(`the first search (${keywords.join(', ')}) found nothing`);
  if (store.warnings().length) throw new Error(`store warnings: ${JSON.stringify(store.warnings())}`);
  return { figures: { openMs: t1 - t0, firstSearchMs: t2 - t1, rssMb: rssMb() }, store, service };
}

async function searches(service: MemoryService, store: SqlJsStore, plan: Plan): Promise<SearchFigures> {
  const run = (queries: string[][]) => (i: number) => service.search({ keywords: queries[i % queries.length]!, limit: 10 });
  for (let i = 0; i < 20; i++) {
    await run(plan.selective)(i);
    await run(plan.broad)(i);
  }
  const selective = summarize(await sample(run(plan.selective), { iters: plan.iters }));
  const broad = summarize(await sample(run(plan.broad), { iters: plan.iters }));
  const hits = async (queries: string[][]) => {
    let total = 0;
    for (const q of queries) total += (await store.search(analyzeQuery(q, [], Number.MAX_SAFE_INTEGER))).length;
    return total / queries.length;
  };
  return { selective, broad, selectiveHits: await hits(plan.selective), broadHits: await hits(plan.broad) };
}

/** The full run on a loaded store: open, searches, then durable creates and edits, then a checkpoint. */
export async function runOurs(plan: Plan): Promise<OursFigures> {
  const { figures: open, store, service } = await openOnce(plan.storeDir, plan.selective[0]!);
  const search = await searches(service, store, plan);

  // Inputs are made before timing; only the service call is timed.
  const writer = new MemoryWriter(prng(plan.seed + 7), Math.max(50, Math.floor(plan.n / 4)));
  const warm = 10;
  const creates = Array.from({ length: plan.iters + warm }, () => writer.memory());
  const edits = plan.editIds
    .slice(0, plan.iters + warm)
    .map((id, i) => (i % 3 === 0 ? { id, description: writer.description() } : { id, content: writer.content() }));
  if (edits.length < plan.iters + warm) throw new Error('not enough live memories to edit');
  const createMs: number[] = [];
  const editMs: number[] = [];
  for (let i = 0; i < plan.iters + warm; i++) {
    let t = performance.now();
    await service.create(creates[i]);
    if (i >= warm) createMs.push(performance.now() - t);
    t = performance.now();
    const e = await service.edit(edits[i]);
    if (i >= warm) editMs.push(performance.now() - t);
    if (!e.changed) throw new Error(`edit of ${edits[i]!.id} changed nothing`);
    // Let timers and a due background checkpoint run, as between an agent's calls.
    await yieldToLoop();
  }
  const t = performance.now();
  store.checkpoint();
  const checkpointMs = performance.now() - t;
  const versionRows = await store.countVersions();
  await store.close();
  return {
    open,
    search,
    versionRows,
    checkpointMs,
    create: summarize(createMs),
    edit: summarize(editMs),
    write: summarize([...createMs, ...editMs]),
  };
}
