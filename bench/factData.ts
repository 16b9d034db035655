/**
 * Deterministic facts for the facts benchmark, as the FactService would have written them
 * over a year of use: about n/10 subjects drawn with a Zipf skew (a few hot services hold
 * thousands of facts, most entities a handful), 50 relations (29 single-valued), objects
 * shared (popular libraries, teams, versions), evidence refreshed, values superseded
 * (the old fact retracted), disputes left open, facts expired or past due, confidence spread.
 * Rows are built with kinds.ts's factColumns and come out in the order they were written.
 */
import { asFact, factColumns, type FactData } from '../src/core/playbook/kinds';
import type { StoredRecord } from '../src/core/ports/records';
import { FACT_TYPES, relationsFrom, TYPE_WEIGHTS, type BenchRelation } from './factOntology';
import { prng, uuid, Zipf } from './generate';
import { codeName } from './vocabulary';

/** A fact's current state while generating (and for picking the benchmark's probes). */
export interface GenFact {
  id: string;
  data: FactData;
  version: number;
  changedAt: string;
  relation: BenchRelation;
}

export interface FactSet {
  /** Every version row, in the order written. */
  rows: StoredRecord[];
  /** Every fact's current state, in creation order. */
  facts: GenFact[];
  /** Subject entities (`type:name`), hottest first, and how the data drew them. */
  subjects: string[];
  subjectZipf: Zipf;
  /** Entities by type, for objects (hottest first). */
  entities: Map<string, string[]>;
}

const AUTHORS = Array.from({ length: 12 }, (_, i) => `dev${i + 1}@example.com`);
const DAY = 86_400_000;
/** Beyond any clock the benchmark runs under: "valid until" in the future. */
const FUTURE = Date.UTC(2030, 0, 1);

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

function weighted(rnd: () => number, weights: readonly number[]): number {
  let u = rnd() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) if ((u -= weights[i]!) < 0) return i;
  return weights.length - 1;
}

/** Sources as agents cite them: commits, wiki pages, files, memories. */
function source(rnd: () => number): string {
  const r = rnd();
  if (r < 0.35)
    return `commit ${Math.floor(rnd() * 0xfffffff)
      .toString(16)
      .padStart(7, '0')}`;
  if (r < 0.6) return `https://wiki.example.com/${codeName(Math.floor(rnd() * 5000))}`;
  if (r < 0.85) return `src/${codeName(Math.floor(rnd() * 3000))}/index.ts`;
  return `memory ${uuid(rnd)}`;
}

/** Mostly confident, a long tail of guesses; two decimals, so ranks tie as real ones do. */
const confidence = (rnd: () => number) => Math.round((0.3 + 0.7 * Math.pow(rnd(), 0.6)) * 100) / 100;

