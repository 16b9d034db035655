import { ValidationError } from '../core/errors';
import { copyStore } from '../core/storeCopy';
import { describeStore, openStore, parseStoreSpec } from '../platform/openStore';
import type { Command } from './commands';
import type { CliIo } from './io';

/** A command that opens its own stores rather than the one the global flags name. */
export interface StandaloneCommand extends Omit<Command, 'run'> {
  runStandalone: (ctx: { flags: Record<string, string | boolean | undefined>; json: boolean; io: CliIo; env: NodeJS.ProcessEnv; cwd: string }) => Promise<void>;
}

export const STANDALONE: Record<string, StandaloneCommand> = {
  migrate: {
    usage: 'migrate --from DIR|postgres://… --to DIR|postgres://… [--project KEY]',
    summary: 'copy every version with its history, and every record of the playbook tiers, between stores (idempotent); prints added/skipped',
    options: { from: { type: 'string' }, to: { type: 'string' } },
    positionals: 'none',
    runStandalone: async (ctx) => {
      const flag = (k: string) => ctx.flags[k] as string | undefined;
      if (!flag('from') || !flag('to')) throw new ValidationError('migrate', 'give both --from and --to (a store folder or a postgres:// URL)');
      const project = flag('project') ?? (ctx.env.AGENT_MEMORY_PROJECT || undefined);
      const from = parseStoreSpec('from', flag('from')!, project, ctx.cwd);
      const to = parseStoreSpec('to', flag('to')!, project, ctx.cwd);
      const warn = (w: { message: string }) => ctx.io.stderr(`warning: ${w.message}\n`);
      const source = await openStore(from, { onWarning: warn });
      try {
        const target = await openStore(to, { onWarning: warn });
        try {
          const { versions, records } = await copyStore(source, target);
          const out = { ...versions, records };
          const text =
            `Migrated ${describeStore(from)} → ${describeStore(to)}: ${out.added} version(s) added, ${out.skipped} skipped (already present); ` +
            `${out.records.added} record(s) of episodes, facts, skills and proposals added, ${out.records.skipped} skipped.\n`;
          ctx.io.stdout(ctx.json ? `${JSON.stringify(out)}\n` : text);
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    },
  },
};
