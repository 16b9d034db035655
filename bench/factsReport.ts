import * as os from 'node:os';
import type { FactsBackendResult, FactsResult } from './facts';
import { type FactOpenFigures, type FactsSideFigures, type QueryClass, type WriteClass } from './factsPlan';
import { median, ms, ratio, type Summary } from './stats';

const pp = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)}`;
const hits = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const openTotal = (o: FactOpenFigures[]) => median(o.map((x) => x.openMs + x.firstQueryMs));
const BACKEND = { sqljs: 'workspace store (sql.js)', postgres: 'team store (PostgreSQL)' } as const;
const BASELINE = {
  sqljs: 'baseline (JSON table, json_extract scan; export per write)',
  postgres: 'baseline (jsonb table, ->> scan; one transaction per write)',
} as const;

/**
 * Over the probes both sides ran: mean facts returned by each, and how many probes got the
 * same ids in the same order on both sides.
 */
function compare(o: FactsSideFigures, b: FactsSideFigures, c: QueryClass): { ours: number; naive: number; same: string } {
  const m = Math.min(o.queries[c].answers.length, b.queries[c].answers.length);
  const a = o.queries[c].answers.slice(0, m);
  const z = b.queries[c].answers.slice(0, m);
  const mean = (xs: Array<[number, string]>) => xs.reduce((s, x) => s + x[0], 0) / (m || 1);
  const k = a.filter((x, i) => x[1] === z[i]![1]).length;
  return { ours: mean(a), naive: mean(z), same: `same ids for ${k}/${m} probes` };
}

const QUERY_ROWS: Array<[QueryClass, string]> = [
  ['subject', 'query by subject (FactService.query, 20 per page)'],
  ['predicateObject', 'query by predicate + object'],
  ['object', 'query by object alone'],
  ['contextSubject', "context lookup: records.query, subject IN the task's candidates (limit 50)"],
  ['contextBoth', 'context lookup as the context tool runs it: subject IN + object IN, in parallel'],
];
const WRITE_ROWS: Array<[WriteClass, string]> = [
  ['created', 'durable assert, new fact (created)'],
  ['refreshed', 'durable assert, same triple (refreshed: a new version)'],
  ['disputed', 'durable assert, contradiction on a single-valued relation (disputed: 2 rows)'],
];

/** The detailed table of one backend. */
export function factsDetailTable(r: FactsResult, b: FactsBackendResult): string {
  const o = b.ours;
  const z = b.naive;
  const rows: string[][] = [];
  for (const [c, label] of QUERY_ROWS) {
    rows.push([
      `${label}: p50 / p95 ms`,
      pp(o.queries[c].summary),
      pp(z.queries[c].summary),
      ratio(z.queries[c].summary.p50, o.queries[c].summary.p50),
    ]);
    const cmp = compare(o, z, c);
    rows.push([`  facts per call (ours / baseline); ${cmp.same}`, hits(cmp.ours), hits(cmp.naive), '']);
  }
  for (const [c, label] of WRITE_ROWS)
    rows.push([`${label}: p50 / p95 ms`, pp(o.writes[c]), pp(z.writes[c]), ratio(z.writes[c].p50, o.writes[c].p50)]);
  if (z.exportMs) rows.push(['  of which export() (baseline) p50 ms', '', ms(z.exportMs.p50), '']);
  const fewest = (x: FactsSideFigures, k: 'queries' | 'writes') =>
    Math.min(...(k === 'queries' ? Object.values(x.queries).map((q) => q.summary.n) : Object.values(x.writes).map((s) => s.n)));
  rows.push([
    '  fewest samples of a query class / of a write kind (each loop stops after 30 s)',
    `${fewest(o, 'queries')} / ${fewest(o, 'writes')}`,
    `${fewest(z, 'queries')} / ${fewest(z, 'writes')}`,
    '',
  ]);
  rows.push([
    'open → first query by subject: ms',
    `${ms(openTotal(b.opens))} (open ${ms(median(b.opens.map((x) => x.openMs)))} + query ${ms(median(b.opens.map((x) => x.firstQueryMs)))}; median of ${b.opens.length} processes)`,
    `${ms(z.open.openMs + z.open.firstQueryMs)} (${b.backend === 'sqljs' ? 'load' : 'connect'} ${ms(z.open.openMs)} + query ${ms(z.open.firstQueryMs)})`,
    ratio(z.open.openMs + z.open.firstQueryMs, openTotal(b.opens)),
  ]);
  rows.push([
    'RSS after open + first query / after the run: MB',
    `${median(b.opens.map((x) => x.rssMb)).toFixed(0)} / ${o.rssMb.toFixed(0)}`,
    `${z.open.rssMb.toFixed(0)} / ${z.rssMb.toFixed(0)}`,
    '',
  ]);
  if (b.files)
    rows.push([
      'files: MB',
      `journal ${b.files.journalMb.toFixed(1)}, snapshot ${b.files.snapshotMb.toFixed(1)}`,
      `db ${b.files.naiveDbMb.toFixed(1)}`,
      '',
    ]);
  rows.push([
    `load: importRecords of all rows, 5000 per call, then ${b.backend === 'sqljs' ? 'a checkpoint' : 'VACUUM ANALYZE'}: s`,
    `${(b.importMs / 1000).toFixed(1)} + ${(b.settleMs / 1000).toFixed(1)}`,
    `${(b.naiveBuildMs / 1000).toFixed(1)} (build)`,
    '',
  ]);
  const statuses = Object.entries(r.statuses)
    .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
    .join(', ');
  return [
    `### ${r.n.toLocaleString('en-US')} facts, ${BACKEND[b.backend]}`,
    '',
    `${r.rows.toLocaleString('en-US')} version rows; current: ${statuses}; ${r.subjects.toLocaleString('en-US')} subjects (Zipf), 50 relations (29 single-valued); ` +
      `${r.meanCandidates.toFixed(1)} entity candidates per context task on average. Machine load average (1 min) ${b.loadAvg[0].toFixed(1)} before, ` +
      `${b.loadAvg[1].toFixed(1)} after measuring, on ${os.cpus().length} cores.`,
    '',
    `| metric | ours (${b.backend === 'sqljs' ? 'SqlJsStore' : 'PgStore'} + FactService) | ${BASELINE[b.backend]} | baseline ÷ ours |`,
    '| --- | --- | --- | --- |',
    ...rows.map((c) => `| ${c.join(' | ')} |`),
  ].join('\n');
}

/** One line per backend, for the README and ARCHITECTURE. */
export function factsSummaryTable(r: FactsResult): string {
  const lines = [
    '| facts | backend | query p50 by subject / predicate+object / object: ours (baseline) | context lookup p50: ours (baseline) | durable assert p50 new / refresh / dispute: ours (baseline) | open → first query |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const b of r.backends) {
    const o = b.ours;
    const z = b.naive;
    const q = (c: QueryClass) => `${ms(o.queries[c].summary.p50)} (${ms(z.queries[c].summary.p50)})`;
    const w = (c: WriteClass) => `${ms(o.writes[c].p50)} (${ms(z.writes[c].p50)})`;
    lines.push(
      `| ${r.n.toLocaleString('en-US')} | ${b.backend} | ${q('subject')} / ${q('predicateObject')} / ${q('object')} ms ` +
        `| ${q('contextBoth')} ms | ${w('created')} / ${w('refreshed')} / ${w('disputed')} ms | ${ms(openTotal(b.opens))} ms |`,
    );
  }
  return lines.join('\n');
}
