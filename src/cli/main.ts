import { parseArgs } from 'node:util';
import { MemoryError, ValidationError } from '../core/errors';
import { buildMemoryServices, type MemoryServices, type ServicesOptions } from '../core/memoryTierServices';
import type * as AllServices from '../core/services';
import type * as PlaybookFiles from '../platform/playbookConfig';
import { codebaseRoot } from '../platform/storeLocation';
import { GitCodebase } from '../platform/gitCodebase';
import { resolveAuthor } from '../platform/author';
import { defaultStoreDir } from '../platform/storeLocation';
import type { Store } from '../core/ports/store';
import type { Command } from './command';
import { bool, type Flags, str } from './flags';
import { type CliIo, processIo } from './io';
import { allCommands, MEMORY_REGISTRY, type Registry } from './registry';
import { asksHelp, closest, type Options, prepareArgv } from './argv';
import { cliVersion, commandHelp, fullUsage, GLOBAL_OPTIONS, groupHelp } from './usage';
import { openStore, resolveStoreSpec, type StoreSpec } from '../platform/openStore';

/** Flags of `agent-memory` without a command; `--version` only there, since `read --version V` is a command's. */
const TOP_LEVEL = { ...GLOBAL_OPTIONS, version: { type: 'boolean' } } as const;

/** A command line taken apart: a command to run, or a text to print (help, the version). */
type Parsed = { print: string; code: number; command?: undefined } | { print?: undefined; command: Command; flags: Flags; args: string[] };

/** Tokens prepared for parseArgs; an unknown flag or a missing value is refused with `usage`. */
function prepare(argv: string[], options: Options, where: string, usage: string): string[] {
  try {
    return prepareArgv(argv, options);
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError(where, `${err.rule}${err.rule.endsWith('?') ? '' : ';'} ${usage}`);
    throw err;
  }
}

/** Where the command's first word is in argv (-1: none). Global flags may come before it; a value flag consumes the next token. */
function commandIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) return i;
    if ((a === '--store' || a === '--author' || a === '--project') && !a.includes('=')) i++;
  }
  return -1;
}

/** The commands a command line may name: the memory commands alone when its first word is one, else all of them (loaded now). */
function registryFor(word: string | undefined): Registry | Promise<Registry> {
  return word !== undefined && MEMORY_REGISTRY.has(word) ? MEMORY_REGISTRY : allCommands();
}

