import type { MemoryServices, Services } from '../core/services';
import type { Channel } from '../core/ports/origin';
import type { Flags } from './flags';
import type { CliIo } from './io';

/*
 * What a command is, and what it is run with. Types only: the command groups (commands/*.ts)
 * import them, the registry imports the groups, and nothing here imports back.
 */

/** What every command is run with. */
interface RunContext {
  /** Its flags, the global ones (--store, --json, …) included. */
  flags: Flags;
  args: string[];
  json: boolean;
  io: CliIo;
}

/** A command over the store the global flags name: main opens it and builds the services. */
export interface CommandContext extends RunContext {
  /** The memory tier's services over that store (src/core/services.ts). */
  services: MemoryServices;
  /**
   * Every service over that store, the playbook's tiers included: their modules are loaded on the
   * first call, so a memory command (a one-shot search or create) does not build their schemas.
   */
  allServices: () => Promise<Services>;
  /** The store folder (absolute), or undefined when the store is a database. */
  storeDir: string | undefined;
  /** The folder the CLI was started in. */
  cwd: string;
}

/** A command that opens its own stores (migrate) or needs none (help, completion): main opens none for it. */
export interface StandaloneContext extends RunContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The registry, for the commands that describe the CLI (help, completion); passed in, since no command file imports it. */
  commands: ReadonlyMap<string, Command>;
}

interface CommandInfo {
  /** The command words, then its arguments and flags: one line of --help. */
  usage: string;
  summary: string;
  /** More for `COMMAND --help` than the usage line says, e.g. the values a flag takes. */
  details?: string;
  /** Flags of this command, as util.parseArgs takes them. */
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** How many positional arguments: none, exactly one (an id, a name, a file), any number, at most one. */
  positionals: 'none' | 'id' | 'many' | 'optional';
}

export interface StoreCommand extends CommandInfo {
  opensStores?: false;
  /**
   * Serves many calls on one store (mcp, duplicates): a PostgreSQL store then answers searches
   * and likely-duplicate checks in a local index, loaded in the background. Other commands
   * search at most once and close, and would only pay for its load.
   */
  longLived?: boolean;
  /**
   * The channel its writes are recorded with: `mcp` for the MCP server, `import` for an import;
   * absent: `cli`. Main sets it once when it builds the services.
   */
  channel?: Channel;
  /** Resolves to the exit code when it is not 0 (check --fail-on-stale). */
  run: (ctx: CommandContext) => Promise<void | number>;
}

export interface StandaloneCommand extends CommandInfo {
  /** Opens the stores its own flags name (--from, --to) rather than the global --store, or none at all. */
  opensStores: true;
  /** Resolves to the exit code when it is not 0 (doctor found a problem). */
  run: (ctx: StandaloneContext) => Promise<void | number>;
}

export type Command = StoreCommand | StandaloneCommand;

/** A group's commands, keyed by the words that name them (`list`, `episode record`), in --help order. */
export type CommandGroup = Record<string, Command>;
