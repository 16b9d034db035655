/**
 * Our side of the facts benchmark, in a child process: the real store (SqlJsStore or PgStore,
 * opened as the CLI opens it) and the real domain path (FactService with the default policy and
 * the benchmark's ontology), plus the facts lookup of the context tool on store.records.
 */
import { createHash } from 'node:crypto';
import { FactService } from '../src/core/playbook/factService';
import type { RecordQuery } from '../src/core/ports/records';
import { PgStore } from '../src/store/postgres/pgStore';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import type { Store } from '../src/core/ports/store';
import { BENCH_ONTOLOGY } from './factOntology';
import type { AssertInput } from './factProbes';
import {
  type FactOpenFigures,
  type FactQueryFigures,
  type FactsPlan,
  type FactsSideFigures,
  type QueryClass,
  type WriteClass,
} from './factsPlan';
import { rssMb, sample, summarize } from './stats';

const AUTHOR = 'bench@example.com';
/** As ContextService.factCandidates asks. */
const CONTEXT_STATUS = ['active', 'disputed'];
const CONTEXT_LIMIT = 50;
const WARM = 10;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Opens the store as a fresh CLI process would and answers one query by subject. */
export async function openFacts(plan: FactsPlan): Promise<{ figures: FactOpenFigures; store: Store; facts: FactService }> {
  const t0 = performance.now();
  const store: Store =
    plan.backend === 'sqljs'
      ? await SqlJsStore.open({ dir: plan.storeDir! })
      : // A one-shot CLI process opens PostgreSQL without the local index (src/platform/openStore.ts).
        await PgStore.open({ connectionString: plan.url!, project: plan.project, localIndex: 'off' });
  const t1 = performance.now();
  const facts = new FactService(store.records, { author: AUTHOR, ontology: BENCH_ONTOLOGY });
  const first = await facts.query({ subject: plan.probes.bySubject[0]! });
  const t2 = performance.now();
  if (first.items.length === 0) throw new Error(`the first query (subject ${plan.probes.bySubject[0]}) found nothing`);
  return { figures: { openMs: t1 - t0, firstQueryMs: t2 - t1, rssMb: rssMb() }, store, facts };
}

type Probe = (i: number) => Promise<string[]>;

/**
 * Times `probe` over the `count` probes in turn (after 3 untimed calls), within the budget, and
 * keeps each probe's answer the first time it runs (the report compares both sides on them).
 */
export async function timeQueries(probe: Probe, count: number, budget: { iters: number; budgetMs: number }): Promise<FactQueryFigures> {
  for (let i = 0; i < 3; i++) await probe(i);
  const answers: FactQueryFigures['answers'] = [];
  const samples = await sample(
    async (i) => {
      const got = await probe(i % count);
      if (i < count) answers.push([got.length, createHash('sha1').update(got.join(',')).digest('hex').slice(0, 12)]);
    },
    { ...budget, minIters: 20 },
  );
  return { summary: summarize(samples), answers };
}

export async function runFactsOurs(plan: FactsPlan): Promise<FactsSideFigures> {
  const { figures: open, store, facts } = await openFacts(plan);
  const p = plan.probes;
  const ids = (r: { items: Array<{ id: string }> }) => r.items.map((x) => x.id);
  const context = (i: number, key: 0 | 2): RecordQuery => ({
    kind: 'fact',
    keys: key === 0 ? [p.contextCandidates[i]!] : [undefined, undefined, p.contextCandidates[i]!],
    status: CONTEXT_STATUS,
    limit: CONTEXT_LIMIT,
  });
  const probes: Record<QueryClass, Probe> = {
    subject: async (i) => ids(await facts.query({ subject: p.bySubject[i]! })),
    predicateObject: async (i) => ids(await facts.query({ predicate: p.byPredicateObject[i]![0], object: p.byPredicateObject[i]![1] })),
    object: async (i) => ids(await facts.query({ object: p.byObject[i]! })),
    contextSubject: async (i) => (await store.records.query(context(i, 0))).map((r) => r.id),
    contextBoth: async (i) => {
      const [a, b] = await Promise.all([store.records.query(context(i, 0)), store.records.query(context(i, 2))]);
      return [...new Set([...a, ...b].map((r) => r.id))].sort();
    },
  };
  const queries = {} as Record<QueryClass, FactQueryFigures>;
  for (const [name, probe] of Object.entries(probes) as Array<[QueryClass, Probe]>) {
    queries[name] = await timeQueries(probe, p.bySubject.length, { iters: plan.iters, budgetMs: plan.budgetMs });
  }

  // Writes: one of each kind in turn, as an agent's calls would come; the first WARM are not
  // timed. Like every loop, it stops once its budget (one per kind) is spent, after 20 samples.
  const kinds: Array<[WriteClass, AssertInput[]]> = [
    ['created', p.newFacts],
    ['refreshed', p.refreshes],
    ['disputed', p.contradictions],
  ];
  const times: Record<WriteClass, number[]> = { created: [], refreshed: [], disputed: [] };
  const writes = Math.min(plan.iters + WARM, ...kinds.map(([, xs]) => xs.length));
  const start = performance.now();
  for (let i = 0; i < writes; i++) {
    if (i >= WARM + 20 && performance.now() - start > kinds.length * plan.budgetMs) break;
    for (const [outcome, inputs] of kinds) {
      const t = performance.now();
      const res = await facts.assert(inputs[i]);
      if (i >= WARM) times[outcome].push(performance.now() - t);
      if (res.outcome !== outcome) throw new Error(`assert ${JSON.stringify(inputs[i])} was ${res.outcome}, expected ${outcome}`);
    }
    // Let timers and a due background checkpoint run, as between an agent's calls.
    await yieldToLoop();
  }
  const rss = rssMb();
  await store.close();
  return {
    open,
    queries,
    rssMb: rss,
    writes: { created: summarize(times.created), refreshed: summarize(times.refreshed), disputed: summarize(times.disputed) },
  };
}
