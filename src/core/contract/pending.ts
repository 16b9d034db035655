/** The pending queue: a proposal's input, the decisions on it, and what a model is told after proposing. */
import * as z from 'zod';

export const PROPOSAL_TARGETS = ['fact', 'skill', 'memory'] as const;
const Who = z.string({ error: 'say who (an author name)' }).trim().min(1, { error: 'say who (an author name)' }).max(200);
export const ProposalId = z.uuid({ error: 'must be a proposal id (a UUID returned by propose or list)' }).transform((s) => s.toLowerCase());
export const ProposeInput = z
  .strictObject({
    target: z.enum(PROPOSAL_TARGETS, { error: `target must be one of ${PROPOSAL_TARGETS.join(', ')}` }),
    action: z.enum(['create', 'edit'], { error: 'action must be create or edit' }).default('create'),
    targetId: z.string().trim().min(1).max(200).optional(),
    payload: z.unknown().refine((p) => p !== undefined && p !== null, { error: 'payload is missing — give the item to write' }),
    proposedBy: Who,
  })
  .refine((p) => p.action === 'create' || p.targetId !== undefined, {
    error: 'targetId is missing — an edit names the item it changes',
    path: ['targetId'],
  });
export const ListProposalsInput = z.strictObject({
  state: z.enum(['pending', 'approved', 'rejected']).optional(),
  target: z.enum(PROPOSAL_TARGETS).optional(),
  limit: z.number().int().min(1).max(500, { error: 'limit is at most 500' }).optional(),
  cursor: z.string().max(500).optional(),
});
export const ApproveProposalInput = z.strictObject({ id: ProposalId, by: Who });
export const RejectProposalInput = z.strictObject({
  id: ProposalId,
  by: Who,
  reason: z
    .string({ error: 'reason is missing — say why it is rejected, for the proposer and the audit' })
    .trim()
    .min(1, { error: 'reason is missing — say why it is rejected, for the proposer and the audit' })
    .max(1000),
});

// ---- outputs
export const Duplicate = z.object({ kind: z.string(), id: z.string(), similarity: z.number(), label: z.string() });
export const ProposalOutput = z.object({
  proposalId: z.string(),
  status: z.literal('pending'),
  summary: z.string(),
  duplicates: z.array(Duplicate),
  warnings: z.array(z.string()),
  note: z.string(),
});
export type ProposalOutput = z.infer<typeof ProposalOutput>;

/** What a model is told after proposing: pending, not saved. */
export const PENDING_NOTE =
  'Proposed, NOT saved: a person reviews it in the Pending queue and approves or rejects it. Do not repeat the proposal; carry on with your task.';
