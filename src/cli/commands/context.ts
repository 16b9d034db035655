import type { CommandGroup } from '../command';
import { int } from '../flags';
import { show } from '../format';

/** `agent-memory context`: what every tier knows about a task, in one answer. */
export const CONTEXT_COMMANDS: CommandGroup = {
  context: {
    usage: 'context TASK… [--max-tokens N]',
    summary: 'what the team memory knows about a task (memories, facts, skills), packed within a token budget',
    options: { 'max-tokens': { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const max = int(ctx.flags, 'max-tokens');
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.context.context({ task: ctx.args.join(' '), ...(max !== undefined ? { maxTokens: max } : {}) }));
    },
  },
};
