/**
 * The facts baseline: what a simple implementation would do. The current facts as JSON
 * documents in one plain table, `facts (id PRIMARY KEY, data)`, no lookup columns, no other
 * index, no history; every lookup is a scan filtering on the document's fields (sql.js:
 * json_extract; PostgreSQL: jsonb ->>). It answers the same calls as FactService (same
 * filters, order and page size; the results are compared) and decides assertions by the same
 * rules (same triple → update, a single-valued contradiction → both disputed), minus input
 * validation. Durable writes: on sql.js the whole database is exported to its file after each
 * write (the only way a sql.js database reaches disk), on PostgreSQL a committed transaction.
 */
import * as fs from 'node:fs';
import { Client, escapeIdentifier } from 'pg';
import initSqlJs, { type Database } from 'sql.js';
import { randomUUID } from 'node:crypto';
import { asFact, normalizeKey, type FactData } from '../src/core/playbook/kinds';
import type { StoredRecord } from '../src/core/ports/records';
import { writeFileAtomic } from '../src/store/sqljs/atomicFile';
import { BENCH_ONTOLOGY } from './factOntology';
import type { AssertInput } from './factProbes';
import { timeQueries } from './factsOurs';
import type { FactsPlan, FactsSideFigures, QueryClass, WriteClass } from './factsPlan';
import { rssMb, sample, summarize } from './stats';

export const NAIVE_TABLE = 'naive_facts';
const LIVE = `('active', 'disputed')`;

/** The few things that differ between the two databases. */
interface Dialect {
  /** The table, and the column read back as JSON text. */
  table: string;
  doc: string;
  /** A text field of the document. */
  f(field: string): string;
  /** A numeric field of the document. */
  num(field: string): string;
  /** The i-th parameter (1-based). */
  p(i: number): string;
  all(sql: string, params: unknown[]): Promise<unknown[][]>;
  run(sql: string, params: unknown[]): Promise<void>;
  /** Runs `fn` and makes its changes durable. */
  durable(fn: () => Promise<void>): Promise<void>;
}

const stored = (r: StoredRecord) => JSON.stringify({ ...asFact(r), changedAt: r.changedAt });

/** Builds the sql.js baseline database from the current facts and writes it to `file`. */
export async function buildNaiveSqlJs(current: StoredRecord[], file: string): Promise<void> {
  const db = new (await initSqlJs()).Database();
  db.exec(`CREATE TABLE facts (id TEXT PRIMARY KEY, data TEXT NOT NULL)`);
  db.exec('BEGIN');
  const st = db.prepare('INSERT INTO facts (id, data) VALUES (?, ?)');
  for (const r of current) st.run([r.id, stored(r)]);
  st.free();
  db.exec('COMMIT');
  fs.writeFileSync(file, db.export());
  db.close();
}

/** Builds the PostgreSQL baseline table (in the scratch database) from the current facts. */
export async function buildNaivePg(c: Client, current: StoredRecord[]): Promise<void> {
  await c.query(`CREATE TABLE ${escapeIdentifier(NAIVE_TABLE)} (id text COLLATE "C" PRIMARY KEY, data jsonb NOT NULL)`);
  for (let i = 0; i < current.length; i += 5000) {
    const batch = current.slice(i, i + 5000);
    await c.query(`INSERT INTO ${escapeIdentifier(NAIVE_TABLE)} (id, data) SELECT * FROM unnest($1::text[], $2::jsonb[])`, [
      batch.map((r) => r.id),
      batch.map(stored),
    ]);
  }
  await c.query(`VACUUM ANALYZE ${escapeIdentifier(NAIVE_TABLE)}`);
}

function sqljsDialect(db: Database, file: string, exportMs: number[]): Dialect {
  return {
    table: 'facts',
    doc: 'data',
    f: (field) => `json_extract(data, '$.${field}')`,
    num: (field) => `json_extract(data, '$.${field}')`,
    p: (i) => `?${i}`,
    all: async (sql, params) => db.exec(sql, params as never)[0]?.values ?? [],
    run: async (sql, params) => void db.run(sql, params as never),
    durable: async (fn) => {
      await fn();
      const t = performance.now();
      const data = db.export();
      exportMs.push(performance.now() - t);
      writeFileAtomic(file, data);
    },
  };
}

