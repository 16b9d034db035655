/**
 * What the facts benchmark asks, picked from the generated facts before any store is built,
 * so that both backends and both sides (ours, the baseline) get exactly the same calls:
 * queries by subject (drawn with the data's own skew, so hot subjects come up often), by
 * predicate + object and by object alone (drawn from live facts, so popular objects come up
 * often), the context tool's entity lists, and three kinds of assertion whose outcome is known
 * in advance (a new fact, the same triple again, a contradiction on a single-valued relation).
 */
import { entityCandidates } from '../src/core/playbook/taskEntities';
import type { FactData } from '../src/core/playbook/kinds';
import type { FactSet, GenFact } from './factData';
import { relationsFrom } from './factOntology';
import { prng } from './generate';
import { TERMS } from './vocabulary';

/** An assertion as a caller gives it to FactService.assert. */
export interface AssertInput {
  subject: string;
  predicate: string;
  object: string;
  source: string;
  confidence: number;
}

export interface FactProbes {
  bySubject: string[];
  byPredicateObject: Array<[predicate: string, object: string]>;
  byObject: string[];
  /** entityCandidates() of a task naming two or three entities, as the context tool computes them. */
  contextCandidates: string[][];
  /** Outcome created: a many-valued relation, an object never seen. */
  newFacts: AssertInput[];
  /** Outcome refreshed: the triple of a live fact of a many-valued relation. */
  refreshes: AssertInput[];
  /** Outcome disputed: another object for a single-valued relation with one live, active fact. */
  contradictions: AssertInput[];
}

/** Distinct query probes per class (cycled through by the timing loops). */
const QUERY_PROBES = 100;
/** "Still valid" for the data, whose past-due dates are in 2025 and future ones from 2030. */
const NOW = '2027-01-01T00:00:00.000Z';

const isLive = (d: FactData) => (d.status === 'active' || d.status === 'disputed') && (d.validUntil === null || d.validUntil > NOW);

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function pickProbes(set: FactSet, writes: number, seed: number): FactProbes {
  const rnd = prng(seed + 202);
  const subject = () => set.subjects[set.subjectZipf.sample(rnd)]!;
  const live = set.facts.filter((f) => isLive(f.data));
  const anyLive = () => live[Math.floor(rnd() * live.length)]!;
  const evidence = (i: number) => ({ source: `https://ci.example.com/build/${i}`, confidence: Math.round((0.5 + rnd() / 2) * 100) / 100 });
  const triple = (f: GenFact) => ({ subject: f.data.subject, predicate: f.data.predicate, object: f.data.object });

  const bySubject = Array.from({ length: QUERY_PROBES }, subject);
  const byPredicateObject = Array.from({ length: QUERY_PROBES }, (): [string, string] => {
    const f = anyLive();
    return [f.data.predicate, f.data.object];
  });
  const byObject = Array.from({ length: QUERY_PROBES }, () => anyLive().data.object);

  const entity = () => {
    const f = anyLive();
    return f.relation.values ? f.data.subject : f.data.object;
  };
  const term = () => TERMS[Math.floor(Math.pow(rnd(), 2) * 200)]!;
  const contextCandidates = Array.from({ length: QUERY_PROBES }, () =>
    entityCandidates(
      `Fix the ${term()} ${term()} in ${subject()} when ${entity()} is slow after ${rnd() < 0.5 ? entity() : term()} changed`,
    ),
  );

  const newFacts: AssertInput[] = [];
  for (let i = 0; newFacts.length < writes; i++) {
    const s = subject();
    const many = relationsFrom(s.slice(0, s.indexOf(':'))).filter((r) => r.cardinality === 'many');
    if (many.length === 0) continue;
    const r = many[Math.floor(rnd() * many.length)]!;
    const object = r.values ? `bench-new-${i}` : `${(r.to as string[])[0]}:bench-new-${i}`;
    newFacts.push({ subject: s, predicate: r.name, object, ...evidence(i) });
  }

  const refreshes = shuffled(
    live.filter((f) => f.relation.cardinality === 'many'),
    rnd,
  )
    .slice(0, writes)
    .map((f, i) => ({ ...triple(f), ...evidence(i) }));

  // Single-valued (subject, predicate) pairs with exactly one live fact, and that one active.
  const liveBySp = new Map<string, GenFact[]>();
  for (const f of live) {
    if (f.relation.cardinality !== 'one') continue;
    const k = `${f.data.subject}\u0000${f.data.predicate}`;
    liveBySp.set(k, [...(liveBySp.get(k) ?? []), f]);
  }
  const alone = [...liveBySp.values()].filter((fs) => fs.length === 1 && fs[0]!.data.status === 'active').map((fs) => fs[0]!);
  const contradictions = shuffled(alone, rnd)
    .slice(0, writes)
    .map((f, i) => {
      const r = f.relation;
      const object = r.values ? `bench-rival-${i}` : `${(r.to as string[])[0]}:bench-rival-${i}`;
      return { ...triple(f), object, ...evidence(i) };
    });
  if (refreshes.length < writes || contradictions.length < writes)
    throw new Error(`not enough facts for ${writes} writes of each kind; use a larger --facts`);
  return { bySubject, byPredicateObject, byObject, contextCandidates, newFacts, refreshes, contradictions };
}