export function generateFacts(n: number, seed: number): FactSet {
  const rnd = prng(seed + 101);
  const subjectCount = Math.max(20, Math.round(n / 10));
  const entities = new Map<string, string[]>(FACT_TYPES.map((t) => [t, []]));
  const subjects: string[] = [];
  for (let i = 0; i < subjectCount; i++) {
    const type = FACT_TYPES[weighted(rnd, TYPE_WEIGHTS)]!;
    const name = `${type}:${codeName(i)}`;
    subjects.push(name);
    entities.get(type)!.push(name);
  }
  // Objects only: environments and files.
  entities.set(
    'env',
    ['prod', 'staging', 'dev', 'qa', 'canary', 'preview'].map((e) => `env:${e}`),
  );
  entities.set(
    'file',
    Array.from({ length: Math.max(20, Math.round(n / 100)) }, (_, i) => `file:src/${codeName(subjectCount + i)}.ts`),
  );
  const subjectZipf = new Zipf(subjectCount, 0.8);
  const zipfs = new Map<number, Zipf>();
  const zipfOf = (len: number, s = 1) => zipfs.get(len * 10 + s) ?? zipfs.set(len * 10 + s, new Zipf(len, s)).get(len * 10 + s)!;
  const typeOf = (entity: string) => entity.slice(0, entity.indexOf(':'));

  // Spread over ~300 days of 2025, strictly increasing.
  let clock = Date.UTC(2025, 0, 1);
  const step = Math.max(2, Math.floor((2 * 300 * DAY) / (1.3 * n)));
  const tick = () => new Date((clock += 1 + Math.floor(rnd() * step))).toISOString();

  const rows: StoredRecord[] = [];
  const facts: GenFact[] = [];
  const liveTriple = new Map<string, GenFact>();
  const liveSingle = new Map<string, GenFact[]>();
  const tripleKey = (d: FactData) => `${d.subject}\u0000${d.predicate}\u0000${d.object}`;
  const spKey = (d: FactData) => `${d.subject}\u0000${d.predicate}`;

  const write = (f: GenFact, data: FactData, author: string) => {
    const changedAt = tick();
    f.version++;
    f.data = data;
    f.changedAt = changedAt;
    rows.push({
      rowId: uuid(rnd),
      kind: 'fact',
      id: f.id,
      version: f.version,
      op: f.version === 1 ? 'create' : 'edit',
      ...factColumns(data),
      data: data as unknown as Record<string, unknown>,
      changedAt,
      deletedAt: null,
      author,
    });
  };
  const leave = (f: GenFact) => {
    liveTriple.delete(tripleKey(f.data));
    if (f.relation.cardinality === 'one')
      liveSingle.set(
        spKey(f.data),
        (liveSingle.get(spKey(f.data)) ?? []).filter((x) => x !== f),
      );
  };
  const create = (relation: BenchRelation, data: FactData, author: string, id = uuid(rnd)): GenFact => {
    const f: GenFact = { id, data, version: 0, changedAt: '', relation };
    write(f, data, author);
    facts.push(f);
    liveTriple.set(tripleKey(data), f);
    if (relation.cardinality === 'one') liveSingle.set(spKey(data), [...(liveSingle.get(spKey(data)) ?? []), f]);
    return f;
  };

  while (facts.length < n) {
    const subject = subjects[subjectZipf.sample(rnd)]!;
    const rels = relationsFrom(typeOf(subject));
    const relation = rels[zipfOf(rels.length, 1).sample(rnd)]!;
    let object: string;
    if (relation.values) object = relation.values[zipfOf(relation.values.length, 1).sample(rnd)]!;
    else {
      const pool = entities.get(pick(rnd, relation.to as string[]))!;
      object = pool[zipfOf(pool.length, 1).sample(rnd)]!;
    }
    if (object === subject) continue;
    const author = pick(rnd, AUTHORS);
    const observedAt = new Date(clock - Math.floor(rnd() * 3 * DAY)).toISOString();
    const data: FactData = {
      subject,
      predicate: relation.name,
      object,
      source: source(rnd),
      observedAt,
      confidence: confidence(rnd),
      validUntil: null,
      status: 'active',
      verification: { state: 'unverified' },
      disputedWith: [],
      retraction: null,
      assertedBy: author,
    };
    const same = liveTriple.get(tripleKey(data));
    if (same) {
      // The same triple asserted again: new evidence on the live fact (a refresh).
      if (rnd() < 0.3)
        write(same, { ...same.data, source: data.source, observedAt, confidence: data.confidence, assertedBy: author }, author);
      continue;
    }
    const live = relation.cardinality === 'one' ? (liveSingle.get(spKey(data)) ?? []) : [];
    if (live.length > 0) {
      const old = live[0]!;
      if (live.length > 1 || old.data.status !== 'active') continue;
      const r = rnd();
      if (r < 0.03) {
        // A contradiction left open: both disputed, pointing at each other.
        const id = uuid(rnd);
        create(relation, { ...data, status: 'disputed', disputedWith: [old.id] }, author, id);
        write(old, { ...old.data, status: 'disputed', disputedWith: [id] }, author);
      } else if (r < 0.15) {
        // A value that changed: the old fact was retracted (a person kept the new one).
        const at = new Date(clock + 1).toISOString();
        write(old, { ...old.data, status: 'retracted', retraction: { by: author, at, reason: `superseded by ${object}` } }, author);
        leave(old);
        create(relation, data, author);
      }
      continue;
    }
    const fate = rnd();
    if (fate < 0.03) {
      const f = create(relation, data, author);
      const at = new Date(clock + 1).toISOString();
      write(f, { ...f.data, status: 'retracted', retraction: { by: author, at, reason: 'no longer true' } }, author);
      leave(f);
    } else if (fate < 0.06) {
      // Expired, and the forgetting run has marked it.
      const f = create(relation, { ...data, validUntil: new Date(Date.parse(observedAt) + 30 * DAY).toISOString() }, author);
      write(f, { ...f.data, status: 'expired' }, 'agent-memory lifecycle');
      leave(f);
    } else if (fate < 0.07) {
      // Past its valid_until, not marked yet: queries must hide it anyway.
      create(relation, { ...data, validUntil: new Date(Date.parse(observedAt) + 7 * DAY).toISOString() }, author);
    } else {
      const until = fate < 0.15 ? new Date(FUTURE + Math.floor(rnd() * 365) * DAY).toISOString() : null;
      const f = create(relation, { ...data, validUntil: until }, author);
      if (rnd() < 0.12)
        write(
          f,
          { ...f.data, confidence: confidence(rnd), source: source(rnd), observedAt: new Date(clock).toISOString() },
          pick(rnd, AUTHORS),
        );
    }
  }
  return { rows, facts, subjects, subjectZipf, entities };
}

/** The current version of each fact among `rows` (the last one written). */
export function currentRows(rows: readonly StoredRecord[]): StoredRecord[] {
  const cur = new Map<string, StoredRecord>();
  for (const r of rows) cur.set(r.id, r);
  return [...cur.values()];
}

/** Counts by status, for the report. */
export function statusCounts(rows: readonly StoredRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of currentRows(rows)) out[asFact(r).status] = (out[asFact(r).status] ?? 0) + 1;
  return out;
}
