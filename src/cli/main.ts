import { parseArgs } from 'node:util';
import { MemoryError, ValidationError } from '../core/errors';
import { buildServices } from '../core/services';
import { resolveAuthor } from '../platform/author';
import { PlaybookConfig } from '../platform/playbookConfig';
import { defaultStoreDir } from '../platform/storeLocation';
import type { Store } from '../core/ports/store';
import type { Command } from './command';
import { bool, type Flags, str } from './flags';
import { type CliIo, processIo } from './io';
import { COMMANDS } from './registry';
import { openStore, resolveStoreSpec } from '../platform/openStore';

/** First words of two-word commands. */
const GROUPS = new Set([...COMMANDS.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]!));

const GLOBAL = {
  store: { type: 'string' },
  json: { type: 'boolean' },
  author: { type: 'string' },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usage(): string {
  const cmds = [...COMMANDS.values()].map((c) => `  ${c.usage}\n      ${c.summary}\n`).join('');
  return (
    'Usage: agent-memory [--store DIR|postgres://user@host/db] [--project KEY] [--json] [--author NAME] <command>\n\n' +
    `Commands:\n${cmds}\n` +
    'The store defaults to the nearest .agent-memory folder, else .agent-memory at the git root, else in the\n' +
    'current folder (env AGENT_MEMORY_DIR overrides). The author defaults to AGENT_MEMORY_AUTHOR, then git\n' +
    'user.email, then the OS user. A team database: --store postgres://user@host:port/db or env\n' +
    'AGENT_MEMORY_DATABASE_URL, the password in PGPASSWORD, the project key in --project or AGENT_MEMORY_PROJECT.\n' +
    'Exit codes: 0 done, 2 input refused (nothing written), 1 other failure.\n'
  );
}

/** A command line taken apart: no command when only global flags were given. */
interface Parsed {
  command?: Command;
  flags: Flags;
  args: string[];
}

/** Parses argv into the command, its flags and positionals, or throws a ValidationError. */
function parse(argv: string[]): Parsed {
  // Global flags may come before the command; a value flag consumes the next token.
  let idx = -1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) {
      idx = i;
      break;
    }
    if ((a === '--store' || a === '--author' || a === '--project') && !a.includes('=')) i++;
  }
  let name = idx >= 0 ? argv[idx]! : undefined;
  // Commands of the playbook tiers have two words: `episode record`, `fact query`, `pending approve`.
  const sub = argv[idx + 1];
  let width = 1;
  if (name !== undefined && !COMMANDS.has(name) && GROUPS.has(name)) {
    if (sub === undefined || !COMMANDS.has(`${name} ${sub}`)) {
      const subs = [...COMMANDS.keys()].filter((k) => k.startsWith(`${name} `)).map((k) => k.split(' ')[1]);
      throw new ValidationError(
        name,
        `${sub === undefined ? 'give a subcommand' : `unknown subcommand "${sub}"`}: ${subs.join(', ')}; run agent-memory --help`,
      );
    }
    name = `${name} ${sub}`;
    width = 2;
  }
  if (name === undefined) {
    try {
      return { flags: parseArgs({ args: argv, options: GLOBAL, strict: true }).values, args: [] };
    } catch (err) {
      throw new ValidationError('', `${(err as Error).message.split('\n')[0]}; run agent-memory --help`);
    }
  }
  const command = COMMANDS.get(name);
  if (!command) throw new ValidationError('command', `unknown command "${name}"; run agent-memory --help`);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv.slice(0, idx), ...argv.slice(idx + width)],
      options: { ...GLOBAL, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new ValidationError(name, `${(err as Error).message.split('\n')[0]}; usage: agent-memory ${command.usage}`);
  }
  const args = parsed.positionals;
  const wrongCount =
    (command.positionals === 'none' && args.length > 0) ||
    (command.positionals === 'id' && args.length !== 1) ||
    (command.positionals === 'optional' && args.length > 1);
  if (wrongCount) throw new ValidationError(name, `wrong number of arguments; usage: agent-memory ${command.usage}`);
  return { command, flags: parsed.values, args };
}

/** Runs the CLI; resolves to the exit code. */
export async function main(
  argv: string[],
  io: CliIo = processIo,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<number> {
  let store: Store | undefined;
  try {
    const { command, flags, args } = parse(argv);
    const help = bool(flags, 'help');
    if (help || !command) {
      io.stdout(usage());
      return help ? 0 : 2;
    }
    const json = bool(flags, 'json');
    if (command.opensStores) {
      await command.run({ flags, args, json, io, env, cwd });
      return 0;
    }
    const spec = resolveStoreSpec({ store: str(flags, 'store'), project: str(flags, 'project') }, env, cwd);
    store = await openStore(spec, {
      onWarning: (w) => io.stderr(`warning: ${w.message}\n`),
      localIndex: command.longLived ? 'background' : 'off',
    });
    // policy.yaml and ontology.yaml live in the store folder (for a database: the workspace's,
    // found only by the commands that read them: finding it may ask git).
    let config: PlaybookConfig | undefined;
    const playbookConfig = () => (config ??= new PlaybookConfig(spec.kind === 'dir' ? spec.dir : defaultStoreDir(cwd)));
    // The author is resolved at the first write only: reading commands need not ask git.
    const services = buildServices(store, {
      author: () => resolveAuthor(str(flags, 'author') ?? env.AGENT_MEMORY_AUTHOR, cwd),
      policy: () => playbookConfig().policy(),
      ontology: () => playbookConfig().ontology(),
    });
    await command.run({ services, storeDir: spec.kind === 'dir' ? spec.dir : undefined, flags, args, json, io });
    return 0;
  } catch (err) {
    const refused = err instanceof MemoryError && err.refused;
    io.stderr(`agent-memory: ${(err as Error).message.replace(/\s*\n\s*/g, ' ')}\n`);
    return refused ? 2 : 1;
  } finally {
    await store?.close().catch((err: Error) => io.stderr(`agent-memory: closing the store failed: ${err.message}\n`));
  }
}
