import * as path from 'node:path';
import { INSTRUCTION_TARGET_NAMES, INSTRUCTION_TARGETS, parseInstructionTargets, type MergeOutcome } from '../../core/agentInstructions';
import { ValidationError } from '../../core/errors';
import { writeInstructionsFiles } from '../../platform/instructionsFiles';
import { workspaceRoot } from '../../platform/storeLocation';
import { writeGitFiles } from '../../store/sqljs/gitSharing';
import type { CommandGroup } from '../command';
import { list } from '../flags';

const DONE: Record<MergeOutcome, string> = {
  created: 'created',
  added: 'instructions appended (your text kept)',
  updated: 'instructions updated between the agent-memory markers (your text kept)',
  unchanged: 'already up to date',
};

/**
 * `agent-memory init`: prepares the store folder for sharing through git (the journal
 * merges with git's union driver; the caches stay out of commits), and with --instructions
 * writes the files that tell agents to consult the memory. Safe to run again: it only adds
 * what is missing, and keeps lines a person wrote.
 */
export const INIT_COMMANDS: CommandGroup = {
  init: {
    usage: 'init [--instructions copilot,agents,claude]',
    summary:
      'prepare the store folder for git: union merge for the journal, the caches ignored; --instructions: tell agents to use the memory (idempotent)',
    details:
      `--instructions names the files that tell agents to consult the memory first, check stale memories and record what they learn, at the\n` +
      `top of the git repository (else the current folder): ${INSTRUCTION_TARGET_NAMES.map((t) => `${t} (${INSTRUCTION_TARGETS[t].file})`).join(', ')}.\n` +
      'The text goes between <!-- agent-memory:begin --> and <!-- agent-memory:end -->; running it again replaces only that, and\n' +
      'a file whose markers are unbalanced is refused. With a team database (--store postgres://…) only the instructions are written.',
    options: { instructions: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const names = list(ctx.flags, 'instructions');
      const targets = names === undefined ? undefined : parseInstructionTargets(names);
      if (ctx.storeDir === undefined && targets === undefined) {
        throw new ValidationError(
          'store',
          'init prepares a workspace store folder for git; a PostgreSQL store is shared through its server (init --instructions still writes the agent instructions)',
        );
      }
      const storeDir = ctx.storeDir;
      const files = storeDir === undefined ? undefined : writeGitFiles(storeDir);
      const instructions = targets === undefined ? undefined : writeInstructionsFiles(workspaceRoot(ctx.cwd), targets);
      if (ctx.json) {
        const out = {
          ...(storeDir !== undefined ? { dir: storeDir, files } : {}),
          ...(instructions !== undefined ? { instructions: instructions.map(({ file, outcome }) => ({ file, outcome })) } : {}),
        };
        ctx.io.stdout(`${JSON.stringify(out)}\n`);
        return;
      }
      if (storeDir !== undefined && files !== undefined) {
        const lines = files.map(({ file, added, created }) =>
          added.length === 0
            ? `${file}: already up to date\n`
            : `${file}: ${created ? 'created with' : 'added'} ${added.map((l) => JSON.stringify(l)).join(', ')}\n`,
        );
        const journal = path.join(storeDir, 'journal.jsonl');
        ctx.io.stdout(
          `${lines.join('')}Commit ${journal} with these two files; the other files in the folder are caches each clone rebuilds.\n`,
        );
      }
      if (instructions !== undefined) {
        ctx.io.stdout(instructions.map(({ file, outcome }) => `${file}: ${DONE[outcome]}\n`).join(''));
        if (instructions.some((r) => r.outcome !== 'unchanged')) ctx.io.stdout("Commit them so every teammate's agent reads them.\n");
      }
    },
  },
};
