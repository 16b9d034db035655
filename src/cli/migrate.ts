import { ValidationError } from '../core/errors';
import { MemoryService } from '../core/memoryService';
import type { StoredRecord } from '../core/ports/records';
import type { Store, StoredVersion } from '../core/ports/store';
import type { Command } from './commands';
import type { CliIo } from './io';
import { openStore, parseStoreSpec, type StoreSpec } from './openStore';

/** A command that opens its own stores rather than the one the global flags name. */
export interface StandaloneCommand extends Omit<Command, 'run'> {
  runStandalone: (ctx: { flags: Record<string, string | boolean | undefined>; json: boolean; io: CliIo; env: NodeJS.ProcessEnv; cwd: string }) => Promise<void>;
}

/** Rows per import: each batch is one transaction (PostgreSQL) or one journal append (sql.js). */
const BATCH = 1000;

function describe(spec: StoreSpec): string {
  return spec.kind === 'dir' ? spec.dir : `${spec.url.replace(/\?.*$/, '')} (project ${spec.project})`;
}

/**
 * Copies every version, in stored order, from one store to another. Imports are idempotent
 * by rowId, so running it again adds nothing and an interrupted run is completed by the next.
 * Rows are validated as any import is (the service's checks), batch by batch, so memory stays flat.
 */
async function copyVersions(from: Store, to: Store): Promise<{ added: number; skipped: number }> {
  const target = new MemoryService(to, { author: 'migrate' });
  const total = { added: 0, skipped: 0 };
  let batch: StoredVersion[] = [];
  const flush = async () => {
    const r = await target.importVersions(batch);
    total.added += r.added;
    total.skipped += r.skipped;
    batch = [];
  };
  for await (const row of from.exportVersions()) {
    batch.push(row);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  return total;
}

/** Copies every record of the other tiers (episodes, facts, skills, proposals, reports) the same way. */
async function copyRecords(from: Store, to: Store): Promise<{ added: number; skipped: number }> {
  const total = { added: 0, skipped: 0 };
  let batch: StoredRecord[] = [];
  const flush = async () => {
    const r = await to.records.importRecords(batch);
    total.added += r.added;
    total.skipped += r.skipped;
    batch = [];
  };
  for await (const row of from.records.exportRecords()) {
    batch.push(row);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  return total;
}

export const STANDALONE: Record<string, StandaloneCommand> = {
  migrate: {
    usage: 'migrate --from DIR|postgres://… --to DIR|postgres://… [--project KEY]',
    summary: 'copy every version with its history, and every record of the other playbook, between stores (idempotent); prints added/skipped',
    options: { from: { type: 'string' }, to: { type: 'string' } },
    positionals: 'none',
    runStandalone: async (ctx) => {
      const flag = (k: string) => ctx.flags[k] as string | undefined;
      if (!flag('from') || !flag('to')) throw new ValidationError('migrate', 'give both --from and --to (a store folder or a postgres:// URL)');
      const project = flag('project') ?? (ctx.env.AGENT_MEMORY_PROJECT || undefined);
      const from = parseStoreSpec('from', flag('from')!, project, ctx.cwd);
      const to = parseStoreSpec('to', flag('to')!, project, ctx.cwd);
      const warn = (w: { message: string }) => ctx.io.stderr(`warning: ${w.message}\n`);
      const source = await openStore(from, warn);
      try {
        const target = await openStore(to, warn);
        try {
          const out = { ...(await copyVersions(source, target)), records: await copyRecords(source, target) };
          const text =
            `Migrated ${describe(from)} → ${describe(to)}: ${out.added} version(s) added, ${out.skipped} skipped (already present); ` +
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
