/**
 * `npm run bench -- --n 1000,10000 [--facts 100000] [--only memories|facts|lock|cli|citations] [--iters 200] [--trials 20] [--cli FILE] [--seed 42] [--keep] [--cpu-prof DIR]`
 *
 * For each N: generates N memories with history (deterministic), loads them through the
 * real store (importVersions in batches, then a checkpoint), builds the naive baseline from
 * the same rows, and measures both sides in fresh child processes: open → first result,
 * searches, durable writes, file sizes, RSS. Prints one table per N, a README table and the
 * issue's targets with PASS/FAIL. Timings live here, never in tests.
 * Then the facts benchmark (facts.ts) with --facts N facts (default 100000; 0 skips it) on the
 * workspace store and, when it answers, PostgreSQL. Then the write lock (lockTakeover.ts: the
 * first write after a writer was killed holding the lock, --trials kills) and the one-shot CLI
 * (cliStart.ts: whole `node dist/cli.js` processes beside `node -e 0`, --trials runs each; --cli
 * FILE measures another bundle, e.g. an older build).
 * --only runs one of the five.
 * --keep leaves the temporary folders in place; --cpu-prof DIR profiles every child process.
 * --report FILE also writes what it prints (the tables) to FILE as Markdown, with the date, the
 * commit and the command line: docs/performance.md's figures are regenerated that way.
 */
import { citationTable, runCitationCheck } from './citationCheck';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildNaiveDb } from './baselines';
import { dropFactsScratch, type FactsResult, runFacts } from './facts';
import { factsDetailTable, factsSummaryTable } from './factsReport';
import { generate, prng } from './generate';
import { type MergeFigures, prepareMerge } from './gitMerge';
import { loadOurs } from './ours';
import { type NaiveFigures, type OpenFigures, type OursFigures, type Plan } from './plan';
import { cliTable, runCliStart } from './cliStart';
import { lockTable, runLockTakeover } from './lockTakeover';
import { checkTargets, detailTable, readmeTable, targetTable, type RunResult } from './report';
import { runChild } from './spawn';
import { mb } from './stats';
import { writeViewAsJson } from './viewJson';
import { VIEW_FILE } from '../src/store/sqljs/currentView';

interface Args {
  ns: number[];
  /** Facts for the facts benchmark; 0 skips it. */
  facts: number;
  only?: 'memories' | 'facts' | 'lock' | 'cli' | 'citations';
  iters: number;
  /** Kill trials of the lock benchmark, and processes of each kind of the CLI benchmark. */
  trials: number;
  /** The CLI bundle the CLI benchmark runs (default dist/cli.js). */
  cli?: string;
  seed: number;
  keep: boolean;
  cpuProf?: string;
  /** Where to write the printed tables as a Markdown report. */
  report?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { ns: [10_000], facts: 100_000, iters: 200, trials: 20, seed: 42, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const int = (v: string, zero = false) => {
      const x = Number(v.replace(/[_k]/gi, (c) => (c.toLowerCase() === 'k' ? '000' : '')));
      if (!Number.isInteger(x) || x < 0 || (x === 0 && !zero)) throw new Error(`${a}: "${v}" is not a positive whole number`);
      return x;
    };
    if (a === '--n')
      args.ns = value()
        .split(',')
        .map((v) => int(v));
    else if (a === '--facts') args.facts = int(value(), true);
    else if (a === '--only') {
      const v = value();
      if (v !== 'memories' && v !== 'facts' && v !== 'lock' && v !== 'cli' && v !== 'citations')
        throw new Error(`--only takes memories, facts, lock, cli or citations, not "${v}"`);
      args.only = v;
    } else if (a === '--iters') args.iters = int(value());
    else if (a === '--trials') args.trials = int(value());
    else if (a === '--cli') args.cli = path.resolve(value());
    else if (a === '--seed') args.seed = int(value());
    else if (a === '--keep') args.keep = true;
    else if (a === '--cpu-prof') args.cpuProf = path.resolve(value());
    else if (a === '--report') args.report = path.resolve(value());
    else
      throw new Error(
        `unknown argument ${a}; use --n 1000,10000 --facts 100000 --only memories|facts|lock|cli|citations --iters 200 --trials 20 --cli FILE --seed 42 --keep --cpu-prof DIR --report FILE`,
      );
  }
  if (args.only === 'facts' && args.facts === 0) throw new Error('--only facts with --facts 0 measures nothing');
  return args;
}

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

