import { ApproveProposalInput, ListProposalsInput, ProposalId, ProposeInput, RejectProposalInput } from '../contract/pending';
import { randomUUID } from 'node:crypto';
import type { StoredRecord } from '../ports/records';
import type { Store } from '../ports/store';
import type { Channel } from '../ports/origin';
import { parseInput } from '../contract/validate';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { asProposal, proposalColumns, type ProposalData, type ProposalState, type ProposalTarget } from './kinds';
import type { ApplyRequest, Duplicate, ProposalTargetHandler } from './proposalTargets';
import { refuseDecided, refuseDecider } from './proposalDecisions';
import { assertNoSecrets, decodeRecordCursor, encodeRecordCursor, RecordWriter } from './recordRows';

export interface ProposalServiceOptions {
  /** The targets this queue accepts; a proposal for another target is refused. */
  targets: Partial<Record<ProposalTarget, ProposalTargetHandler>>;
  /**
   * Who may decide each target's proposals (policy owners and approvers): names as people write
   * as, or database roles (on PostgreSQL, the role of this store's connection); empty or absent: anyone.
   */
  approvers?: Partial<Record<ProposalTarget, readonly string[]>> | (() => Partial<Record<ProposalTarget, readonly string[]>>);
  /** Recorded as the author of the proposal's versions; defaults to the proposer / decider. */
  author?: string | (() => string);
  /** Whether a proposer may decide their own proposal (policy review.self_approval: allowed); default no. */
  selfApproval?: () => boolean;
  now?: () => Date;
  /** The client the decisions and proposals come through, recorded on every version. */
  channel?: Channel;
}

/** A proposal as the queue shows it: its data, state and version. */
export interface ProposalView extends ProposalData {
  id: string;
  version: number;
  state: ProposalState;
  changedAt: string;
}

export interface ProposeResult {
  proposalId: string;
  /** Always 'pending': the tool tells the model its proposal waits for a person; nothing was saved. */
  status: 'pending';
  summary: string;
  duplicates: Duplicate[];
  warnings: string[];
}

export interface DecideResult {
  proposalId: string;
  state: 'approved' | 'rejected';
  by: string;
  at: string;
  /** The id of what approving wrote; null for a rejection. */
  resultId: string | null;
  /** Said when approving completed an interrupted approval whose write had already happened. */
  note?: string;
}

/**
 * The pending queue of the write path: proposal → validation → a person's decision → the write.
 * A proposal is a versioned record; each decision is a new version, so the history is the audit
 * (who proposed, who decided, when, why). Decisions on one proposal are serialised under the
 * write scope `proposal:<id>`: the first decision wins, later ones are conflicts.
 */
export class ProposalService {
  private readonly writer: RecordWriter;
  private readonly now: () => Date;

  constructor(
    private readonly store: Store,
    private readonly options: ProposalServiceOptions,
  ) {
    this.writer = new RecordWriter({ author: options.author ?? '', now: options.now, channel: options.channel });
    this.now = this.writer.now;
  }

  private handler(target: ProposalTarget): ProposalTargetHandler {
    const h = this.options.targets[target];
    if (!h)
      throw new ValidationError(
        'target',
        `${target} proposals are not accepted here; accepted: ${Object.keys(this.options.targets).join(', ') || 'none'}`,
      );
    return h;
  }

  private static view(r: StoredRecord): ProposalView {
    return { ...asProposal(r), id: r.id, version: r.version, state: r.status as ProposalState, changedAt: r.changedAt };
  }

  private row(cur: StoredRecord | undefined, id: string, version: number, data: ProposalData, who: string): StoredRecord {
    const row = this.writer.row('proposal', id, version, cur ? 'edit' : 'create', proposalColumns(data), data, cur);
    return this.options.author === undefined ? { ...row, author: who } : row;
  }

