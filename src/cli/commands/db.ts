import { grantDatabaseRole, resolveStoreSpec } from '../../platform/openStore';
import type { CommandGroup } from '../command';
import { bool, str } from '../flags';
import { show } from '../format';

/** `agent-memory db …`: the team database's own set-up, run by its owner. */
export const DB_COMMANDS: CommandGroup = {
  'db grant': {
    usage: 'db grant ROLE [--approver]',
    summary: "set a teammate's database role up: read, write and propose; decide proposals only with --approver; never rewrite history",
    details:
      "Run as the owner of the team database (the role that created its tables). Makes ROLE (LOGIN, no password: set one with ALTER ROLE … PASSWORD, or your provider's console) when it does not exist, and grants it: SELECT on every table, INSERT on the version tables (no UPDATE, no DELETE: history stays as written, purges stay with the owner), and what a write needs on the current-state tables. Without --approver the database refuses any proposal version or head that records a decision from ROLE; with it, ROLE may approve and reject. Running it again re-applies the rights (without --approver: takes approving away). The policy's owner and approvers may name database roles too.",
    options: { approver: { type: 'boolean' } },
    positionals: 'id',
    opensStores: true,
    run: async (ctx) => {
      const spec = resolveStoreSpec({ store: str(ctx.flags, 'store'), project: str(ctx.flags, 'project') }, ctx.env, ctx.cwd);
      const out = await grantDatabaseRole(spec, ctx.args[0]!, bool(ctx.flags, 'approver'));
      show(
        ctx,
        out,
        `${out.created ? 'Created' : 'Set up'} role ${out.role} in database ${out.database}: reads, writes memories and records, proposes; ` +
          `${out.approver ? 'approves and rejects proposals' : 'cannot approve or reject proposals'}; cannot update or delete history.\n` +
          (out.created ? `Set its password: ALTER ROLE ${out.role} PASSWORD '…' (or your provider's console).\n` : ''),
      );
    },
  },
};