/** What the run prints on stdout (its tables), kept for --report. */
const printed: string[] = [];
function print(text: string): void {
  printed.push(text);
  console.log(text);
}

/** The printed tables as a Markdown report: when, on which commit, with which command line. */
function writeReport(file: string): void {
  let commit = 'unknown commit';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout: the report says so
  }
  const head = `# Benchmark run\n\n${new Date().toISOString().slice(0, 10)}, commit ${commit}: \`npm run bench -- ${process.argv.slice(2).join(' ')}\`\n\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${head}${printed.join('\n')}\n`);
  log(`report written to ${file}`);
}

const child = <T>(args: Args, phase: string, planFile: string, dir?: string): T =>
  runChild<T>(phase, planFile, { dir, cpuProf: args.cpuProf });

async function runN(args: Args, n: number, root: string): Promise<RunResult> {
  const dir = path.join(root, String(n));
  const storeDir = path.join(dir, 'store');
  const naiveDb = path.join(dir, 'naive.sqlite');
  fs.mkdirSync(dir, { recursive: true });

  let t = performance.now();
  let data: ReturnType<typeof generate> | undefined = generate(n, args.seed);
  const generateMs = performance.now() - t;
  const versionRows = data.rows.length;
  log(`N=${n}: ${versionRows} version rows, ${data.live.length} live, generated in ${(generateMs / 1000).toFixed(1)} s`);

  const { importMs, checkpointMs } = await loadOurs(storeDir, data.rows);
  log(`N=${n}: loaded our store in ${(importMs / 1000).toFixed(1)} s (+ checkpoint ${checkpointMs.toFixed(0)} ms)`);
  t = performance.now();
  await buildNaiveDb(data.rows, naiveDb);
  const naiveBuildMs = performance.now() - t;

  const size = (f: string) => mb(fs.statSync(f).size);
  const files = {
    journalMb: size(path.join(storeDir, 'journal.jsonl')),
    snapshotMb: size(path.join(storeDir, 'snapshot.sqlite')),
    indexMb: size(path.join(storeDir, VIEW_FILE)),
    naiveDbMb: size(naiveDb),
  };
  const rnd = prng(args.seed + 3);
  const editIds = [...data.live];
  for (let i = editIds.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [editIds[i], editIds[j]] = [editIds[j]!, editIds[i]!];
  }
  const plan: Plan = {
    n,
    seed: args.seed,
    storeDir,
    naiveDb,
    selective: data.selective,
    broad: data.broad,
    editIds: editIds.slice(0, args.iters + 20),
    iters: args.iters,
    baselineBudgetMs: 30_000,
  };
  data = undefined; // the rows are on disk now; let the children have the memory
  const planFile = path.join(dir, 'plan.json');
  fs.writeFileSync(planFile, JSON.stringify(plan));

  const loadBefore = os.loadavg()[0]!;
  const big = n >= 50_000;
  const opens: OpenFigures[] = [];
  for (let i = 0; i < (big ? 3 : 5); i++) opens.push(child<OpenFigures>(args, 'open', planFile));
  log(`N=${n}: open with snapshot measured`);
  const viewJson = path.join(dir, 'search-index.json');
  writeViewAsJson(path.join(storeDir, VIEW_FILE), viewJson);
  const jsonParses: Array<{ parseMs: number; rssMb: number }> = [];
  for (let i = 0; i < (big ? 3 : 5); i++) jsonParses.push(child(args, 'view-json', planFile, viewJson));
  fs.rmSync(viewJson);
  log(`N=${n}: the saved view as JSON measured`);
  const journalOpens: OpenFigures[] = [];
  const journalOpensBefore: OpenFigures[] = [];
  for (let i = 0; i < (big ? 1 : 3); i++) {
    for (const [phase, into] of [
      ['open', journalOpens],
      ['open-before', journalOpensBefore],
    ] as const) {
      const jdir = path.join(dir, `journal-only-${i}`);
      fs.mkdirSync(jdir);
      fs.copyFileSync(path.join(storeDir, 'journal.jsonl'), path.join(jdir, 'journal.jsonl'));
      into.push(child<OpenFigures>(args, phase, planFile, jdir));
      fs.rmSync(jdir, { recursive: true, force: true });
    }
  }
  log(`N=${n}: open from the journal alone measured`);
  const mergeFile = path.join(dir, 'merge.json');
  fs.writeFileSync(mergeFile, JSON.stringify(prepareMerge(plan, dir)));
  const merge: { incremental: MergeFigures[]; rebuild: MergeFigures[] } = { incremental: [], rebuild: [] };
  // Three catch-ups at every size (the target is a median, and one run on these machines varies
  // by a third); the rebuild, its baseline, once at 100k and more (a minute each).
  for (let i = 0; i < 3; i++) {
    merge.incremental.push(child<MergeFigures>(args, 'merge', mergeFile));
    if (i < (big ? 1 : 3)) merge.rebuild.push(child<MergeFigures>(args, 'merge-rebuild', mergeFile));
  }
  log(`N=${n}: 1,000 versions merged in by git measured`);
  const ours = child<OursFigures>(args, 'ours', planFile);
  log(`N=${n}: our searches and writes measured`);
  const naive = child<NaiveFigures>(args, 'naive', planFile);
  log(`N=${n}: baselines measured`);
  if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });
  const loadAvg: [number, number] = [loadBefore, os.loadavg()[0]!];
  return {
    n,
    versionRows,
    loadAvg,
    load: { generateMs, importMs, checkpointMs, naiveBuildMs },
    files,
    opens,
    jsonParses,
    journalOpens,
    journalOpensBefore,
    merge,
    ours,
    naive,
  };
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    process.exit(2);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-memory-bench-'));
  const cleanup = () => {
    if (!args.keep) fs.rmSync(root, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    void dropFactsScratch().finally(() => process.exit(130));
  });
  const results: RunResult[] = [];
  let facts: FactsResult | undefined;
  try {
    for (const n of args.only === undefined || args.only === 'memories' ? args.ns : []) {
      const r = await runN(args, n, root);
      results.push(r);
      print(`${detailTable(r)}\n`);
    }
    if ((args.only === undefined || args.only === 'facts') && args.facts > 0) {
      facts = await runFacts({ n: args.facts, iters: args.iters, seed: args.seed, keep: args.keep, cpuProf: args.cpuProf }, root);
      for (const b of facts.backends) print(`${factsDetailTable(facts, b)}\n`);
      if (facts.pgSkipped) print(`PostgreSQL not measured: ${facts.pgSkipped}.\n`);
    }
    if (args.only === undefined || args.only === 'lock') {
      print(`${lockTable(await runLockTakeover(args.trials, root))}\n`);
      log('write lock takeover measured');
    }
    if (args.only === undefined || args.only === 'cli') {
      print(`${cliTable(await runCliStart(args.trials, root, args.cli))}\n`);
      log('one-shot CLI measured');
    }
    if (args.only === undefined || args.only === 'citations') {
      print(`${citationTable(await runCitationCheck(10_000, root, args.seed))}\n`);
      log('citations in search measured');
    }
  } finally {
    cleanup();
  }
  const sqljsVersion = (
    JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('sql.js')), '..', 'package.json'), 'utf8')) as { version: string }
  ).version;
  print(
    `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, Node ${process.version}, sql.js ${sqljsVersion}, ` +
      `${os.platform()}; files in ${os.tmpdir()}` +
      (results.length
        ? `; memories: ${args.iters} searches per class and ${args.iters} writes per kind (baselines stop after 30 s, with at least 20 samples)`
        : '') +
      (facts
        ? `; facts: ${args.iters} calls per query class and per kind of write, on both sides, each loop stopping after 30 s with at least 20 samples`
        : '') +
      '.\n',
  );
  if (facts) print(`## Facts table\n\n${factsSummaryTable(facts)}\n`);
  if (results.length) {
    print(`## README table\n\n${readmeTable(results)}\n`);
    const targets = checkTargets(results);
    print(`## Targets\n\n${targetTable(targets)}`);
    if (targets.some((x) => !x.pass)) print(`\n${targets.filter((x) => !x.pass).length} target(s) missed.`);
  }
  if (args.report) writeReport(args.report);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
