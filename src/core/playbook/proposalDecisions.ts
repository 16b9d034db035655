/**
 * Who may decide a proposal, and when a decision is refused: the rules ProposalService applies
 * before it writes an approval or a rejection.
 */
import type { StoredRecord } from '../ports/records';
import { ConflictError, ValidationError } from '../errors';
import { normalizeKey, type ProposalData, type ProposalTarget } from './kinds';

/**
 * How long an approval may hold its claim without recording a result before it counts as
 * interrupted (a crash, a lost connection): after that, approving again completes it. Writing
 * the item is one store write, so a live approval finishes well within this.
 */
export const APPROVAL_STALE_MS = 60_000;

/** What `refuseDecider` checks a decision against: the policy's approvers, self-approval, the connection's database role. */
export interface DeciderRules {
  /** Names (as people write them) or database roles that may decide a target's proposals; none listed: anyone. */
  approvers: readonly string[];
  /** The policy allows deciding one's own proposal (review.self_approval: allowed). */
  selfApproval: boolean;
  /** The database role of the store's connection (a team database), else null. */
  dbRole: string | null;
}

/**
 * Refuses a decision by someone the policy does not name as an approver of the target (by the
 * name they write as, or by the database role of this store's connection), and a decision by
 * the proposal's own proposer unless the policy allows it.
 */
export function refuseDecider(p: { target: ProposalTarget; proposedBy: string; id: string }, by: string, rules: DeciderRules): void {
  const { approvers, dbRole: role } = rules;
  const named = (x: string) => normalizeKey(x) === normalizeKey(by) || (role !== null && x.trim() === role);
  if (approvers.length && !approvers.some(named)) {
    throw new ValidationError(
      'by',
      `${by}${role ? ` (database role ${role})` : ''} may not decide ${p.target} proposals; who may: ${approvers.join(', ')}`,
    );
  }
  if (normalizeKey(p.proposedBy) === normalizeKey(by) && !rules.selfApproval) {
    throw new ValidationError(
      'by',
      `${by} proposed ${p.id} and may not decide their own proposal (policy review.self_approval: refused); ` +
        'another person decides it, or the team sets review.self_approval: allowed in policy.yaml',
    );
  }
}

/** Refuses a decision unless the proposal is pending (or, for `approve`, an approval that was interrupted before `now`). */
export function refuseDecided(id: string, cur: StoredRecord, d: ProposalData, approve: boolean, now: Date): void {
  const dec = d.decision;
  if (!dec) return;
  if (dec.state === 'approved' && dec.resultId === null) {
    const after = new Date(Date.parse(dec.at) + APPROVAL_STALE_MS);
    if (approve && now >= after) return;
    throw new ConflictError(
      `proposal ${id} is being approved by ${dec.by} since ${dec.at} and its result is not recorded yet; ` +
        `if that approval was interrupted, approve it again${now >= after ? '' : ` after ${after.toISOString()}`} to complete it (what it wrote is not written twice)`,
      cur.version,
    );
  }
  throw new ConflictError(`proposal ${id} was already ${dec.state} by ${dec.by} at ${dec.at}; a decision is final`, cur.version);
}
