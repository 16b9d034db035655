import type { Command, CommandGroup } from './command';
import type * as Groups from './commandGroups';
import { MEMORY_COMMANDS } from './commands/memories';

/** A map of commands keyed by the words that name them (`list`, `episode record`), in --help order. */
export type Registry = ReadonlyMap<string, Command>;

/**
 * The memory commands (create, search, read, …): what an agent without MCP runs once per
 * operation, so the only ones whose modules every start runs.
 */
export const MEMORY_REGISTRY: Registry = register([MEMORY_COMMANDS]);

let all: Promise<Registry> | undefined;

/**
 * Every command of the CLI, in --help order: the other groups' modules (backup, doctor, the
 * playbook's tiers, the MCP server's command, …) are loaded on the first call.
 */
export function allCommands(): Promise<Registry> {
  return (all ??= import('./commandGroups').then((m: typeof Groups) => register(m.GROUPS)));
}

/**
 * One map of the groups, a Map so that a word such as `constructor` is not found on
 * Object.prototype. A name given twice would silently hide a command, so it fails at load.
 */
function register(groups: readonly CommandGroup[]): Map<string, Command> {
  const commands = new Map<string, Command>();
  for (const [name, command] of groups.flatMap((group) => Object.entries(group))) {
    if (commands.has(name)) throw new Error(`the command "${name}" is defined twice`);
    commands.set(name, command);
  }
  return commands;
}
