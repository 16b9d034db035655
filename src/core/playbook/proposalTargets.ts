/**
 * The contract between the proposal queue (proposalService.ts) and its targets (facts,
 * skills, memories): what a handler validates, writes, and finds again after an interruption.
 */
import { normalizeKey, type ProposalData } from './kinds';

export type ProposalAction = ProposalData['action'];
export type Duplicate = ProposalData['validation']['duplicates'][number];

/** What approving hands a target's handler: the proposal, who approves, and every attempt so far. */
export interface ApplyRequest {
  proposalId: string;
  payload: Record<string, unknown>;
  action: ProposalAction;
  targetId: string | null;
  /** The target's version when it was proposed (null: there was none); undefined when not pinned. */
  targetVersion: number | null | undefined;
  /** Who approves; the write is recorded as theirs. */
  decidedBy: string;
  /** Who proposed it; the write records them too (its `proposedBy`). */
  proposedBy: string;
  /** Every approval claim of this proposal, oldest first; the last is this one. */
  attempts: Array<{ by: string; at: string }>;
}

/**
 * What the queue needs of a target (fact, skill, memory): validation exactly as a direct write
 * would do it (schema, ontology, secrets; throwing refuses the proposal), near-duplicates, the
 * write itself, done when a person approves, and a way to tell whether an earlier attempt to
 * approve the same proposal already wrote it (an approval interrupted between the write and
 * recording its result is completed by approving again, and must not write twice).
 */
export interface ProposalTargetHandler {
  /** Validates the payload; throws the target's typed error to refuse. The returned payload is what is queued. */
  validate(
    payload: unknown,
    action: ProposalAction,
    targetId: string | null,
  ): Promise<{
    payload: Record<string, unknown>;
    summary: string;
    duplicates: Duplicate[];
    warnings: string[];
    targetVersion?: number | null;
  }>;
  /** Performs the write on approval, recorded with `decidedBy` as its author; returns the written item's id. */
  apply(request: ApplyRequest): Promise<{ id: string }>;
  /** The item an earlier attempt (request.attempts) wrote for this proposal, or null when none did. */
  applied(request: ApplyRequest): Promise<{ id: string } | null>;
}

/**
 * Whether a version written by `author` at `changedAt` can be an earlier attempt's write: it
 * was written by one of the approvers who claimed the proposal, no earlier than the first claim.
 */
export function byEarlierAttempt(request: ApplyRequest): (author: string, changedAt: string) => boolean {
  const who = new Set(request.attempts.map((a) => normalizeKey(a.by)));
  const since = request.attempts[0]?.at ?? '';
  return (author, changedAt) => who.has(normalizeKey(author)) && changedAt >= since;
}
