/**
 * `npm run bench:team`: 16 client processes × 500 mixed operations against PostgreSQL seeded
 * with N memories (default 100k; BENCH_TEAM_N to change). Reports lost versions (acknowledged
 * writes missing from the database, and version rows nobody acknowledged), search and write
 * p50/p95 under load, and for one client: search on the server (what a one-shot CLI pays), search
 * through the local index (long-lived clients) with its load time, and a naive ILIKE scan, in the same run;
 * then issue 17's targets for N as PASS/FAIL rows (teamTargets.ts).
 * BENCH_TEAM_LOCAL sets the load clients' localIndex mode (default background, as shipped).
 * Needs the server at AGENT_MEMORY_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * works in a scratch database that it drops at the end. BENCH_TEAM_DB=name keeps the seeded
 * database instead (seeding 1M memories takes about 8 minutes) and, when it exists already,
 * runs against it without seeding again (the writes of earlier runs stay in it; drop it yourself).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, escapeIdentifier } from 'pg';
import { analyzeMemory } from '../src/core/search/analysis';
import { MemoryService } from '../src/core/memoryService';
import { PgStore } from '../src/store/postgres/pgStore';
import { generate } from './generate';
import { median, ms, sample, summarize } from './stats';
import { teamTargetTable } from './teamTargets';

const ADMIN = process.env.AGENT_MEMORY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const N = Number(process.env.BENCH_TEAM_N ?? 100_000);
const CLIENTS = Number(process.env.BENCH_TEAM_CLIENTS ?? 16);
const OPS = Number(process.env.BENCH_TEAM_OPS ?? 500);
const PROJECT = 'bench';

async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function runClient(args: string[]): Promise<{
  search: number[];
  local: number[];
  write: number[];
  create: number[];
  edit: number[];
  read: number[];
  writeLoaded: number[];
  readLoaded: number[];
  acked: Array<[string, number]>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'teamClient.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_CLIENT '));
      if (code !== 0 || !line) reject(new Error(`client exited ${code}`));
      else resolve(JSON.parse(line.slice('BENCH_CLIENT '.length)));
    });
  });
}

/**
 * The baseline: what one would write without a search design, a case-insensitive scan of the
 * current rows; with `content`, of the content too (read from the head's version row), as a
 * search that finds memories by their content must.
 */
async function naiveSearch(c: Client, keywords: string[], content = false): Promise<unknown[]> {
  const patterns = keywords.map((k) => `%${k.replace(/[\\%_]/g, '\\$&')}%`);
  const inContent = content ? ' OR (SELECT v.content FROM memory_versions v WHERE v.seq = h.seq) ILIKE ANY ($2::text[])' : '';
  const { rows } = await c.query(
    `SELECT id, description, tags FROM memory_heads h WHERE project = $1 AND NOT deleted
     AND (description ILIKE ANY ($2::text[]) OR tags && $3::text[]${inContent}) ORDER BY changed_at DESC LIMIT 10`,
    [PROJECT, patterns, keywords.map((k) => k.toLowerCase())],
  );
  return rows;
}

/**
 * Queries for words of the content: the rarest content terms of the live memories (analysis.ts:
 * CONTENT_TERMS per memory, the code-like first) held by two memories at least, each as a
 * whole word the content writes (not a word cut short at the content's end), so both searches
 * look for the same word; and the commonest content term. The generated content reuses the
 * description vocabulary, so these are seldom rare words.
 */
function contentQueries(data: ReturnType<typeof generate>, count = 10): string[][] {
  const current = new Map(data.rows.map((r) => [r.id, r]));
  const df = new Map<string, { n: number; word?: string }>();
  for (const id of data.live) {
    const m = current.get(id)!;
    for (const t of analyzeMemory(m).contentTerms) {
      const e = df.get(t) ?? { n: 0 };
      e.n++;
      e.word ??= m.content.match(new RegExp(`\\b${t}\\w*(?=[^\\w])`, 'i'))?.[0];
      df.set(t, e);
    }
  }
  const ranked = [...df].filter(([t, e]) => e.n >= 2 && e.word && t.length >= 4).sort((x, y) => x[1].n - y[1].n || (x[0] < y[0] ? -1 : 1));
  return [...ranked.slice(0, count), ...ranked.slice(-1)].map(([, e]) => [e.word!]);
}

