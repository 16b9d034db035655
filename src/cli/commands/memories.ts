import { ValidationError } from '../../core/errors';
import type { CommandContext, CommandGroup } from '../command';
import { parseCitation } from '../../core/citations';
import { bool, int, list, many, passOn, str } from '../flags';
import {
  commandLine,
  formatCheck,
  formatCreateNotes,
  formatEdit,
  formatHistory,
  formatList,
  formatRecord,
  formatSearch,
  formatTags,
  show,
} from '../format';
import { readTextFile } from '../io';

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

/** --cite PATH[:START[-END]] (repeatable) as the contract's citations; --no-cite (edit) drops them all. */
function citations(ctx: CommandContext): { citations?: Array<{ path: string; startLine?: number; endLine?: number }> } {
  const given = many(ctx.flags, 'cite');
  if (bool(ctx.flags, 'no-cite')) {
    if (given) throw new ValidationError('citations', 'give --cite or --no-cite, not both');
    return { citations: [] };
  }
  return given ? { citations: given.map(parseCitation) } : {};
}

/** Memories: write, find and read them, their versions, and all of them as JSON Lines. */
export const MEMORY_COMMANDS: CommandGroup = {
  create: {
    usage: 'create --description D --tags a,b (--content C | --content-file F | < file) [--cite PATH[:START-END]]...',
    summary: 'save a new memory; prints its id',
    details:
      '--cite names code the memory is about, relative to the workspace root (the folder holding .agent-memory, else the git root): a file, or lines of it (src/http/client.ts:40-58). Repeat it, up to 10. Each citation is fingerprinted now and checked whenever the memory is read (agent-memory check lists the stale ones).',
    options: {
      description: { type: 'string' },
      tags: { type: 'string' },
      content: { type: 'string' },
      'content-file': { type: 'string' },
      cite: { type: 'string', multiple: true },
    },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.services.memories.create({
        description: str(ctx.flags, 'description') ?? '',
        tags: list(ctx.flags, 'tags') ?? [],
        content: await content(ctx, true),
        ...citations(ctx),
      });
      show(ctx, out, `${out.id}\n`);
      // On stderr: scripts read the id from stdout.
      if (!ctx.json) ctx.io.stderr(formatCreateNotes(out));
    },
  },
  search: {
    usage: 'search KEYWORD... [--tags a,b] [--limit N] | search --tags a,b [--limit N]',
    summary:
      'ranked search over tags, descriptions and the distinctive words of content; with --tags alone, the memories that carry every one of those tags',
    options: { tags: { type: 'string' }, limit: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const tags = list(ctx.flags, 'tags');
      const limit = int(ctx.flags, 'limit');
      // The contract's search needs keywords (an empty search is not "everything"). Searched for
      // as keywords too, the tags match every memory the filter keeps (an exact tag match), so
      // `search --tags jest` lists the memories tagged jest, ranked, without changing the tool.
      const keywords = ctx.args.length === 0 && tags?.length ? tags : ctx.args;
      const out = await ctx.services.memories.search({
        keywords,
        ...(tags !== undefined ? { tags } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      show(ctx, out, formatSearch(out));
    },
  },
  read: {
    usage: 'read ID [--version V]',
    summary: 'print one memory in full',
    options: { version: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = int(ctx.flags, 'version');
      const out = await ctx.services.memories.read({ id: ctx.args[0], ...(version !== undefined ? { version } : {}) });
      show(ctx, out, formatRecord(out));
    },
  },
  edit: {
    usage:
      'edit ID [--description D] [--tags a,b] [--content C | --content-file F] [--cite PATH[:START-END]]... [--no-cite] [--expect-version V]',
    summary: 'append a new version with the given fields changed',
    details:
      '--cite replaces the citations (repeat it for several); --no-cite drops them. Without either, the memory keeps its citations, anchored again to the code as it is now (a passage that moved is followed): editing a stale memory after checking it makes it fresh.',
    options: {
      description: { type: 'string' },
      tags: { type: 'string' },
      content: { type: 'string' },
      'content-file': { type: 'string' },
      cite: { type: 'string', multiple: true },
      'no-cite': { type: 'boolean' },
      'expect-version': { type: 'string' },
    },
    positionals: 'id',
    run: async (ctx) => {
      const c = await content(ctx, false);
      const expected = int(ctx.flags, 'expect-version');
      const description = str(ctx.flags, 'description');
      const tags = list(ctx.flags, 'tags');
      const out = await ctx.services.memories.edit({
        id: ctx.args[0],
        ...(description !== undefined ? { description } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(c !== undefined ? { content: c } : {}),
        ...citations(ctx),
        ...(expected !== undefined ? { expectedVersion: expected } : {}),
      });
      show(ctx, out, formatEdit(out));
    },
  },
  delete: {
    usage: 'delete ID [--expect-version V]',
    summary: 'soft-delete a memory (a new version; restore brings it back)',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = int(ctx.flags, 'expect-version');
      const out = await ctx.services.memories.delete({ id: ctx.args[0], ...(expected !== undefined ? { expectedVersion: expected } : {}) });
      show(ctx, out, `Deleted ${out.id} (version ${out.version}).\n`);
    },
  },
  restore: {
    usage: 'restore ID [--version V] [--expect-version V]',
    summary: 'undo a delete, or bring back an older version, as a new version',
    options: { version: { type: 'string' }, 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = int(ctx.flags, 'version');
      const expectedVersion = int(ctx.flags, 'expect-version');
      const out = await ctx.services.memories.restore({
        id: ctx.args[0],
        ...(version !== undefined ? { version } : {}),
        ...(expectedVersion !== undefined ? { expectedVersion } : {}),
      });
      show(ctx, out, `Restored ${out.id} from version ${out.restoredFrom} as version ${out.version}.\n`);
    },
  },
  check: {
    usage: 'check [--fail-on-stale]',
    summary: 'check the citations of every memory against the code; lists the stale ones',
    details:
      'A memory is stale when code it cites has changed, moved to another file or gone since it was written (a passage that only moved within its file, or was re-indented, is still fresh). With --fail-on-stale the exit code is 3 when any memory is stale, for CI.',
    options: { 'fail-on-stale': { type: 'boolean' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.services.upkeep.check({});
      show(ctx, out, formatCheck(out));
      return bool(ctx.flags, 'fail-on-stale') && out.stale.length > 0 ? 3 : undefined;
    },
  },
  history: {
    usage: 'history ID',
    summary: 'every version of a memory, oldest first',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.services.memories.history({ id: ctx.args[0] });
      show(ctx, out, formatHistory(out));
    },
  },
  list: {
    usage: 'list [--deleted] [--limit N] [--cursor C]',
    summary: 'current memories, newest first, a page at a time',
    options: { deleted: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const limit = int(ctx.flags, 'limit');
      const cursor = str(ctx.flags, 'cursor');
      const deleted = bool(ctx.flags, 'deleted');
      const out = await ctx.services.memories.list({
        ...(deleted ? { deleted: true } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      // The next page's command line keeps the store, the project and this listing's flags.
      const next = (c: string) =>
        commandLine([
          ...passOn(ctx.flags, ['store', 'project']),
          'list',
          ...(deleted ? ['--deleted'] : []),
          ...(limit !== undefined ? ['--limit', String(limit)] : []),
          '--cursor',
          c,
        ]);
      show(ctx, out, formatList(out, next));
    },
  },
  tags: {
    usage: 'tags [PROPOSED...]',
    summary: 'the tag vocabulary; with proposed tags, the existing tags close to each',
    options: {},
    positionals: 'many',
    run: async (ctx) => {
      const out = await ctx.services.memories.tags(ctx.args.length ? { proposed: ctx.args } : {});
      show(ctx, out, formatTags(out));
    },
  },
  purge: {
    usage: 'purge ID --yes',
    summary: 'erase every version of a memory for good (for a leaked secret)',
    options: { yes: { type: 'boolean' } },
    positionals: 'id',
    run: async (ctx) => {
      if (!bool(ctx.flags, 'yes'))
        throw new ValidationError('yes', 'purge erases every version for good and cannot be undone; add --yes to confirm');
      const out = await ctx.services.upkeep.purge({ id: ctx.args[0] });
      show(ctx, out, `Purged ${out.id}: ${out.versionsRemoved} version(s) erased.\n`);
    },
  },
};
