import { ValidationError } from '../../core/errors';
import type { CommandGroup } from '../command';
import { bashCompletion, zshCompletion } from '../completion';
import { helpFor } from '../usage';

/** The commands that describe the CLI itself; they open no store and read the registry from their context. */
export const HELP_COMMANDS: CommandGroup = {
  help: {
    usage: 'help [COMMAND]',
    summary: "this list, or one command's usage and flags (as COMMAND --help), or a group's subcommands",
    options: {},
    positionals: 'many',
    opensStores: true,
    run: async (ctx) => ctx.io.stdout(helpFor(ctx.args, ctx.commands)),
  },
  completion: {
    usage: 'completion bash|zsh',
    summary: 'print a shell completion script for commands and flags: source <(agent-memory completion bash)',
    options: {},
    positionals: 'id',
    opensStores: true,
    run: async (ctx) => {
      const shell = ctx.args[0];
      if (shell === 'bash') return ctx.io.stdout(bashCompletion(ctx.commands));
      if (shell === 'zsh') return ctx.io.stdout(zshCompletion(ctx.commands));
      throw new ValidationError('completion', `no completion for "${shell}"; give bash or zsh`);
    },
  },
};
