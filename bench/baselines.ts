import * as fs from 'node:fs';
import { writeFileAtomic } from '../src/store/sqljs/atomicFile';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import type { StoredVersion } from '../src/core/ports/store';
import { MemoryWriter, prng, uuid } from './generate';
import type { NaiveFigures, Plan, SearchFigures } from './plan';
import { rssMb, sample, summarize } from './stats';

/**
 * The two baselines, on sql.js directly, as the seed would have built them:
 * one type-2 table whose current rows are found with a max(changed_at) subquery,
 * searched with LIKE '%keyword%' over description and tags; and a durable write that
 * exports the whole database to a file after every INSERT.
 */

const SCHEMA = `
  CREATE TABLE memories (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    description TEXT NOT NULL,
    tags TEXT NOT NULL,
    content TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    deleted_at TEXT,
    author TEXT NOT NULL
  );
  CREATE INDEX memories_by_id ON memories (id, changed_at);
`;
const INSERT = 'INSERT INTO memories (id, description, tags, content, changed_at, deleted_at, author) VALUES (?, ?, ?, ?, ?, ?, ?)';

let sql: Promise<SqlJsStatic> | undefined;
const SQL = () => (sql ??= initSqlJs());

/** Builds the baseline database from the same version rows and writes it to `file`. */
export async function buildNaiveDb(rows: StoredVersion[], file: string): Promise<void> {
  const db = new (await SQL()).Database();
  db.exec(SCHEMA);
  db.exec('BEGIN');
  const st = db.prepare(INSERT);
  for (const r of rows) st.run([r.id, r.description, JSON.stringify(r.tags), r.content, r.changedAt, r.deletedAt, r.author]);
  st.free();
  db.exec('COMMIT');
  fs.writeFileSync(file, db.export());
  db.close();
}

/**
 * The seed's search: a memory matches when a keyword is a case-insensitive substring of
 * its description or of a tag; more matching keywords first, then oldest first.
 */
function naiveSql(keywords: number, limit: boolean): string {
  const matched = Array.from({ length: keywords }, (_, i) => `(v.description LIKE ?${i + 1} OR v.tags LIKE ?${i + 1})`).join(' + ');
  return `SELECT v.id, v.description, v.tags, ${matched} AS matched FROM memories v
    WHERE v.deleted_at IS NULL
      AND v.changed_at = (SELECT max(w.changed_at) FROM memories w WHERE w.id = v.id)
      AND matched > 0
    ORDER BY matched DESC, v.pk${limit ? ' LIMIT 10' : ''}`;
}

const escapeLike = (k: string) => `%${k.toLowerCase()}%`;

export function naiveSearch(db: Database, keywords: string[], limit = true): Array<{ id: string; description: string; tags: string[] }> {
  const res = db.exec(naiveSql(keywords.length, limit), keywords.map(escapeLike));
  return (res[0]?.values ?? []).map((v) => ({
    id: v[0] as string,
    description: v[1] as string,
    tags: JSON.parse(v[2] as string) as string[],
  }));
}

async function naiveSearches(db: Database, plan: Plan): Promise<SearchFigures> {
  const run = (queries: string[][]) => (i: number) => naiveSearch(db, queries[i % queries.length]!);
  for (let i = 0; i < 3; i++) {
    run(plan.selective)(i);
    run(plan.broad)(i);
  }
  const budget = { iters: plan.iters, budgetMs: plan.baselineBudgetMs, minIters: 20 };
  const selective = summarize(await sample(run(plan.selective), budget));
  const broad = summarize(await sample(run(plan.broad), budget));
  const hits = (queries: string[][]) => queries.reduce((s, q) => s + naiveSearch(db, q, false).length, 0) / queries.length;
  return { selective, broad, selectiveHits: hits(plan.selective), broadHits: hits(plan.broad) };
}

/** Open, searches, then export-per-write edits, all on the baseline database. */
export async function runNaive(plan: Plan): Promise<NaiveFigures> {
  const t0 = performance.now();
  const db = new (await SQL()).Database(fs.readFileSync(plan.naiveDb));
  const t1 = performance.now();
  if (naiveSearch(db, plan.selective[0]!).length === 0) throw new Error('the naive first search found nothing');
  const t2 = performance.now();
  const rss = rssMb();
  const search = await naiveSearches(db, plan);

  const writer = new MemoryWriter(prng(plan.seed + 7), Math.max(50, Math.floor(plan.n / 4)));
  const rnd = prng(plan.seed + 9);
  const exportMs: number[] = [];
  let base = Date.UTC(2027, 0, 1);
  const inputs = Array.from({ length: plan.iters + 1 }, () => writer.memory());
  const write = (i: number) => {
    const id = plan.editIds[i % plan.editIds.length] ?? uuid(rnd);
    const m = inputs[i % inputs.length]!;
    // sql.js's export() frees prepared statements, so each write prepares its own.
    db.run(INSERT, [id, m.description, JSON.stringify(m.tags), m.content, new Date(base++).toISOString(), null, 'bench@example.com']);
    const t = performance.now();
    const data = db.export();
    exportMs.push(performance.now() - t);
    writeFileAtomic(plan.naiveDb, data);
  };
  write(0);
  exportMs.length = 0;
  const writes = summarize(await sample(write, { iters: plan.iters, budgetMs: plan.baselineBudgetMs, minIters: 20 }));
  db.close();
  return { openMs: t1 - t0, firstSearchMs: t2 - t1, rssMb: rss, search, write: writes, exportMs: summarize(exportMs) };
}