  /** Validates through the target's handler (a refusal queues nothing), then queues the proposal as pending. */
  async propose(input: unknown): Promise<ProposeResult> {
    const { proposal: p } = await this.queue(input, randomUUID());
    return {
      proposalId: p.id,
      status: 'pending',
      summary: p.summary,
      duplicates: p.validation.duplicates,
      warnings: p.validation.warnings,
    };
  }

  /**
   * As propose, under an id the caller derives from what is proposed (a promotion draft's
   * evidence): proposing the same again, even concurrently, finds the first and queues nothing.
   */
  async proposeOnce(id: string, input: unknown): Promise<{ proposal: ProposalView; queued: boolean }> {
    return this.queue(input, parseInput(ProposalId, id));
  }

  private async queue(input: unknown, id: string): Promise<{ proposal: ProposalView; queued: boolean }> {
    const p = parseInput(ProposeInput, input);
    assertNoSecrets({ proposedBy: p.proposedBy });
    const targetId = p.targetId ?? null;
    const checked = await this.handler(p.target).validate(p.payload, p.action, targetId);
    const data: ProposalData = {
      target: p.target,
      action: p.action,
      targetId,
      ...(checked.targetVersion === undefined ? {} : { targetVersion: checked.targetVersion }),
      payload: checked.payload,
      summary: checked.summary,
      proposedBy: p.proposedBy,
      proposedAt: this.now().toISOString(),
      validation: { duplicates: checked.duplicates, warnings: checked.warnings },
      decision: null,
    };
    const [row] = await this.store.records.write(`proposal:${id}`, async (reader) =>
      (await reader.get('proposal', id)) ? [] : [this.row(undefined, id, 1, data, p.proposedBy)],
    );
    return row ? { proposal: ProposalService.view(row), queued: true } : { proposal: await this.get(id), queued: false };
  }

