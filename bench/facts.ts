/**
 * The facts benchmark (`npm run bench -- --facts 100000`, `--only facts` to skip memories):
 * N generated facts (factData.ts) loaded through the real store's importRecords in batches,
 * on the workspace store (sql.js, then a checkpoint) and, when the server answers, on
 * PostgreSQL (a scratch database, dropped at the end); the baseline (factsNaive.ts) built from
 * the same rows. Each side is then measured in fresh child processes: open → first query
 * (3 runs), then queries, the context tool's lookup and durable assertions (factsOurs.ts).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, escapeIdentifier } from 'pg';
import { PgStore } from '../src/store/postgres/pgStore';
import type { StoredRecord } from '../src/core/ports/records';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import type { Store } from '../src/core/ports/store';
import { currentRows, generateFacts, statusCounts } from './factData';
import { pickProbes } from './factProbes';
import { buildNaivePg, buildNaiveSqlJs } from './factsNaive';
import type { FactBackend, FactOpenFigures, FactsPlan, FactsSideFigures } from './factsPlan';
import { runChild } from './spawn';
import { mb } from './stats';

const ADMIN = process.env.AGENT_MEMORY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PROJECT = 'bench';
const BATCH = 5000;
/** Writes of each kind beyond `iters` that ours runs untimed first (factsOurs.ts WARM). */
const WARM = 10;
/** Each timing loop, on both sides, stops after this long (with at least 20 samples). */
export const BUDGET_MS = 30_000;

export interface FactsArgs {
  n: number;
  iters: number;
  seed: number;
  keep: boolean;
  cpuProf?: string;
}

export interface FactsBackendResult {
  backend: FactBackend;
  /** 1-minute load average before and after measuring this backend. */
  loadAvg: [number, number];
  /** importRecords of every row, BATCH per call; then a checkpoint (sql.js) or VACUUM ANALYZE (PostgreSQL). */
  importMs: number;
  settleMs: number;
  naiveBuildMs: number;
  /** sql.js only: MB on disk. */
  files?: { journalMb: number; snapshotMb: number; naiveDbMb: number };
  opens: FactOpenFigures[];
  ours: FactsSideFigures;
  naive: FactsSideFigures;
}

export interface FactsResult {
  n: number;
  rows: number;
  statuses: Record<string, number>;
  subjects: number;
  generateMs: number;
  meanCandidates: number;
  backends: FactsBackendResult[];
  /** Why PostgreSQL was not measured, when it was not. */
  pgSkipped?: string;
}

const log = (msg: string) => process.stderr.write(`[bench facts] ${msg}\n`);

/** Scratch databases not dropped yet (so an interrupted run can drop them). */
const scratch = new Set<string>();

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Drops the scratch databases this process created and has not dropped yet. */
export async function dropFactsScratch(): Promise<void> {
  for (const db of [...scratch]) {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`));
    scratch.delete(db);
  }
}

async function importAll(store: Store, rows: StoredRecord[]): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const { added } = await store.records.importRecords(rows.slice(i, i + BATCH));
    if (added !== Math.min(BATCH, rows.length - i)) throw new Error(`import added ${added} of a batch of ${BATCH}`);
  }
  return performance.now() - t;
}

type Loaded = Pick<FactsBackendResult, 'importMs' | 'settleMs' | 'naiveBuildMs' | 'files'> & {
  plan: Omit<FactsPlan, 'iters' | 'budgetMs' | 'probes' | 'n'>;
};

async function loadSqlJs(dir: string, rows: StoredRecord[], current: StoredRecord[]): Promise<Loaded> {
  const storeDir = path.join(dir, 'store');
  const naiveDb = path.join(dir, 'naive.sqlite');
  // No automatic checkpoints while loading: one explicit checkpoint at the end, as a long-used store has.
  const store = await SqlJsStore.open({ dir: storeDir, checkpointEvery: Number.MAX_SAFE_INTEGER });
  const importMs = await importAll(store, rows);
  let t = performance.now();
  store.checkpoint();
  const settleMs = performance.now() - t;
  await store.close();
  t = performance.now();
  await buildNaiveSqlJs(current, naiveDb);
  const naiveBuildMs = performance.now() - t;
  const size = (f: string) => mb(fs.statSync(f).size);
  const files = {
    journalMb: size(path.join(storeDir, 'journal.jsonl')),
    snapshotMb: size(path.join(storeDir, 'snapshot.sqlite')),
    naiveDbMb: size(naiveDb),
  };
  return { importMs, settleMs, naiveBuildMs, files, plan: { backend: 'sqljs', storeDir, naiveDb, project: PROJECT } };
}

async function loadPg(rows: StoredRecord[], current: StoredRecord[]): Promise<Loaded> {
  const db = `agent_memory_bench_facts_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
  scratch.add(db);
  const url = (() => {
    const u = new URL(ADMIN);
    u.pathname = `/${db}`;
    return u.toString();
  })();
  const store = await PgStore.open({ connectionString: url, project: PROJECT, localIndex: 'off' });
  const importMs = await importAll(store, rows);
  await store.close();
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    let t = performance.now();
    await c.query('VACUUM ANALYZE');
    const settleMs = performance.now() - t;
    t = performance.now();
    await buildNaivePg(c, current);
    return { importMs, settleMs, naiveBuildMs: performance.now() - t, plan: { backend: 'postgres', url, project: PROJECT } };
  } finally {
    await c.end();
  }
}

