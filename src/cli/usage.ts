import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../core/errors';
import type { Options } from './argv';
import type { Command } from './command';

/*
 * The help texts: the whole CLI, a group's subcommands, one command. They take the registry as an
 * argument (the help command reaches it through its context), so nothing here imports it.
 */

/** The flags every command takes, before or after its words. */
export const GLOBAL_OPTIONS = {
  store: { type: 'string' },
  json: { type: 'boolean' },
  author: { type: 'string' },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

const GLOBAL_FLAGS =
  '  --store DIR|postgres://user@host/db   the store (default: see agent-memory help)\n' +
  '  --project KEY                         the project in a team database\n' +
  '  --json                                print the answer as JSON\n' +
  '  --author NAME                         who writes (default: AGENT_MEMORY_AUTHOR, git user.email, the OS user)\n' +
  "  -h, --help                            this command's help\n";

/** `agent-memory help`, `agent-memory --help`: every command of the registry once, in its order. */
export function fullUsage(commands: ReadonlyMap<string, Command>): string {
  const cmds = [...commands.values()].map((c) => `  ${c.usage}\n      ${c.summary}\n`).join('');
  return (
    'Usage: agent-memory [--store DIR|postgres://user@host/db] [--project KEY] [--json] [--author NAME] <command>\n' +
    '       agent-memory help [COMMAND] | COMMAND --help | --version\n\n' +
    `Commands:\n${cmds}\n` +
    'The store defaults to the nearest .agent-memory folder, else .agent-memory at the git root, else in the\n' +
    'current folder (env AGENT_MEMORY_DIR overrides). The author defaults to AGENT_MEMORY_AUTHOR, then git\n' +
    'user.email, then the OS user. A team database: --store postgres://user@host:port/db or env\n' +
    'AGENT_MEMORY_DATABASE_URL, the password in PGPASSWORD, the project key in --project or AGENT_MEMORY_PROJECT.\n' +
    'A value that begins with a dash is taken as the value of the flag before it (--content "-----BEGIN …").\n' +
    'Exit codes: 0 done, 2 input refused (nothing written), 1 other failure.\n'
  );
}

/** The value a flag takes, as its command's usage names it (`--tags a,b` → `a,b`), else VALUE. */
function placeholder(usage: string, flag: string): string {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`--${escaped}[ =]([^\\s\\[\\]()]+)`).exec(usage)?.[1] ?? 'VALUE';
}

/** `COMMAND --help`, `agent-memory help COMMAND`: that command's usage, summary and flags only. */
export function commandHelp(command: Command): string {
  const flags = Object.entries(command.options).map(([name, o]) => {
    const left = `--${name}${o.type === 'string' ? ` ${placeholder(command.usage, name)}` : ''}`;
    return `  ${left.padEnd(36)}${o.multiple ? ' (may be repeated)' : ''}`.trimEnd() + '\n';
  });
  return (
    `Usage: agent-memory ${command.usage}\n\n${command.summary}\n` +
    (command.details ? `\n${command.details}\n` : '') +
    (flags.length ? `\nFlags:\n${flags.join('')}` : '') +
    `\nGlobal flags:\n${GLOBAL_FLAGS}`
  );
}

/** `GROUP --help`, `agent-memory help GROUP`: the group's subcommands with their summaries. */
export function groupHelp(group: string, commands: ReadonlyMap<string, Command>): string {
  const subs = [...commands].filter(([name]) => name.startsWith(`${group} `));
  return (
    `Usage: agent-memory ${group} <subcommand> [flags]\n\nSubcommands:\n` +
    subs.map(([, c]) => `  ${c.usage}\n      ${c.summary}\n`).join('') +
    `\nRun agent-memory help ${group} SUBCOMMAND for a subcommand's flags.\n`
  );
}

/** The help `agent-memory help WORD…` asks for; refuses words that name no command or group. */
export function helpFor(words: string[], commands: ReadonlyMap<string, Command>): string {
  if (words.length === 0) return fullUsage(commands);
  const name = words.join(' ');
  const command = commands.get(name);
  if (command) return commandHelp(command);
  if (words.length === 1 && [...commands.keys()].some((k) => k.startsWith(`${name} `))) return groupHelp(name, commands);
  throw new ValidationError('help', `no command "${name}"; run agent-memory help for the list`);
}

/**
 * The version in our package.json, found above this file: dist/cli.js in a package or the .vsix,
 * src/cli/usage.ts in tests. Read, not imported: the bundle would carry the whole manifest.
 */
export function cliVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-memory' && pkg.version) return pkg.version;
    } catch {
      // no package.json here (or not ours): look further up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
