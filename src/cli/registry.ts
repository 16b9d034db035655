import type { Command, CommandGroup } from './command';
import { BACKUP_COMMANDS } from './commands/backup';
import { CONTEXT_COMMANDS } from './commands/context';
import { DOCTOR_COMMANDS } from './commands/doctor';
import { DB_COMMANDS } from './commands/db';
import { DUPLICATE_COMMANDS } from './commands/duplicates';
import { EPISODE_COMMANDS } from './commands/episodes';
import { FACT_COMMANDS } from './commands/facts';
import { HELP_COMMANDS } from './commands/help';
import { INIT_COMMANDS } from './commands/init';
import { LIFECYCLE_COMMANDS } from './commands/lifecycle';
import { MCP_COMMANDS } from './commands/mcp';
import { MEMORY_COMMANDS } from './commands/memories';
import { MIGRATE_COMMANDS } from './commands/migrate';
import { PENDING_COMMANDS } from './commands/pending';
import { SKILL_COMMANDS } from './commands/skills';

/** The groups in the order `agent-memory --help` lists them. */
const GROUPS: CommandGroup[] = [
  MEMORY_COMMANDS,
  BACKUP_COMMANDS,
  DUPLICATE_COMMANDS,
  MCP_COMMANDS,
  INIT_COMMANDS,
  DOCTOR_COMMANDS,
  EPISODE_COMMANDS,
  FACT_COMMANDS,
  SKILL_COMMANDS,
  PENDING_COMMANDS,
  LIFECYCLE_COMMANDS,
  CONTEXT_COMMANDS,
  MIGRATE_COMMANDS,
  DB_COMMANDS,
  HELP_COMMANDS,
];

/**
 * Every command of the CLI, keyed by the words that name it (`list`, `episode record`), in
 * --help order. A Map, so a word such as `constructor` is not found on Object.prototype.
 */
export const COMMANDS: ReadonlyMap<string, Command> = register(GROUPS);

/** One map of the groups; a name given twice would silently hide a command, so it fails at load. */
function register(groups: CommandGroup[]): Map<string, Command> {
  const commands = new Map<string, Command>();
  for (const [name, command] of groups.flatMap((group) => Object.entries(group))) {
    if (commands.has(name)) throw new Error(`the command "${name}" is defined twice`);
    commands.set(name, command);
  }
  return commands;
}
