import * as os from 'node:os';
import type { MergeFigures } from './gitMerge';
import type { NaiveFigures, OpenFigures, OursFigures } from './plan';
import { median, ms, ratio, type Summary } from './stats';

/** Everything measured for one N. */
export interface RunResult {
  n: number;
  versionRows: number;
  load: { generateMs: number; importMs: number; checkpointMs: number; naiveBuildMs: number };
  /** 1-minute load average before and after measuring: other work on the machine skews every figure. */
  loadAvg: [number, number];
  /** indexMb: the saved view (search-index.bin: heads, citations and the search index), written by the load's checkpoint. */
  files: { journalMb: number; snapshotMb: number; indexMb: number; naiveDbMb: number };
  opens: OpenFigures[];
  /** The saved view's content as JSON (viewJson.ts): read + JSON.parse in a fresh process, nothing built. */
  jsonParses: Array<{ parseMs: number; rssMb: number }>;
  journalOpens: OpenFigures[];
  /** The same, building the database first as before issue 17 (SqlJsStoreOptions.viewFirstFrom). */
  journalOpensBefore: OpenFigures[];
  /** 1,000 versions merged in by git (gitMerge.ts): caught up incrementally, and rebuilt as before. */
  merge: { incremental: MergeFigures[]; rebuild: MergeFigures[] };
  ours: OursFigures;
  naive: NaiveFigures;
}

export interface Target {
  n: number;
  what: string;
  actual: string;
  pass: boolean;
}

const pp = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)}`;
const openTotal = (o: OpenFigures[]) => median(o.map((x) => x.openMs + x.firstSearchMs));
const mergeParts = (xs: MergeFigures[]) =>
  `${ms(median(xs.map((x) => x.searchMs)))} (then a read ${ms(median(xs.map((x) => x.readMs)))}; ${xs.length} runs${
    xs.some((x) => x.warnings.length) ? `; ${[...new Set(xs.flatMap((x) => x.warnings))].join(', ')}` : ''
  })`;
const hits = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** The detailed table for one N. */
export function detailTable(r: RunResult): string {
  const o = r.ours;
  const b = r.naive;
  const openParts = (xs: OpenFigures[]) =>
    `${ms(openTotal(xs))} (open ${ms(median(xs.map((x) => x.openMs)))} + search ${ms(median(xs.map((x) => x.firstSearchMs)))}; ${xs.length} runs)`;
  const rows: string[][] = [
    [
      'search, selective: p50 / p95 ms',
      pp(o.search.selective),
      pp(b.search.selective),
      ratio(b.search.selective.p50, o.search.selective.p50),
    ],
    ['  matches per query (ours / naive LIKE)', hits(o.search.selectiveHits), hits(b.search.selectiveHits), ''],
    ['search, broad: p50 / p95 ms', pp(o.search.broad), pp(b.search.broad), ratio(b.search.broad.p50, o.search.broad.p50)],
    ['  matches per query (ours / naive LIKE)', hits(o.search.broadHits), hits(b.search.broadHits), ''],
    ['durable write, create: p50 / p95 ms', pp(o.create), pp(b.write), ratio(b.write.p50, o.create.p50)],
    ['durable write, edit: p50 / p95 ms', pp(o.edit), pp(b.write), ratio(b.write.p50, o.edit.p50)],
    ['  of which export() (baseline) p50 ms', '', ms(b.exportMs.p50), ''],
    ['  samples (ours per kind / baseline)', String(o.create.n), String(b.write.n), ''],
    [
      'open → first result, snapshot + journal: ms',
      openParts(r.opens),
      `${ms(b.openMs + b.firstSearchMs)} (load ${ms(b.openMs)} + search ${ms(b.firstSearchMs)})`,
      '',
    ],
    [
      '  the saved view: ours (packed, open + first search) / its content as JSON (read + parse only): ms',
      ms(openTotal(r.opens)),
      `${ms(median(r.jsonParses.map((x) => x.parseMs)))} (RSS after it ${median(r.jsonParses.map((x) => x.rssMb)).toFixed(0)} MB)`,
      ratio(median(r.jsonParses.map((x) => x.parseMs)), openTotal(r.opens)),
    ],
    [
      'open → first result, journal only: ms',
      openParts(r.journalOpens),
      `${openParts(r.journalOpensBefore)} (database first, as before)`,
      ratio(openTotal(r.journalOpensBefore), openTotal(r.journalOpens)),
    ],
    [
      '1,000 versions merged in by git (rebase), next search: ms',
      `${mergeParts(r.merge.incremental)}`,
      `${mergeParts(r.merge.rebuild)} (rebuilt as before)`,
      ratio(median(r.merge.rebuild.map((x) => x.searchMs)), median(r.merge.incremental.map((x) => x.searchMs))),
    ],
    ['checkpoint (export + fsync + rename, every 1000 writes): ms', ms(o.checkpointMs), '', ''],
    [
      'files: MB',
      `journal ${r.files.journalMb.toFixed(1)}, snapshot ${r.files.snapshotMb.toFixed(1)}, search index ${r.files.indexMb.toFixed(2)}`,
      `db ${r.files.naiveDbMb.toFixed(1)}`,
      '',
    ],
    ['RSS after open + first search: MB', median(r.opens.map((x) => x.rssMb)).toFixed(0), b.rssMb.toFixed(0), ''],
    [
      'load: importVersions of all rows, 5000 per call: s',
      (r.load.importMs / 1000).toFixed(1),
      `${(r.load.naiveBuildMs / 1000).toFixed(1)} (build + export)`,
      '',
    ],
  ];
  return [
    `### ${r.n.toLocaleString('en-US')} memories (${r.versionRows.toLocaleString('en-US')} version rows)`,
    '',
    `Machine load average (1 min) ${r.loadAvg[0].toFixed(1)} before, ${r.loadAvg[1].toFixed(1)} after measuring, on ${os.cpus().length} cores.`,
    '',
    '| metric | ours (SqlJsStore + MemoryService) | baseline (naive LIKE / export-per-write) | baseline ÷ ours |',
    '| --- | --- | --- | --- |',
    ...rows.map((c) => `| ${c.join(' | ')} |`),
  ].join('\n');
}