/** Parses argv, whose command starts at `idx` (commandIndex), into the command, its flags and positionals, or throws a ValidationError. */
function parse(argv: string[], idx: number, commands: Registry): Parsed {
  let name = idx >= 0 ? argv[idx]! : undefined;
  if (name === undefined) {
    const tokens = prepare(argv, TOP_LEVEL, '', 'run agent-memory help');
    const { values } = parseArgs({ args: tokens, options: TOP_LEVEL, strict: true });
    if (values.version) return { print: `${cliVersion()}\n`, code: 0 };
    // Only global flags: the whole usage, as a refusal unless it was asked for.
    return { print: fullUsage(commands), code: values.help ? 0 : 2 };
  }
  // Commands of the playbook tiers have two words: `episode record`, `fact query`, `pending approve`.
  const sub = argv[idx + 1];
  let width = 1;
  // First words of two-word commands.
  const groups = new Set([...commands.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]!));
  if (!commands.has(name) && groups.has(name)) {
    if (sub === undefined || !commands.has(`${name} ${sub}`)) {
      const rest = [...argv.slice(0, idx), ...argv.slice(idx + 1)];
      if (rest.includes('--help') || rest.includes('-h')) return { print: groupHelp(name, commands), code: 0 };
      const subs = [...commands.keys()].filter((k) => k.startsWith(`${name} `)).map((k) => k.split(' ')[1]!);
      const close = sub === undefined ? undefined : closest(sub, subs);
      throw new ValidationError(
        name,
        `${sub === undefined ? 'give a subcommand' : `unknown subcommand "${sub}"${close ? ` (did you mean ${close}?)` : ''}`}: ${subs.join(', ')}; run agent-memory --help`,
      );
    }
    name = `${name} ${sub}`;
    width = 2;
  }
  const command = commands.get(name);
  if (!command) {
    const close = closest(name, [...new Set([...commands.keys()].map((k) => k.split(' ')[0]!))]);
    throw new ValidationError('command', `unknown command "${name}"${close ? `; did you mean ${close}?` : ';'} run agent-memory help`);
  }
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  const tokens = prepare([...argv.slice(0, idx), ...argv.slice(idx + width)], options, name, `usage: agent-memory ${command.usage}`);
  if (asksHelp(tokens)) return { print: commandHelp(command), code: 0 };
  let parsed;
  try {
    parsed = parseArgs({ args: tokens, options, allowPositionals: true, strict: true });
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

/**
 * A refusal names the contract's fields (`validUntil: …`, `maxTokens: …`); on the command line
 * the person typed flags, so each field that is one of the command's flags is named as the flag
 * (`--valid-until: …`): a camelCase name wherever it stands, a plain word (`tags`) only at the start
 * of a message part, where a field is named.
 */
export function asFlags(message: string, flags: readonly string[]): string {
  let out = message;
  for (const flag of flags) {
    const field = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    // A camelCase name is a field's wherever it stands; a plain word only where a field is named.
    const where = field === flag ? `(^|; )${field}(?=[:\\[.])` : `(^|[^\\w-])${field}(?![\\w])`;
    out = out.replace(new RegExp(where, 'g'), `$1--${flag}`);
  }
  return out;
}

/**
 * Every service over the store, the playbook's tiers added to `memory`: loaded only by the
 * commands that use them, since their modules (schemas, YAML) would slow every memory command.
 * policy.yaml and ontology.yaml live in the store folder (for a database: the workspace's, found
 * only when first read: finding it may ask git).
 */
async function loadAllServices(
  memory: MemoryServices,
  options: ServicesOptions,
  spec: StoreSpec,
  cwd: string,
): Promise<AllServices.Services> {
  const [services, files]: [typeof AllServices, typeof PlaybookFiles] = await Promise.all([
    import('../core/services'),
    import('../platform/playbookConfig'),
  ]);
  let config: PlaybookFiles.PlaybookConfig | undefined;
  const playbookConfig = () => (config ??= new files.PlaybookConfig(spec.kind === 'dir' ? spec.dir : defaultStoreDir(cwd)));
  return services.withPlaybook(memory, {
    ...options,
    policy: () => playbookConfig().policy(),
    ontology: () => playbookConfig().ontology(),
  });
}

/** Runs the CLI; resolves to the exit code. */
export async function main(
  argv: string[],
  io: CliIo = processIo,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<number> {
  let store: Store | undefined;
  let flagNames: string[] = [];
  try {
    const idx = commandIndex(argv);
    const commands = await registryFor(argv[idx]);
    const parsed = parse(argv, idx, commands);
    if (parsed.print !== undefined) {
      io.stdout(parsed.print);
      return parsed.code;
    }
    const { command, flags, args } = parsed;
    flagNames = Object.keys(command.options);
    const json = bool(flags, 'json');
    if (command.opensStores) {
      // Only a number is an exit code: a run that ends in `io.stdout(…)` resolves to write's boolean.
      const code = await command.run({ flags, args, json, io, env, cwd, commands });
      return typeof code === 'number' ? code : 0;
    }
    const spec = resolveStoreSpec({ store: str(flags, 'store'), project: str(flags, 'project') }, env, cwd);
    store = await openStore(spec, {
      onWarning: (w) => io.stderr(`warning: ${w.message}\n`),
      localIndex: command.longLived ? 'background' : 'off',
    });
    // The author is resolved at the first write only: reading commands need not ask git.
    const options: ServicesOptions = {
      author: () => resolveAuthor(str(flags, 'author') ?? env.AGENT_MEMORY_AUTHOR, cwd),
      channel: command.channel ?? 'cli',
      codebase: new GitCodebase(() => codebaseRoot(spec, cwd)),
    };
    const services = buildMemoryServices(store, options);
    let all: Promise<AllServices.Services> | undefined;
    const allServices = () => (all ??= loadAllServices(services, options, spec, cwd));
    const storeDir = spec.kind === 'dir' ? spec.dir : undefined;
    const code = await command.run({ services, allServices, storeDir, cwd, flags, args, json, io });
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    const refused = err instanceof MemoryError && err.refused;
    const message = (err as Error).message.replace(/\s*\n\s*/g, ' ');
    io.stderr(`agent-memory: ${refused ? asFlags(message, flagNames) : message}\n`);
    return refused ? 2 : 1;
  } finally {
    await store?.close().catch((err: Error) => io.stderr(`agent-memory: closing the store failed: ${err.message}\n`));
  }
}