  /** Proposals, most recently changed first, filtered by state and target. */
  async list(input: unknown = {}): Promise<{ items: ProposalView[]; nextCursor: string | null }> {
    const l = parseInput(ListProposalsInput, input ?? {});
    const limit = l.limit ?? 100;
    const rows = await this.store.records.query({
      kind: 'proposal',
      status: l.state ? [l.state] : undefined,
      keys: l.target ? [l.target] : undefined,
      limit: limit + 1,
      after: l.cursor === undefined ? undefined : decodeRecordCursor(l.cursor),
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(ProposalService.view), nextCursor: rows.length > limit && last ? encodeRecordCursor(last) : null };
  }

  async get(id: string): Promise<ProposalView> {
    const pid = parseInput(ProposalId, id);
    const r = await this.store.records.get('proposal', pid);
    if (!r || r.deletedAt) throw new NotFoundError(`proposal ${pid} does not exist; list the pending proposals to find one`);
    return ProposalService.view(r);
  }

  /** The full audit: every version of the proposal, oldest first. */
  async history(id: string): Promise<ProposalView[]> {
    await this.get(id);
    return (await this.store.records.history('proposal', parseInput(ProposalId, id))).map(ProposalService.view);
  }

  /** Refuses a decision by someone who may not decide `p` (proposalDecisions.ts). */
  private checkDecider(p: ProposalView, by: string): void {
    const a = this.options.approvers;
    const approvers = (typeof a === 'function' ? a() : a)?.[p.target] ?? [];
    refuseDecider(p, by, { approvers, selfApproval: this.options.selfApproval?.() ?? false, dbRole: this.store.dbRole });
  }

  /** One decision version under the proposal's scope; `change` throws to refuse, or returns null to write nothing. */
  private async transition(
    id: string,
    who: string,
    change: (cur: StoredRecord, data: ProposalData) => ProposalData | null,
  ): Promise<StoredRecord | undefined> {
    const [row] = await this.store.records.write(`proposal:${id}`, async (reader) => {
      const cur = await reader.get('proposal', id);
      if (!cur || cur.deletedAt) throw new NotFoundError(`proposal ${id} does not exist; list the pending proposals to find one`);
      const next = change(cur, asProposal(cur));
      return next ? [this.row(cur, id, (await reader.maxVersion('proposal', id)) + 1, next, who)] : [];
    });
    return row;
  }

  /** Every approval claim of a proposal, oldest first (a claim is a version approved without a result). */
  private async attempts(id: string): Promise<Array<{ by: string; at: string }>> {
    return (await this.store.records.history('proposal', id))
      .map((r) => asProposal(r).decision)
      .flatMap((dec) => (dec?.state === 'approved' && dec.resultId === null ? [{ by: dec.by, at: dec.at }] : []));
  }

  /**
   * Approves: claims the decision first (so a racing second approval is a conflict and the
   * write happens once), applies the payload through the target's handler, then records what
   * it wrote. If the write is refused (say the item changed since), the proposal returns to
   * pending with the reason among its warnings, and the error is thrown. An approval
   * interrupted after its claim (no result recorded after APPROVAL_STALE_MS) is completed by
   * approving again: the handler first looks for what an earlier attempt wrote.
   */
  async approve(input: unknown): Promise<DecideResult> {
    const a = parseInput(ApproveProposalInput, input);
    assertNoSecrets({ by: a.by });
    const before = await this.get(a.id);
    this.checkDecider(before, a.by);
    const handler = this.handler(before.target);
    const at = this.now().toISOString();
    const claimed = (await this.transition(a.id, a.by, (cur, d) => {
      refuseDecided(a.id, cur, d, true, this.now());
      return { ...d, decision: { state: 'approved', by: a.by, at, reason: '', resultId: null } };
    }))!;
    const data = asProposal(claimed);
    const attempts = await this.attempts(a.id);
    const request: ApplyRequest = {
      proposalId: a.id,
      payload: data.payload,
      action: data.action,
      targetId: data.targetId,
      targetVersion: data.targetVersion,
      decidedBy: a.by,
      proposedBy: data.proposedBy,
      attempts,
    };
    let earlier: { id: string } | null = null;
    let result: { id: string };
    try {
      earlier = attempts.length > 1 ? await handler.applied(request) : null;
      result = earlier ?? (await handler.apply(request));
    } catch (err) {
      await this.transition(a.id, a.by, (cur, d) =>
        cur.rowId !== claimed.rowId
          ? null
          : {
              ...d,
              decision: null,
              validation: {
                ...d.validation,
                warnings: [...d.validation.warnings, `approval by ${a.by} at ${at} failed: ${(err as Error).message}`],
              },
            },
      );
      throw err;
    }
    await this.transition(a.id, a.by, (cur, d) => {
      if (cur.rowId !== claimed.rowId)
        throw new ConflictError(
          `proposal ${a.id} changed while it was being approved (${d.decision ? `claimed by ${d.decision.by} at ${d.decision.at}` : 'back to pending'})`,
          cur.version,
        );
      return { ...d, decision: { ...d.decision!, resultId: result.id } };
    });
    const note = earlier
      ? `completed an interrupted approval: ${result.id} had already been written by it, and was not written again`
      : undefined;
    return { proposalId: a.id, state: 'approved', by: a.by, at, resultId: result.id, ...(note ? { note } : {}) };
  }

  /** Rejects with a reason (required); nothing is written to the target. */
  async reject(input: unknown): Promise<DecideResult> {
    const r = parseInput(RejectProposalInput, input);
    assertNoSecrets({ reason: r.reason, by: r.by });
    const before = await this.get(r.id);
    this.checkDecider(before, r.by);
    const at = this.now().toISOString();
    await this.transition(r.id, r.by, (cur, d) => {
      refuseDecided(r.id, cur, d, false, this.now());
      return { ...d, decision: { state: 'rejected', by: r.by, at, reason: r.reason, resultId: null } };
    });
    return { proposalId: r.id, state: 'rejected', by: r.by, at, resultId: null };
  }
}