/** One line per N: the table for the README. */
export function readmeTable(results: RunResult[]): string {
  const lines = [
    '| memories | search p50, selective: ours / naive | search p50, broad: ours / naive | durable write p50: ours / export-per-write | open → first result: snapshot / journal only | journal / snapshot / search index | RSS |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const o = r.ours;
    const b = r.naive;
    lines.push(
      `| ${r.n.toLocaleString('en-US')} ` +
        `| ${ms(o.search.selective.p50)} / ${ms(b.search.selective.p50)} ms (${ratio(b.search.selective.p50, o.search.selective.p50)}) ` +
        `| ${ms(o.search.broad.p50)} / ${ms(b.search.broad.p50)} ms (${ratio(b.search.broad.p50, o.search.broad.p50)}) ` +
        `| ${ms(o.write.p50)} / ${ms(b.write.p50)} ms (${ratio(b.write.p50, o.write.p50)}) ` +
        `| ${ms(openTotal(r.opens))} / ${ms(openTotal(r.journalOpens))} ms ` +
        `| ${r.files.journalMb.toFixed(0)} / ${r.files.snapshotMb.toFixed(0)} / ${r.files.indexMb.toFixed(1)} MB ` +
        `| ${median(r.opens.map((x) => x.rssMb)).toFixed(0)} MB |`,
    );
  }
  return lines.join('\n');
}

/** The issue's targets, checked where the run has the N they are set for. */
export function checkTargets(results: RunResult[]): Target[] {
  const out: Target[] = [];
  const at = (n: number) => results.find((r) => r.n === n);
  const t = (n: number, what: string, value: number, limit: number, unit: 'ms' | 'x' | 'MB', atLeast = false) =>
    out.push({
      n,
      what,
      actual: unit === 'ms' ? `${ms(value)} ms` : unit === 'MB' ? `${value.toFixed(0)} MB` : `${value.toFixed(2)}x`,
      pass: atLeast ? value >= limit : value <= limit,
    });
  const r10 = at(10_000);
  if (r10) {
    const o = r10.ours;
    const b = r10.naive;
    t(10_000, 'search p50, selective <= 3 ms', o.search.selective.p50, 3, 'ms');
    t(10_000, 'search p50, broad <= 3 ms', o.search.broad.p50, 3, 'ms');
    t(10_000, 'search selective >= 10x naive (p50)', b.search.selective.p50 / o.search.selective.p50, 10, 'x', true);
    t(10_000, 'search broad >= 10x naive (p50)', b.search.broad.p50 / o.search.broad.p50, 10, 'x', true);
    t(10_000, 'durable write p50 (create) <= 2 ms', o.create.p50, 2, 'ms');
    t(10_000, 'durable write p50 (edit) <= 2 ms', o.edit.p50, 2, 'ms');
    t(
      10_000,
      'durable write >= 30x export-per-write (p50, create and edit)',
      b.write.p50 / Math.max(o.create.p50, o.edit.p50),
      30,
      'x',
      true,
    );
    t(10_000, 'open → first result (snapshot, median) <= 150 ms', openTotal(r10.opens), 150, 'ms');
    t(10_000, 'open → first result (journal only) <= 300 ms', openTotal(r10.journalOpens), 300, 'ms');
  }
  const r100 = at(100_000);
  if (r100) {
    t(100_000, 'search p50, selective <= 30 ms', r100.ours.search.selective.p50, 30, 'ms');
    t(100_000, 'durable write p50 (create) <= 2 ms', r100.ours.create.p50, 2, 'ms');
    t(100_000, 'durable write p50 (edit) <= 2 ms', r100.ours.edit.p50, 2, 'ms');
    t(100_000, '1,000 versions merged in by git, next search <= 300 ms', median(r100.merge.incremental.map((x) => x.searchMs)), 300, 'ms');
    t(100_000, 'open → first result (snapshot, median) <= 250 ms', openTotal(r100.opens), 250, 'ms');
    const sqljsLoad = r100.naive.openMs + r100.naive.firstSearchMs;
    t(100_000, 'open → first result (snapshot) <= 0.5x sql.js loading the baseline file', openTotal(r100.opens) / sqljsLoad, 0.5, 'x');
    t(100_000, 'open → first result (journal only) <= 3000 ms', openTotal(r100.journalOpens), 3000, 'ms');
    t(100_000, 'RSS after open + first search <= 250 MB', median(r100.opens.map((x) => x.rssMb)), 250, 'MB');
  }
  return out;
}

export function targetTable(targets: Target[]): string {
  if (targets.length === 0) return 'No targets apply to these N (targets are set for 10,000 and 100,000).';
  return [
    '| N | target | measured | result |',
    '| --- | --- | --- | --- |',
    ...targets.map((x) => `| ${x.n.toLocaleString('en-US')} | ${x.what} | ${x.actual} | ${x.pass ? 'PASS' : 'FAIL'} |`),
  ].join('\n');
}
