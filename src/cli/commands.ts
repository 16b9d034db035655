import * as fs from 'node:fs';
import type { Playbook } from '../core/playbook/playbook';
import type { MemoryService } from '../core/memoryService';
import type { Services } from '../core/services';
import { ValidationError } from '../core/errors';
import * as F from './format';
import { initCommand } from './init';
import { LAYER_COMMANDS } from './layerCommands';
import { PLAYBOOK_COMMANDS } from './playbookCommands';
import { serveMcp } from './mcp/server';
import { type CliIo, intFlag, readTextFile, splitList, str } from './io';

type Flags = Record<string, string | boolean | undefined>;

export interface CommandContext {
  /** The services over the store the global flags name (src/core/services.ts). */
  services: Services;
  service: MemoryService;
  /** The other tiers (episodes, facts, skills, proposals, lifecycle, context) over the same store. */
  playbook: Playbook;
  /** Who writes (resolved at the first call). */
  author: () => string;
  /** The store folder (absolute), or undefined when the store is a database. */
  storeDir: string | undefined;
  flags: Flags;
  args: string[];
  json: boolean;
  io: CliIo;
}

export interface Command {
  usage: string;
  summary: string;
  /** Flags of this command, as util.parseArgs takes them. */
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** How many positional arguments: exactly one id, any number, at most one. */
  positionals: 'none' | 'id' | 'many' | 'optional';
  /**
   * Serves many calls on one store (mcp): a PostgreSQL store then ranks searches in a local
   * index. Other commands search at most once and close, and would only pay for its load.
   */
  longLived?: boolean;
  run: (ctx: CommandContext) => Promise<void>;
}


/** Content from --content, --content-file or stdin; `required` for create. */
async function content(ctx: CommandContext, required: boolean): Promise<string | undefined> {
  const inline = str(ctx.flags, 'content');
  const file = str(ctx.flags, 'content-file');
  if (inline !== undefined && file !== undefined) throw new ValidationError('content', 'give --content or --content-file, not both');
  if (inline !== undefined) return inline;
  if (file !== undefined) return readTextFile('content-file', file);
  if (!required) return undefined;
  const piped = await ctx.io.readStdin();
  if (piped === undefined) throw new ValidationError('content', 'give --content, --content-file, or pipe the content on stdin');
  return piped;
}

function print(ctx: CommandContext, value: unknown, text: string): void {
  ctx.io.stdout(ctx.json ? `${JSON.stringify(value)}\n` : text);
}

