import { ValidationError } from '../../core/errors';
import { copyStore } from '../../core/storeCopy';
import * as path from 'node:path';
import { describeStore, openStore, parseStoreSpec, type StoreSpec } from '../../platform/openStore';
import { STORE_FOLDER, storeIn } from '../../platform/storeLocation';
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
      const from = located('from', parseStoreSpec('from', fromFlag, project, ctx.cwd), true);
      const to = located('to', parseStoreSpec('to', toFlag, project, ctx.cwd), false);
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

/**
 * A folder's store (storeIn: the folder, or its `.agent-memory` when the folder is a workspace's
 * root). A source must hold one: copying from a folder that holds none would copy nothing and say
 * so as if it had worked. A target that holds none becomes a new store in the folder given.
 */
function located(field: 'from' | 'to', spec: StoreSpec, mustExist: boolean): StoreSpec {
  if (spec.kind !== 'dir') return spec;
  const dir = storeIn(spec.dir);
  if (dir) return { kind: 'dir', dir };
  if (mustExist)
    throw new ValidationError(
      field,
      `${spec.dir} holds no store: neither ${path.join(spec.dir, 'journal.jsonl')} nor ${path.join(spec.dir, STORE_FOLDER, 'journal.jsonl')} exists`,
    );
  return spec;
}
