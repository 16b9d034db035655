import * as path from 'node:path';
import { ValidationError } from '../../core/errors';
import { writeGitFiles } from '../../store/sqljs/gitSharing';
import type { CommandGroup } from '../command';

/**
 * `agent-memory init`: prepares the store folder for sharing through git (the journal
 * merges with git's union driver; the caches stay out of commits). Safe to run again:
 * it only adds what is missing, and keeps lines a person wrote.
 */
export const INIT_COMMANDS: CommandGroup = {
  init: {
    usage: 'init',
    summary: 'prepare the store folder for git: union merge for the journal, the caches ignored (idempotent)',
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      if (ctx.storeDir === undefined) {
        throw new ValidationError(
          'store',
          'init prepares a workspace store folder for git; a PostgreSQL store is shared through its server',
        );
      }
      const storeDir = ctx.storeDir;
      const files = writeGitFiles(storeDir);
      if (ctx.json) {
        ctx.io.stdout(`${JSON.stringify({ dir: storeDir, files })}\n`);
        return;
      }
      const lines = files.map(({ file, added, created }) =>
        added.length === 0
          ? `${file}: already up to date\n`
          : `${file}: ${created ? 'created with' : 'added'} ${added.map((l) => JSON.stringify(l)).join(', ')}\n`,
      );
      const journal = path.join(storeDir, 'journal.jsonl');
      ctx.io.stdout(
        `${lines.join('')}Commit ${journal} with these two files; the other files in the folder are caches each clone rebuilds.\n`,
      );
    },
  },
};
