import type { CommandGroup } from './command';
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

/**
 * Every group, in the order `agent-memory --help` lists them. Imported on use (registry.ts): a
 * one-shot memory command does not run the other groups' modules.
 */
export const GROUPS: readonly CommandGroup[] = [
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
