/**
 * The rules of facts that several writers share (FactService, the forgetting run): what a
 * fact looks like to a reader, which facts a new one contradicts, and how a dispute unwinds
 * when one side leaves it (retracted, expired, resolved). Pure functions over records.
 */
import type { RecordReader, StoredRecord } from '../ports/records';
import { originOf } from '../ports/origin';
import { asFact, factColumns, type FactData } from './kinds';
import { readAll, type RecordWriter } from './recordRows';

/** A fact as every operation returns it: the data, its evidence, and where it stands. */
export interface FactView extends Omit<FactData, 'assertedBy' | 'keptWith'> {
  id: string;
  version: number;
  /** Who asserted what this version says (the evidence's author), not who wrote the row. */
  assertedBy: string;
  /** When this version was written. */
  changedAt: string;
  /** The client this version came through (absent: not recorded). */
  channel?: string;
  /** When a person approved this version from a proposal: who proposed it (assertedBy approved it). */
  proposedBy?: string;
  /** PostgreSQL: the database role that wrote this version. */
  dbRole?: string;
}

export function factView(r: StoredRecord): FactView {
  const { assertedBy, keptWith: _kept, ...d } = asFact(r);
  return {
    id: r.id,
    version: r.version,
    ...d,
    assertedBy: assertedBy ?? r.author,
    changedAt: r.changedAt,
    ...originOf(r),
  };
}

/** The statuses of a fact in force (what queries and decisions read unless asked for more). */
export const LIVE_STATUSES = ['active', 'disputed'];
/** Live facts of one subject and one single-valued relation a decision reads (there should be one or two). */
export const RELATION_LIVE_MAX = 1000;

/** True when the fact's valid_until has passed (it is hidden even before a forgetting run marks it). */
export function isPastDue(r: StoredRecord, nowIso: string): boolean {
  return r.dueAt !== null && r.dueAt <= nowIso;
}

/**
 * The live facts that a new object (normalised) contradicts, given the live facts of the same
 * subject and predicate of a single-valued relation: a different object, still valid, and not
 * reviewed and kept alongside it by a person.
 */
export function rivalsOf(live: readonly StoredRecord[], object: string, nowIso: string): StoredRecord[] {
  return live.filter((r) => r.keys[2] !== object && !isPastDue(r, nowIso) && !(asFact(r).keptWith ?? []).includes(object));
}

/**
 * The live facts of a triple's subject and predicate with another object, for a new assertion:
 * `rivals` when the ontology declares the relation single-valued (a write disputes them; a
 * refresh of the same triple has none), `possible` when no ontology declares it (reported for a
 * person to judge, nothing disputed). Only these cases read the relation's live facts.
 */
export async function otherObjects(
  reader: RecordReader,
  [s, p, o]: readonly [string, string, string],
  c: { single: boolean; declared: boolean; same: boolean; nowIso: string },
): Promise<{ rivals: StoredRecord[]; possible: StoredRecord[] }> {
  if (c.declared && (c.same || !c.single)) return { rivals: [], possible: [] };
  const live = await readAll(reader, { kind: 'fact', keys: [s, p], status: LIVE_STATUSES }, RELATION_LIVE_MAX);
  const others = rivalsOf(live, o, c.nowIso);
  return c.single ? { rivals: others, possible: [] } : { rivals: [], possible: others };
}

/**
 * The next version of `cur` holding `data` (the store's version counter + 1). `data` may be a
 * function of the version's changedAt, for the times it records (retraction.at, verification.at).
 */
export async function nextFactVersion(
  w: RecordWriter,
  reader: RecordReader,
  cur: StoredRecord,
  data: FactData | ((changedAt: string) => FactData),
): Promise<StoredRecord> {
  const changedAt = w.stamp(cur.changedAt);
  const d = typeof data === 'function' ? data(changedAt) : data;
  return { ...w.row('fact', cur.id, (await reader.maxVersion('fact', cur.id)) + 1, 'edit', factColumns(d), d, cur), changedAt };
}

/** `d` with `ids` taken out of its dispute; a disputed fact left with nobody to dispute becomes active again. */
export function withoutDisputes(d: FactData, ids: ReadonlySet<string>): FactData {
  const disputedWith = d.disputedWith.filter((x) => !ids.has(x));
  const status = d.status === 'disputed' && disputedWith.length === 0 ? 'active' : d.status;
  return { ...d, disputedWith, status };
}

/**
 * New versions of the facts that were disputing any of `leaving` (being retracted, expired or
 * forgotten), with those taken out of their dispute. Facts in `skip` are written by the caller.
 */
export async function releasePartners(
  w: RecordWriter,
  reader: RecordReader,
  leaving: readonly StoredRecord[],
  skip: ReadonlySet<string> = new Set(),
): Promise<StoredRecord[]> {
  const gone = new Set(leaving.map((r) => r.id));
  const partners = new Set(leaving.flatMap((r) => asFact(r).disputedWith).filter((id) => !gone.has(id) && !skip.has(id)));
  const rows: StoredRecord[] = [];
  for (const id of partners) {
    const cur = await reader.get('fact', id);
    if (!cur || cur.deletedAt || !asFact(cur).disputedWith.some((x) => gone.has(x))) continue;
    rows.push(await nextFactVersion(w, reader, cur, withoutDisputes(asFact(cur), gone)));
  }
  return rows;
}

/**
 * The disputes nobody recorded among the live facts of one subject and one single-valued
 * relation: each pair with different objects, both still valid, not kept together by a person,
 * that does not name the other in disputedWith. A git merge brings such pairs (each clone
 * asserted its own object, and the journals' union holds both). Returns, per fact id, the ids
 * to add to its dispute.
 */
export function unmarkedDisputes(live: readonly StoredRecord[], nowIso: string): Map<string, string[]> {
  const valid = live.filter((r) => !isPastDue(r, nowIso));
  const kept = (r: StoredRecord, object: string) => (asFact(r).keptWith ?? []).includes(object);
  const out = new Map<string, string[]>();
  for (const a of valid) {
    const add = rivalsOf(valid, a.keys[2], nowIso).filter((b) => !kept(a, b.keys[2]) && !asFact(a).disputedWith.includes(b.id));
    if (add.length)
      out.set(
        a.id,
        add.map((b) => b.id),
      );
  }
  return out;
}
