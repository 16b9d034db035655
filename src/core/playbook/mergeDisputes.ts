/**
 * Contradictions that arrive without a decision: two clones each assert a different object of
 * a single-valued relation, and git's union merge of their journals leaves both facts active.
 * No write saw both, so no dispute was opened. The forgetting run opens it: for each relation
 * the ontology declares `cardinality: one`, it pages through the live facts of that relation,
 * looks up every live fact of the subjects on the page, and, where two contradict without a
 * recorded dispute, marks them disputed with each other in one write of scope `fact:<subject>`
 * (the decision re-reads them, so a person's resolution in between is respected).
 *
 * Bounded: at most `max` facts are paged per run; the position reached is returned so the next
 * run carries on from there, and starts again from the first relation once all were checked.
 */
import type { RecordCursor, RecordStore, StoredRecord } from '../ports/records';
import { LIVE_STATUSES, nextFactVersion, RELATION_LIVE_MAX, unmarkedDisputes } from './factRules';
import { asFact } from './kinds';
import { readAll, type RecordWriter } from './recordRows';

const PAGE = 200;

/** Where a check stopped: the relation, and the position in its facts (store order; null: its start). */
export interface MergeCheckPosition {
  relation: string;
  after: RecordCursor | null;
}

/**
 * Opens the disputes a merge left unrecorded among the facts of `relations` (single-valued, by
 * name), starting at `from`. Returns the ids of the facts it marked disputed and where to resume
 * (null when every relation was checked to its end).
 */
export async function disputeMergedContradictions(
  records: RecordStore,
  w: RecordWriter,
  relations: readonly string[],
  options: { nowIso: string; max: number; from?: MergeCheckPosition | null },
): Promise<{ disputed: string[]; resume: MergeCheckPosition | null }> {
  const names = [...new Set(relations)].sort();
  const from = options.from && names.includes(options.from.relation) ? options.from : null;
  const disputed: string[] = [];
  let budget = options.max;
  for (let i = from ? names.indexOf(from.relation) : 0; i < names.length; i++) {
    const relation = names[i]!;
    let after = from?.relation === relation ? (from.after ?? undefined) : undefined;
    for (;;) {
      if (budget <= 0) return { disputed, resume: { relation, after: after ?? null } };
      const page = await records.query({
        kind: 'fact',
        keys: [undefined, relation],
        status: LIVE_STATUSES,
        limit: Math.min(PAGE, budget),
        after,
      });
      if (page.length === 0) break;
      budget -= page.length;
      disputed.push(...(await disputeSubjects(records, w, relation, page, options.nowIso)));
      const last = page[page.length - 1]!;
      after = { rank: last.rank, changedAt: last.changedAt, id: last.id };
    }
  }
  return { disputed, resume: null };
}

/** For the subjects of one page: every live fact of `relation` looked up at once, one write per subject with an unrecorded contradiction. */
async function disputeSubjects(
  records: RecordStore,
  w: RecordWriter,
  relation: string,
  page: StoredRecord[],
  nowIso: string,
): Promise<string[]> {
  const subjects = [...new Set(page.map((r) => r.keys[0]))];
  const live = await readAll(records, { kind: 'fact', keys: [subjects, relation], status: LIVE_STATUSES }, subjects.length * 10);
  const bySubject = new Map<string, StoredRecord[]>();
  for (const f of live) bySubject.set(f.keys[0], [...(bySubject.get(f.keys[0]) ?? []), f]);
  const out: string[] = [];
  for (const [subject, facts] of bySubject) {
    if (facts.length < 2 || unmarkedDisputes(facts, nowIso).size === 0) continue;
    const rows = await records.write(`fact:${subject}`, async (r) => {
      // Under the scope: the freshest state decides (a person may have resolved it meanwhile).
      const fresh = await readAll(r, { kind: 'fact', keys: [subject, relation], status: LIVE_STATUSES }, RELATION_LIVE_MAX);
      const add = unmarkedDisputes(fresh, nowIso);
      return Promise.all(
        fresh
          .filter((f) => add.has(f.id))
          .map((f) => {
            const d = asFact(f);
            return nextFactVersion(w, r, f, { ...d, status: 'disputed', disputedWith: [...d.disputedWith, ...add.get(f.id)!] });
          }),
      );
    });
    out.push(...rows.map((x) => x.id));
  }
  return out;
}
