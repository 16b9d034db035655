import { ValidationError } from '../../core/errors';
import { copyStore } from '../../core/storeCopy';
import { describeStore, openStore, parseStoreSpec } from '../../platform/openStore';
import type { CommandGroup } from '../command';
import { str } from '../flags';
import { show } from '../format';

/** `agent-memory migrate`: copies between the two stores its flags name; main opens no store for it. */
export const MIGRATE_COMMANDS: CommandGroup = {
  migrate: {
    usage: 'migrate --from DIR|postgres://… --to DIR|postgres://… [--project KEY]',
    summary:
      'copy every version with its history, and every record of the playbook tiers, between stores (idempotent); prints added/skipped',
    options: { from: { type: 'string' }, to: { type: 'string' } },
    positionals: 'none',
    opensStores: true,
    run: async (ctx) => {
      const fromFlag = str(ctx.flags, 'from');
      const toFlag = str(ctx.flags, 'to');
      if (!fromFlag || !toFlag) throw new ValidationError('migrate', 'give both --from and --to (a store folder or a postgres:// URL)');
      const project = str(ctx.flags, 'project') ?? (ctx.env.AGENT_MEMORY_PROJECT || undefined);
      const from = parseStoreSpec('from', fromFlag, project, ctx.cwd);
      const to = parseStoreSpec('to', toFlag, project, ctx.cwd);
      const warn = (w: { message: string }) => ctx.io.stderr(`warning: ${w.message}\n`);
      const source = await openStore(from, { onWarning: warn });
      try {
        const target = await openStore(to, { onWarning: warn });
        try {
          const { versions, records } = await copyStore(source, target);
          const out = { ...versions, records };
          const text =
            `Migrated ${describeStore(from)} → ${describeStore(to)}: ${out.added} version(s) added, ${out.skipped} skipped (already present, or of a purged memory); ` +
            `${out.records.added} record(s) of episodes, facts, skills and proposals added, ${out.records.skipped} skipped.\n`;
          show(ctx, out, text);
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    },
  },
};