export const COMMANDS: Record<string, Command> = {
  create: {
    usage: 'create --description D --tags a,b (--content C | --content-file F | < file)',
    summary: 'save a new memory; prints its id',
    options: { description: { type: 'string' }, tags: { type: 'string' }, content: { type: 'string' }, 'content-file': { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.service.create({
        description: str(ctx.flags, 'description') ?? '',
        tags: splitList(str(ctx.flags, 'tags')) ?? [],
        content: await content(ctx, true),
      });
      print(ctx, out, `${out.id}\n`);
    },
  },
  search: {
    usage: 'search KEYWORD... [--tags a,b] [--limit N]',
    summary: 'ranked search over tags and descriptions',
    options: { tags: { type: 'string' }, limit: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const out = await ctx.service.search({
        keywords: ctx.args,
        ...(ctx.flags.tags !== undefined ? { tags: splitList(str(ctx.flags, 'tags')) } : {}),
        ...(ctx.flags.limit !== undefined ? { limit: intFlag('limit', str(ctx.flags, 'limit')) } : {}),
      });
      print(ctx, out, F.formatSearch(out));
    },
  },
  read: {
    usage: 'read ID [--version V]',
    summary: 'print one memory in full',
    options: { version: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = intFlag('version', str(ctx.flags, 'version'));
      const out = await ctx.service.read({ id: ctx.args[0], ...(version !== undefined ? { version } : {}) });
      print(ctx, out, F.formatRecord(out));
    },
  },
  edit: {
    usage: 'edit ID [--description D] [--tags a,b] [--content C | --content-file F] [--expect-version V]',
    summary: 'append a new version with the given fields changed',
    options: {
      description: { type: 'string' }, tags: { type: 'string' }, content: { type: 'string' },
      'content-file': { type: 'string' }, 'expect-version': { type: 'string' },
    },
    positionals: 'id',
    run: async (ctx) => {
      const c = await content(ctx, false);
      const expected = intFlag('expect-version', str(ctx.flags, 'expect-version'));
      const out = await ctx.service.edit({
        id: ctx.args[0],
        ...(ctx.flags.description !== undefined ? { description: str(ctx.flags, 'description') } : {}),
        ...(ctx.flags.tags !== undefined ? { tags: splitList(str(ctx.flags, 'tags')) } : {}),
        ...(c !== undefined ? { content: c } : {}),
        ...(expected !== undefined ? { expectedVersion: expected } : {}),
      });
      print(ctx, out, F.formatEdit(out));
    },
  },
  delete: {
    usage: 'delete ID [--expect-version V]',
    summary: 'soft-delete a memory (a new version; restore brings it back)',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = intFlag('expect-version', str(ctx.flags, 'expect-version'));
      const out = await ctx.service.delete({ id: ctx.args[0], ...(expected !== undefined ? { expectedVersion: expected } : {}) });
      print(ctx, out, `Deleted ${out.id} (version ${out.version}).\n`);
    },
  },
  restore: {
    usage: 'restore ID [--version V] [--expect-version V]',
    summary: 'undo a delete, or bring back an older version, as a new version',
    options: { version: { type: 'string' }, 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = intFlag('version', str(ctx.flags, 'version'));
      const expectedVersion = intFlag('expect-version', str(ctx.flags, 'expect-version'));
      const out = await ctx.service.restore({
        id: ctx.args[0],
        ...(version !== undefined ? { version } : {}),
        ...(expectedVersion !== undefined ? { expectedVersion } : {}),
      });
      print(ctx, out, `Restored ${out.id} from version ${out.restoredFrom} as version ${out.version}.\n`);
    },
  },
  history: {
    usage: 'history ID',
    summary: 'every version of a memory, oldest first',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.service.history({ id: ctx.args[0] });
      print(ctx, out, F.formatHistory(out));
    },
  },
  list: {
    usage: 'list [--deleted] [--limit N] [--cursor C]',
    summary: 'current memories, newest first, a page at a time',
    options: { deleted: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const limit = intFlag('limit', str(ctx.flags, 'limit'));
      const out = await ctx.service.list({
        ...(ctx.flags.deleted ? { deleted: true } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(ctx.flags.cursor !== undefined ? { cursor: str(ctx.flags, 'cursor') } : {}),
      });
      print(ctx, out, F.formatList(out));
    },
  },
  tags: {
    usage: 'tags [PROPOSED...]',
    summary: 'the tag vocabulary; with proposed tags, the existing tags close to each',
    options: {},
    positionals: 'many',
    run: async (ctx) => {
      const out = await ctx.service.tags(ctx.args.length ? { proposed: ctx.args } : {});
      print(ctx, out, F.formatTags(out));
    },
  },
  purge: {
    usage: 'purge ID --yes',
    summary: 'erase every version of a memory for good (for a leaked secret)',
    options: { yes: { type: 'boolean' } },
    positionals: 'id',
    run: async (ctx) => {
      if (!ctx.flags.yes) throw new ValidationError('yes', 'purge erases every version for good and cannot be undone; add --yes to confirm');
      const out = await ctx.service.purge({ id: ctx.args[0] });
      print(ctx, out, `Purged ${out.id}: ${out.versionsRemoved} version(s) erased.\n`);
    },
  },
  export: {
    usage: 'export [FILE]',
    summary: 'every version row as JSON Lines, to FILE or stdout',
    options: {},
    positionals: 'optional',
    run: async (ctx) => {
      const file = ctx.args[0];
      const fd = file ? fs.openSync(`${file}.partial`, 'w') : undefined;
      let n = 0;
      try {
        for await (const row of ctx.service.exportVersions()) {
          const line = `${JSON.stringify(row)}\n`;
          if (fd !== undefined) fs.writeSync(fd, line);
          else ctx.io.stdout(line);
          n++;
        }
        if (fd !== undefined) fs.fsyncSync(fd);
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
      if (file) {
        fs.renameSync(`${file}.partial`, file);
        ctx.io.stderr(`Exported ${n} version(s) to ${file}.\n`);
      }
    },
  },
  import: {
    usage: 'import FILE',
    summary: 'add the version rows of an export that are not stored yet (idempotent)',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const text = readTextFile('FILE', ctx.args[0]!);
      const rows: unknown[] = [];
      const lineOf: number[] = [];
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return;
        try {
          rows.push(JSON.parse(line));
          lineOf.push(i + 1);
        } catch {
          throw new ValidationError(`line ${i + 1}`, 'is not valid JSON; nothing was imported');
        }
      });
      const out = await ctx.service.importVersions(rows, (i) => `line ${lineOf[i]}`);
      print(ctx, out, `Imported ${out.added} version(s); ${out.skipped} already present.\n`);
    },
  },
  mcp: {
    usage: 'mcp',
    summary: 'serve the agent tools (memories, episodes, facts, skills, context) to an MCP client on stdin/stdout, until stdin ends or SIGINT/SIGTERM',
    options: {},
    positionals: 'none',
    longLived: true,
    // Resolves when the client is gone; main then closes the store, after the last call finished.
    run: (ctx) => serveMcp(ctx.services, { log: (line) => ctx.io.stderr(`${line}\n`) }),
  },
  init: initCommand,
  ...LAYER_COMMANDS,
  ...PLAYBOOK_COMMANDS,
};