function pgDialect(c: Client): Dialect {
  return {
    table: escapeIdentifier(NAIVE_TABLE),
    doc: 'data::text',
    f: (field) => `(data->>'${field}')`,
    num: (field) => `(data->>'${field}')::float8`,
    p: (i) => `$${i}`,
    all: async (sql, params) => (await c.query({ text: sql, values: params, rowMode: 'array' })).rows as unknown[][],
    run: async (sql, params) => void (await c.query(sql, params)),
    durable: async (fn) => {
      await c.query('BEGIN');
      try {
        await fn();
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK');
        throw err;
      }
    },
  };
}

/** A fact as the baseline returns it: its id and its parsed document. */
type Doc = { id: string; fact: FactData };

class NaiveFacts {
  constructor(private readonly d: Dialect) {}

  /** SELECT id, document FROM the table WHERE … */
  private async select(where: string, params: unknown[], tail = ''): Promise<Doc[]> {
    const rows = await this.d.all(`SELECT id, ${this.d.doc} FROM ${this.d.table} WHERE ${where} ${tail}`, params);
    return rows.map((r) => ({ id: r[0] as string, fact: JSON.parse(r[1] as string) as FactData }));
  }

  private eq(field: string, i: number): string {
    return `lower(${this.d.f(field)}) = ${this.d.p(i)}`;
  }

  private inList(field: string, from: number, n: number): string {
    return `lower(${this.d.f(field)}) IN (${Array.from({ length: n }, (_, k) => this.d.p(from + k)).join(', ')})`;
  }

  private order(limit: number): string {
    return `ORDER BY ${this.d.num('confidence')} DESC, ${this.d.f('changedAt')} DESC, id DESC LIMIT ${limit}`;
  }

  /** FactService.query: live, still valid, by any of subject / predicate / object; 20 by confidence. */
  query(q: { subject?: string; predicate?: string; object?: string }, nowIso: string): Promise<Doc[]> {
    const parts: string[] = [];
    const params: unknown[] = [];
    for (const field of ['subject', 'predicate', 'object'] as const) {
      if (q[field] === undefined) continue;
      params.push(normalizeKey(q[field]));
      parts.push(this.eq(field, params.length));
    }
    params.push(nowIso);
    const valid = `(${this.d.f('validUntil')} IS NULL OR ${this.d.f('validUntil')} > ${this.d.p(params.length)})`;
    return this.select(`${parts.join(' AND ')} AND ${this.d.f('status')} IN ${LIVE} AND ${valid}`, params, this.order(20));
  }

  /** The context tool's lookup: live facts whose subject (or object) is one of the candidates, 50 by confidence. */
  context(field: 'subject' | 'object', candidates: string[]): Promise<Doc[]> {
    return this.select(`${this.inList(field, 1, candidates.length)} AND ${this.d.f('status')} IN ${LIVE}`, candidates, this.order(50));
  }

  /** FactService.assert's decision, by scans, then the durable write. Returns the outcome. */
  async assert(input: AssertInput, author: string): Promise<WriteClass> {
    let outcome: WriteClass = 'created';
    await this.d.durable(async () => {
      const [s, p, o] = [input.subject, input.predicate, input.object].map(normalizeKey) as [string, string, string];
      const now = new Date().toISOString();
      const data: FactData = {
        subject: input.subject,
        predicate: input.predicate,
        object: input.object,
        source: input.source,
        observedAt: now,
        confidence: input.confidence,
        validUntil: null,
        status: 'active',
        verification: { state: 'unverified' },
        disputedWith: [],
        retraction: null,
        assertedBy: author,
      };
      const doc = (d: FactData) => JSON.stringify({ ...d, changedAt: now });
      const update = (id: string, d: FactData) =>
        this.d.run(`UPDATE ${this.d.table} SET data = ${this.d.p(2)} WHERE id = ${this.d.p(1)}`, [id, doc(d)]);
      const [same] = await this.select(
        `${this.eq('subject', 1)} AND ${this.eq('predicate', 2)} AND ${this.eq('object', 3)} AND ${this.d.f('status')} IN ${LIVE}`,
        [s, p, o],
        'LIMIT 1',
      );
      if (same) {
        outcome = 'refreshed';
        return update(same.id, {
          ...same.fact,
          source: data.source,
          observedAt: now,
          confidence: data.confidence,
          validUntil: null,
          assertedBy: author,
        });
      }
      const id = randomUUID();
      const live = BENCH_ONTOLOGY.isSingleValued(p)
        ? await this.select(`${this.eq('subject', 1)} AND ${this.eq('predicate', 2)} AND ${this.d.f('status')} IN ${LIVE}`, [s, p])
        : [];
      const rivals = live.filter(
        ({ fact: f }) => normalizeKey(f.object) !== o && (f.validUntil === null || f.validUntil > now) && !(f.keptWith ?? []).includes(o),
      );
      if (rivals.length) outcome = 'disputed';
      const mine = rivals.length ? { ...data, status: 'disputed' as const, disputedWith: rivals.map((r) => r.id) } : data;
      await this.d.run(`INSERT INTO ${this.d.table} (id, data) VALUES (${this.d.p(1)}, ${this.d.p(2)})`, [id, doc(mine)]);
      for (const r of rivals) await update(r.id, { ...r.fact, status: 'disputed', disputedWith: [...r.fact.disputedWith, id] });
    });
    return outcome;
  }
}

