/**
 * Disputes between facts, decided by people: settling one (keep one, keep both, retract all) and
 * refusing a model the retractions that would settle one, or undo a person's verification. The
 * rows are built here; FactService writes them in the subject's scope.
 */
import type { z } from 'zod';
import type { RecordReader, StoredRecord } from '../ports/records';
import type { ResolveFactsInput } from '../contract/facts';
import { ConflictError, ValidationError } from '../errors';
import { nextFactVersion, releasePartners, withoutDisputes } from './factRules';
import { asFact } from './kinds';
import type { RecordWriter } from './recordRows';

/** A person's decision on a dispute, as the contract parsed it. */
export type Resolution = z.output<typeof ResolveFactsInput>;

/**
 * The rows that settle a dispute among `facts` (the current versions of `res.ids`): keep-one
 * retracts the others, keep-both keeps them all and remembers they were reviewed together,
 * retract-all retracts them all; facts outside `res.ids` stay disputed with whoever they still
 * contradict. Refuses facts of different subjects and predicates, facts not disputed, and a fact
 * disputed with none of the others.
 */
export async function settleDispute(w: RecordWriter, r: RecordReader, res: Resolution, facts: StoredRecord[]): Promise<StoredRecord[]> {
  const set = new Set(res.ids);
  const about = (f: StoredRecord) => `"${asFact(f).subject} ${asFact(f).predicate}"`;
  const stranger = facts.find((f) => f.keys[0] !== facts[0]!.keys[0] || f.keys[1] !== facts[0]!.keys[1]);
  if (stranger)
    throw new ValidationError(
      'ids',
      `fact ${stranger.id} is about ${about(stranger)}, not ${about(facts[0]!)}; resolve one dispute at a time`,
    );
  for (const f of facts) {
    if (f.status !== 'disputed')
      throw new ConflictError(`fact ${f.id} is ${f.status}, not disputed; there is nothing to resolve`, f.version);
    if (!asFact(f).disputedWith.some((x) => set.has(x)))
      throw new ValidationError(
        'ids',
        `fact ${f.id} is not disputed with any of the other facts given; its dispute is with ${asFact(f).disputedWith.join(', ')}`,
      );
  }
  const retracted = facts.filter((f) => res.decision === 'retract-all' || (res.decision === 'keep-one' && f.id !== res.keep));
  const gone = new Set(retracted.map((f) => f.id));
  const reason =
    res.reason ?? (res.decision === 'keep-one' ? `dispute resolved: kept fact ${res.keep}` : 'dispute resolved: all retracted');
  const out: StoredRecord[] = [];
  for (const f of facts) {
    const d = asFact(f);
    if (gone.has(f.id)) {
      out.push(
        await nextFactVersion(w, r, f, (at) => ({ ...d, status: 'retracted', disputedWith: [], retraction: { by: w.author, at, reason } })),
      );
      continue;
    }
    const kept = facts.filter((x) => x.id !== f.id && !gone.has(x.id)).map((x) => x.keys[2]);
    const keptWith = [...new Set([...(d.keptWith ?? []), ...kept])];
    out.push(await nextFactVersion(w, r, f, { ...withoutDisputes(d, set), ...(kept.length ? { keptWith } : {}) }));
  }
  return [...out, ...(await releasePartners(w, r, retracted, set))];
}

/** A disputed or verified fact is a person's to retract: the model is told why and what to do instead. */
export function refuseModelRetraction(cur: StoredRecord): void {
  const d = asFact(cur);
  const tell = 'Do not retract it; tell the user why you think it is wrong.';
  if (d.status === 'disputed') {
    throw new ConflictError(
      `fact ${cur.id} (status disputed, with ${d.disputedWith.join(', ')}) cannot be retracted by a model: a person resolves disputes in the Facts view (keep one, keep both, retract all). ${tell}`,
      cur.version,
    );
  }
  if (d.verification.state === 'verified') {
    throw new ConflictError(
      `fact ${cur.id} (status ${d.status}) was verified by ${d.verification.by} at ${d.verification.at}; only a person retracts a verified fact, in the Facts view. ${tell}`,
      cur.version,
    );
  }
}