/** Why PostgreSQL cannot be used, or undefined when it answers. */
async function pgUnreachable(): Promise<string | undefined> {
  try {
    await admin((c) => c.query('SELECT 1'));
    return undefined;
  } catch (err) {
    return `PostgreSQL at ${new URL(ADMIN).host} did not answer (${(err as Error).message})`;
  }
}

function measure(args: FactsArgs, dir: string, plan: FactsPlan, loaded: Loaded): FactsBackendResult {
  const planFile = path.join(dir, `facts-plan-${plan.backend}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const child = <T>(phase: string) => runChild<T>(phase, planFile, { cpuProf: args.cpuProf });
  const before = os.loadavg()[0]!;
  const opens = [0, 1, 2].map(() => child<FactOpenFigures>('facts-open'));
  log(`${plan.backend}: open → first query measured`);
  const ours = child<FactsSideFigures>('facts-ours');
  log(`${plan.backend}: our queries and writes measured`);
  const naive = child<FactsSideFigures>('facts-naive');
  log(`${plan.backend}: baseline measured`);
  const { plan: _p, ...figures } = loaded;
  return { backend: plan.backend, loadAvg: [before, os.loadavg()[0]!], ...figures, opens, ours, naive };
}

/** Generates, loads and measures N facts on sql.js and (when reachable) PostgreSQL, in `root`. */
export async function runFacts(args: FactsArgs, root: string): Promise<FactsResult> {
  const dir = path.join(root, `facts-${args.n}`);
  fs.mkdirSync(dir, { recursive: true });
  let t = performance.now();
  let set: ReturnType<typeof generateFacts> | undefined = generateFacts(args.n, args.seed);
  const generateMs = performance.now() - t;
  const probes = pickProbes(set, args.iters + WARM, args.seed);
  const current = currentRows(set.rows);
  const head = { n: args.n, rows: set.rows.length, statuses: statusCounts(set.rows), subjects: set.subjects.length, generateMs };
  log(
    `N=${args.n}: ${head.rows} rows (${JSON.stringify(head.statuses)}), ${head.subjects} subjects, generated in ${(generateMs / 1000).toFixed(1)} s`,
  );

  const loads: Loaded[] = [];
  const backends: FactsBackendResult[] = [];
  let pgSkipped: string | undefined;
  try {
    t = performance.now();
    loads.push(await loadSqlJs(path.join(dir, 'sqljs'), set.rows, current));
    log(`sqljs: loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    pgSkipped = await pgUnreachable();
    if (pgSkipped) log(`${pgSkipped}: PostgreSQL skipped`);
    else {
      t = performance.now();
      loads.push(await loadPg(set.rows, current));
      log(`postgres: loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    // The rows are stored now; leave the memory to the children.
    set = undefined;
    current.length = 0;
    for (const loaded of loads) {
      const plan: FactsPlan = { ...loaded.plan, n: args.n, iters: args.iters, budgetMs: BUDGET_MS, probes };
      backends.push(measure(args, dir, plan, loaded));
    }
  } finally {
    await dropFactsScratch();
    if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
  const meanCandidates = probes.contextCandidates.reduce((s, c) => s + c.length, 0) / probes.contextCandidates.length;
  return { ...head, meanCandidates, backends, ...(pgSkipped ? { pgSkipped } : {}) };
}