/** `rows` in arrays of `size`, as an import's caller hands them over. */
async function* slices<T>(rows: readonly T[], size: number): AsyncIterable<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function databaseExists(name: string): Promise<boolean> {
  const c = new Client({ connectionString: ADMIN });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const keep = process.env.BENCH_TEAM_DB || undefined;
  if (keep !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(keep))
    throw new Error('BENCH_TEAM_DB must be a plain lower-case database name');
  const db = keep ?? `agent_memory_bench_${randomBytes(4).toString('hex')}`;
  const url = (() => {
    const u = new URL(ADMIN);
    u.pathname = `/${db}`;
    return u.toString();
  })();
  const reuse = keep !== undefined && (await databaseExists(db));
  if (!reuse) await admin(`CREATE DATABASE ${escapeIdentifier(db)}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'am-bench-team-'));
  try {
    const data = generate(N);
    const store = await PgStore.open({ connectionString: url, project: PROJECT, localIndex: 'off' });
    const service = new MemoryService(store, { author: 'bench' });
    const c = new Client({ connectionString: url });
    await c.connect();
    let t = performance.now();
    let seedMs: number | undefined;
    if (reuse) {
      // A seed that was interrupted, another N, or a database that is not a bench's: refuse.
      const stored = await store.countVersions();
      const seededHere = (await store.current(data.live[0]!)) && (await store.current(data.live[data.live.length - 1]!));
      if (stored < data.rows.length || !seededHere) {
        throw new Error(
          `database ${db} does not hold the ${data.rows.length} versions that seeding ${N} memories writes (it has ${stored} in project ${PROJECT}): drop it (DROP DATABASE ${db}) or set BENCH_TEAM_N to the N it was seeded with`,
        );
      }
      console.log(
        `reusing database ${db} (${stored} versions: the seed's ${data.rows.length} and ${stored - data.rows.length} written by earlier runs)`,
      );
    } else {
      // As `migrate` fills a new database: one load (bulkLoad.ts). BENCH_TEAM_SEED=import seeds
      // through importVersions, 5,000 rows a call, as the bench did before the load existed.
      const viaImport = process.env.BENCH_TEAM_SEED === 'import';
      const loaded = !viaImport && (await store.loadIntoEmpty(slices(data.rows, 5000)));
      if (!loaded) {
        for (let i = 0; i < data.rows.length; i += 5000) {
          await store.importVersions(data.rows.slice(i, i + 5000));
          // What autovacuum does on a server that runs it (this machine's does not): keep the
          // planner's statistics near the tables' size while they grow from nothing.
          if ((i / 5000) % 20 === 19) await c.query('ANALYZE memory_heads; ANALYZE memory_head_tags');
        }
      }
      seedMs = performance.now() - t;
      await c.query('VACUUM ANALYZE');
      console.log(
        `seeded ${N} memories (${await store.countVersions()} versions) via ${loaded ? 'one load into the empty database' : 'importVersions'} in ${(seedMs / 1000).toFixed(1)} s${keep ? `; kept as database ${db}` : ''}`,
      );
    }

    const queries = [...data.selective, ...data.broad];
    fs.writeFileSync(path.join(tmp, 'ids.json'), JSON.stringify(data.live.slice(0, 1000)));
    fs.writeFileSync(path.join(tmp, 'queries.json'), JSON.stringify(queries));

    // Single client, same queries, same run: ours on the server, ours through the local index, the naive scan.
    const ours = summarize(
      await sample((i) => service.search({ keywords: queries[i % queries.length]! }), { iters: 200, budgetMs: 30_000 }),
    );
    // The queries are a third each of three kinds, so the p50 above is a middle query of one kind:
    // each kind's own spread, from each query's median of five.
    const kinds: Array<[string, string[][]]> = [
      ['rare code names', data.selective.slice(0, 10)],
      ['rare compound tags (common parts)', data.selective.slice(10)],
      ['common words and tags', data.broad],
    ];
    const byKind: string[] = [];
    for (const [label, qs] of kinds) {
      const each: number[] = [];
      for (const q of qs)
        each.push(median(await sample(() => service.search({ keywords: q }), { iters: 5, minIters: 5, budgetMs: 10_000 })));
      byKind.push(`${label} ${ms(median(each))} (${ms(Math.min(...each))}–${ms(Math.max(...each))})`);
    }
    const localStore = await PgStore.open({ connectionString: url, project: PROJECT, localIndex: 'eager' });
    const localService = new MemoryService(localStore, { author: 'bench' });
    // Heap figures mean something only after a full collection (package.json runs with --expose-gc).
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    t = performance.now();
    await localService.search({ keywords: queries[0]! });
    const loadMs = performance.now() - t;
    gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    const loaded = localStore.localIndexSize;
    console.log(
      loaded === undefined
        ? `local index: not loaded (the project is above maxLocalIndex: every search goes to the server), first search ${(loadMs / 1000).toFixed(2)} s`
        : `local index: ${loaded} memories loaded (first search included) in ${(loadMs / 1000).toFixed(2)} s, ${gc ? `heap +${heapMb.toFixed(0)} MB` : 'heap not measured (run with --expose-gc)'}`,
    );
    const local = summarize(
      await sample((i) => localService.search({ keywords: queries[i % queries.length]! }), { iters: 1000, budgetMs: 30_000 }),
    );
    await localStore.close();
    const naive = summarize(await sample((i) => naiveSearch(c, queries[i % queries.length]!), { iters: 200, budgetMs: 30_000 }));
    // Words only the content holds: ours on the server (content terms in search_vector) beside an
    // ILIKE scan that reads the content too.
    const byContent = contentQueries(data);
    const oursContent = summarize(
      await sample((i) => service.search({ keywords: byContent[i % byContent.length]! }), { iters: 200, budgetMs: 30_000 }),
    );
    const naiveContent = summarize(
      await sample((i) => naiveSearch(c, byContent[i % byContent.length]!, true), { iters: 100, budgetMs: 30_000 }),
    );
    const oneRead = summarize(
      await sample((i) => service.read({ id: data.live[(i * 7919) % data.live.length]! }), { iters: 200, budgetMs: 15_000 }),
    );
    const oneWrite = summarize(
      await sample((i) => service.create({ description: `bench single client note ${i}`, tags: ['bench-single'], content: 'x' }), {
        iters: 200,
        budgetMs: 15_000,
      }),
    );
    const baseline = await store.countVersions();

    const loadStart = performance.now();
    const runs = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        runClient([url, PROJECT, String(OPS), String(i + 1), path.join(tmp, 'ids.json'), path.join(tmp, 'queries.json')]),
      ),
    );
    const runMs = performance.now() - loadStart;
    const acked = runs.flatMap((r) => r.acked);
    const { rows: found } = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memory_versions v JOIN unnest($2::text[], $3::int[]) AS a(id, version) ON v.id = a.id AND v.version = a.version WHERE v.project = $1`,
      [PROJECT, acked.map((a) => a[0]), acked.map((a) => a[1])],
    );
    const total = await store.countVersions();
    const lost = acked.length - found[0]!.n;
    const unacknowledged = total - baseline - acked.length;
    const gaps = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT id, max(version) AS mx, count(*) AS k FROM memory_versions WHERE project = $1 GROUP BY id) s WHERE mx <> k`,
      [PROJECT],
    );
    const s = summarize(runs.flatMap((r) => r.search));
    const sl = summarize(runs.flatMap((r) => r.local));
    const w = summarize(runs.flatMap((r) => r.write));
    const wc = summarize(runs.flatMap((r) => r.create));
    const we = summarize(runs.flatMap((r) => r.edit));
    const rd = summarize(runs.flatMap((r) => r.read));
    const wl = summarize(runs.flatMap((r) => r.writeLoaded));
    const rl = summarize(runs.flatMap((r) => r.readLoaded));
    console.log(`\n${CLIENTS} clients × ${OPS} operations in ${(runMs / 1000).toFixed(1)} s against ${N} memories`);
    console.log(
      `writes acknowledged ${acked.length}, found ${found[0]!.n}: lost ${lost}; version rows nobody acknowledged ${unacknowledged}; ids with a gap in 1..N ${gaps.rows[0]!.n}`,
    );
    console.log('\n| figure (ms) | p50 | p95 | n |\n| --- | --- | --- | --- |');
    console.log(`| search under load (every search) | ${ms(s.p50)} | ${ms(s.p95)} | ${s.n} |`);
    console.log(`| search under load (those answered by a loaded local index) | ${ms(sl.p50)} | ${ms(sl.p95)} | ${sl.n} |`);
    console.log(`| write under load (create/edit) | ${ms(w.p50)} | ${ms(w.p95)} | ${w.n} |`);
    console.log(`| write under load: creates | ${ms(wc.p50)} | ${ms(wc.p95)} | ${wc.n} |`);
    console.log(`| write under load: edits (of 50 memories every client edits) | ${ms(we.p50)} | ${ms(we.p95)} | ${we.n} |`);
    console.log(`| read under load | ${ms(rd.p50)} | ${ms(rd.p95)} | ${rd.n} |`);
    console.log(`| write under load, once the client's index was loaded | ${ms(wl.p50)} | ${ms(wl.p95)} | ${wl.n} |`);
    console.log(`| read under load, once the client's index was loaded | ${ms(rl.p50)} | ${ms(rl.p95)} | ${rl.n} |`);
    console.log(`| search, one client (ours, ranked, on the server) | ${ms(ours.p50)} | ${ms(ours.p95)} | ${ours.n} |`);
    console.log(`| search, one client (ours, on the server), median per query kind: ${byKind.join('; ')} | | | |`);
    console.log(`| search, one client (ours, ranked, local index + catch-up) | ${ms(local.p50)} | ${ms(local.p95)} | ${local.n} |`);
    console.log(`| search, one client (baseline: ILIKE scan, unranked) | ${ms(naive.p50)} | ${ms(naive.p95)} | ${naive.n} |`);
    console.log(
      `| search by content words, one client (ours, ranked, on the server) | ${ms(oursContent.p50)} | ${ms(oursContent.p95)} | ${oursContent.n} |`,
    );
    console.log(
      `| search by content words, one client (baseline: ILIKE scan of description, tags and content) | ${ms(naiveContent.p50)} | ${ms(naiveContent.p95)} | ${naiveContent.n} |`,
    );
    console.log(`| write, one client (create) | ${ms(oneWrite.p50)} | ${ms(oneWrite.p95)} | ${oneWrite.n} |`);
    console.log(`| read, one client | ${ms(oneRead.p50)} | ${ms(oneRead.p95)} | ${oneRead.n} |`);
    console.log(
      `\nours on the server / baseline: p50 ${(ours.p50 / naive.p50).toFixed(2)}×, p95 ${(ours.p95 / naive.p95).toFixed(2)}× (below 1 is faster)`,
    );
    console.log(`ours, local index / baseline: p50 ${(local.p50 / naive.p50).toFixed(2)}×, p95 ${(local.p95 / naive.p95).toFixed(2)}×`);
    console.log(
      `by content words, ours on the server / baseline with content: p50 ${(oursContent.p50 / naiveContent.p50).toFixed(2)}×, p95 ${(oursContent.p95 / naiveContent.p95).toFixed(2)}× (${byContent.length} queries, e.g. ${byContent
        .slice(0, 3)
        .map((q) => q[0])
        .join(', ')})`,
    );
    console.log(
      `\n${teamTargetTable({
        n: N,
        seedMs,
        clients: CLIENTS,
        ops: OPS,
        runMs,
        lost,
        searchUnderLoadP50: s.p50,
        writeUnderLoadP50: w.p50,
        oneClient: ours,
        ilike: naive,
      })}`,
    );
    await c.end();
    await store.close();
    if (lost !== 0 || unacknowledged !== 0 || gaps.rows[0]!.n !== 0) process.exitCode = 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (keep === undefined) await admin(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`);
  }
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