/** The baseline's whole run in one child: open + first query, queries, then writes. */
export async function runFactsNaive(plan: FactsPlan): Promise<FactsSideFigures> {
  const exportMs: number[] = [];
  const t0 = performance.now();
  let dialect: Dialect;
  let close: () => Promise<void>;
  if (plan.backend === 'sqljs') {
    const db = new (await initSqlJs()).Database(fs.readFileSync(plan.naiveDb!));
    dialect = sqljsDialect(db, plan.naiveDb!, exportMs);
    close = async () => db.close();
  } else {
    const c = new Client({ connectionString: plan.url });
    await c.connect();
    dialect = pgDialect(c);
    close = () => c.end();
  }
  const naive = new NaiveFacts(dialect);
  const p = plan.probes;
  const now = () => new Date().toISOString();
  const t1 = performance.now();
  if ((await naive.query({ subject: p.bySubject[0]! }, now())).length === 0) throw new Error("the baseline's first query found nothing");
  const open = { openMs: t1 - t0, firstQueryMs: performance.now() - t1, rssMb: rssMb() };

  const ids = (docs: Doc[]) => docs.map((x) => x.id);
  const probes: Record<QueryClass, (i: number) => Promise<string[]>> = {
    subject: async (i) => ids(await naive.query({ subject: p.bySubject[i]! }, now())),
    predicateObject: async (i) =>
      ids(await naive.query({ predicate: p.byPredicateObject[i]![0], object: p.byPredicateObject[i]![1] }, now())),
    object: async (i) => ids(await naive.query({ object: p.byObject[i]! }, now())),
    contextSubject: async (i) => ids(await naive.context('subject', p.contextCandidates[i]!)),
    contextBoth: async (i) => {
      const [a, b] = await Promise.all([
        naive.context('subject', p.contextCandidates[i]!),
        naive.context('object', p.contextCandidates[i]!),
      ]);
      return [...new Set(ids([...a, ...b]))].sort();
    },
  };
  const budget = { iters: plan.iters, budgetMs: plan.budgetMs };
  const queries = {} as FactsSideFigures['queries'];
  for (const [name, probe] of Object.entries(probes) as Array<[QueryClass, (i: number) => Promise<string[]>]>) {
    queries[name] = await timeQueries(probe, p.bySubject.length, budget);
  }

  const kinds: Array<[WriteClass, AssertInput[]]> = [
    ['created', p.newFacts],
    ['refreshed', p.refreshes],
    ['disputed', p.contradictions],
  ];
  const writes = {} as FactsSideFigures['writes'];
  for (const [outcome, inputs] of kinds) {
    await naive.assert(inputs[inputs.length - 1]!, 'bench@example.com'); // warm-up, on the last input (not timed)
    writes[outcome] = summarize(
      await sample(
        async (i) => {
          const got = await naive.assert(inputs[i]!, 'bench@example.com');
          if (got !== outcome) throw new Error(`baseline assert ${JSON.stringify(inputs[i])} was ${got}, expected ${outcome}`);
        },
        { iters: Math.min(plan.iters, inputs.length - 1), budgetMs: plan.budgetMs, minIters: 20 },
      ),
    );
  }
  const rss = rssMb();
  await close();
  return { open, queries, writes, rssMb: rss, ...(exportMs.length ? { exportMs: summarize(exportMs) } : {}) };
}
