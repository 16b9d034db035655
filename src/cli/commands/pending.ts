import type { CommandGroup } from '../command';
import { pageFlags, str } from '../flags';
import { show, showPage } from '../format';

/** The pending queue: what models and the promotion run proposed, approved or rejected by a person. */
export const PENDING_COMMANDS: CommandGroup = {
  'pending list': {
    usage: 'pending list [--state pending|approved|rejected] [--limit N] [--cursor C]',
    summary: 'proposals of models and of the promotion run (default: pending)',
    options: { state: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.proposals.list({ state: str(ctx.flags, 'state') ?? 'pending', ...pageFlags(ctx.flags) });
      showPage(
        ctx,
        out,
        (p) =>
          `${p.id}  ${p.state.padEnd(8)}  ${p.summary}  (proposed by ${p.proposedBy}${p.decision ? `, ${p.decision.state} by ${p.decision.by}` : ''})`,
        'No proposals.',
      );
    },
  },
  'pending show': {
    usage: 'pending show ID',
    summary: 'one proposal: what approving writes, duplicates, warnings, the decision',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.proposals.get(ctx.args[0]!));
    },
  },
  'pending approve': {
    usage: 'pending approve ID',
    summary: 'approve a proposal: the item is written as you, the decision recorded',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.proposals.approve({ id: ctx.args[0], by: ctx.services.author() });
      show(ctx, out, `Approved ${out.proposalId}${out.resultId ? `: wrote ${out.resultId}` : ''}.\n${out.note ? `${out.note}.\n` : ''}`);
    },
  },
  'pending reject': {
    usage: 'pending reject ID --reason R',
    summary: 'reject a proposal, saying why (recorded)',
    options: { reason: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.proposals.reject({
        id: ctx.args[0],
        by: ctx.services.author(),
        reason: str(ctx.flags, 'reason') ?? '',
      });
      show(ctx, out, `Rejected ${out.proposalId}.\n`);
    },
  },
};
