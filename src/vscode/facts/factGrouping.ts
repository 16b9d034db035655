import type { FactView } from '../../core/playbook/factRules';

/** Where a fact stands as the Facts view shows it: `expired` also for a live fact whose valid-until has passed. */
type FactState = FactView['status'];

/** A fact as the Facts view shows it. */
export interface ViewFact extends FactView {
  state: FactState;
}

/** The facts of one subject, in view order. */
export interface SubjectGroup {
  subject: string;
  facts: ViewFact[];
  /** True when one of its facts is disputed: the group comes first and opens expanded. */
  disputed: boolean;
}

const ORDER: Record<FactState, number> = { disputed: 0, active: 1, expired: 2, retracted: 3 };

/** The state a fact shows at `nowIso`: a live fact past its valid-until reads as expired before a forgetting run marks it. */
export function stateOf(f: FactView, nowIso: string): FactState {
  const live = f.status === 'active' || f.status === 'disputed';
  return live && f.validUntil !== null && f.validUntil <= nowIso ? 'expired' : f.status;
}

/**
 * Groups facts by subject (as written, case-insensitively): subjects with a dispute first, then
 * by name; within a subject disputed, active, expired, retracted, each by confidence (highest
 * first) then the newest change. Retracted and expired facts are left out unless `showInactive`.
 */
export function groupFacts(facts: readonly ViewFact[], showInactive: boolean): SubjectGroup[] {
  const bySubject = new Map<string, ViewFact[]>();
  for (const f of facts) {
    if (!showInactive && (f.state === 'retracted' || f.state === 'expired')) continue;
    const key = f.subject.trim().toLowerCase();
    const list = bySubject.get(key);
    if (list) list.push(f);
    else bySubject.set(key, [f]);
  }
  const groups = [...bySubject.values()].map((fs) => {
    fs.sort(
      (a, b) =>
        ORDER[a.state] - ORDER[b.state] ||
        (b.confidence ?? -1) - (a.confidence ?? -1) ||
        (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0),
    );
    return { subject: fs[0]!.subject, facts: fs, disputed: fs.some((f) => f.state === 'disputed') };
  });
  return groups.sort((a, b) => Number(b.disputed) - Number(a.disputed) || a.subject.localeCompare(b.subject));
}
