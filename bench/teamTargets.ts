// issue 17's targets for the team database, as PASS/FAIL rows under `npm run bench:team`'s
// figures: those for 100k memories at 100k, those for 1M at 1M (BENCH_TEAM_N=1000000); a figure
// this run did not measure (a reused database's seed, a load run of another shape) says so.

export interface TeamFigures {
  n: number;
  /** The seed's time, when this run seeded the database. */
  seedMs?: number;
  clients: number;
  ops: number;
  runMs: number;
  lost: number;
  searchUnderLoadP50: number;
  writeUnderLoadP50: number;
  /** One client, ranked on the server, over all the bench's queries. */
  oneClient: { p50: number; p95: number };
  /** One client, the unranked ILIKE scan over the same queries. */
  ilike: { p50: number };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

export function teamTargetTable(f: TeamFigures): string {
  const rows: Array<[string, string, boolean | undefined]> = [];
  if (f.n >= 1_000_000) {
    rows.push(['search on the server, one client, p50 <= 50 ms', `${ms(f.oneClient.p50)} ms`, f.oneClient.p50 <= 50]);
    rows.push(['search on the server, one client, p95 <= 200 ms', `${ms(f.oneClient.p95)} ms`, f.oneClient.p95 <= 200]);
    const full = f.clients === 16 && f.ops === 500;
    rows.push([
      '16 clients × 500 mixed operations <= 150 s',
      full ? `${(f.runMs / 1000).toFixed(1)} s` : `not measured (${f.clients} × ${f.ops} in this run)`,
      full ? f.runMs <= 150_000 : undefined,
    ]);
    rows.push(['search p50 under load <= 200 ms', `${ms(f.searchUnderLoadP50)} ms`, full ? f.searchUnderLoadP50 <= 200 : undefined]);
    rows.push(['write p50 under load <= 50 ms', `${ms(f.writeUnderLoadP50)} ms`, full ? f.writeUnderLoadP50 <= 50 : undefined]);
    rows.push([
      `seed ${f.n.toLocaleString('en-US')} memories <= 120 s`,
      f.seedMs === undefined ? 'not measured (the database was reused)' : `${(f.seedMs / 1000).toFixed(1)} s`,
      f.seedMs === undefined ? undefined : f.seedMs <= 120_000,
    ]);
  } else if (f.n >= 100_000) {
    rows.push(['search on the server, one client, p50 <= 10 ms', `${ms(f.oneClient.p50)} ms`, f.oneClient.p50 <= 10]);
    rows.push([
      'search on the server, one client, faster than the ILIKE baseline (p50)',
      `${(f.oneClient.p50 / f.ilike.p50).toFixed(2)}×`,
      f.oneClient.p50 < f.ilike.p50,
    ]);
  }
  rows.push(['acknowledged writes lost in the load run = 0', String(f.lost), f.lost === 0]);
  const result = (pass: boolean | undefined) => (pass === undefined ? 'not measured' : pass ? 'PASS' : 'FAIL');
  return [
    '| target | measured | result |',
    '| --- | --- | --- |',
    ...rows.map(([what, got, pass]) => `| ${what} | ${got} | ${result(pass)} |`),
  ].join('\n');
}
