import { EpisodeSource } from '../../core/contract';
import { ValidationError } from '../../core/errors';
import type { CommandGroup } from '../command';
import { given, list, many, pageFlags, str } from '../flags';
import { show, showPage } from '../format';
import { readTextFile } from '../io';

/** The types --source takes, as the contract lists them. */
const SOURCE_TYPES = EpisodeSource.shape.type.options.join(', ');

/** `TYPE:REF`, e.g. `issue:#42`, `commit:1a2b3c`, `url:https://…`. */
function source(value: string | undefined): { type: string; ref: string } | undefined {
  if (value === undefined) return undefined;
  const i = value.indexOf(':');
  if (i <= 0)
    throw new ValidationError(
      'source',
      `give it as TYPE:REF with TYPE one of ${SOURCE_TYPES}, e.g. commit:1a2b3c4, issue:#42, url:https://…`,
    );
  return { type: value.slice(0, i), ref: value.slice(i + 1) };
}

/** `name@version`. */
function skillRef(value: string | undefined): { name: string; version: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(.+)@(\d+)$/.exec(value.trim());
  if (!m) throw new ValidationError('skill', 'give it as NAME@VERSION, e.g. release-hotfix@3');
  return { name: m[1]!, version: Number(m[2]) };
}

/** Episodes: what was tried and how it ended. */
export const EPISODE_COMMANDS: CommandGroup = {
  'episode record': {
    usage:
      'episode record --task T --outcome success|failure|partial --source TYPE:REF [--tools a,b] [--input I]… [--error E]… [--resolution R | --resolution-file F] [--tags a,b] [--skill NAME@V] [--executor X] [--timestamp ISO]',
    summary: 'record what was tried and how it ended (a summary and a pointer, never a transcript); prints its id',
    details:
      `--source TYPE:REF points at where the episode can be looked up; TYPE is one of ${SOURCE_TYPES} ` +
      '(e.g. commit:1a2b3c4, issue:#42, pull-request:17, chat:ID, url:https://…, file:path).\n' +
      '--outcome is success, failure or partial; --timestamp is ISO-8601 (default: now).',
    options: {
      task: { type: 'string' },
      outcome: { type: 'string' },
      source: { type: 'string' },
      tools: { type: 'string' },
      input: { type: 'string', multiple: true },
      error: { type: 'string', multiple: true },
      resolution: { type: 'string' },
      'resolution-file': { type: 'string' },
      tags: { type: 'string' },
      skill: { type: 'string' },
      executor: { type: 'string' },
      timestamp: { type: 'string' },
    },
    positionals: 'none',
    run: async (ctx) => {
      const f = ctx.flags;
      const resolutionFile = str(f, 'resolution-file');
      const out = await ctx.services.playbook.episodes.record({
        ...given(f, { task: 'task', outcome: 'outcome', executor: 'executor', timestamp: 'timestamp', resolution: 'resolution' }),
        ...(resolutionFile !== undefined ? { resolution: readTextFile('resolution-file', resolutionFile) } : {}),
        ...(f.source !== undefined ? { source: source(str(f, 'source')) } : {}),
        ...(f.tools !== undefined ? { tools: list(f, 'tools') } : {}),
        ...(f.input !== undefined ? { inputs: many(f, 'input') } : {}),
        ...(f.error !== undefined ? { errors: many(f, 'error') } : {}),
        ...(f.tags !== undefined ? { tags: list(f, 'tags') } : {}),
        ...(f.skill !== undefined ? { skill: skillRef(str(f, 'skill')) } : {}),
      });
      show(ctx, out, `${out.id}\n`);
    },
  },
  'episode list': {
    usage: 'episode list [--outcome O] [--skill NAME] [--limit N] [--cursor C]',
    summary: 'episodes, newest first, paged',
    options: { outcome: { type: 'string' }, skill: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.services.playbook.episodes.list({
        ...given(ctx.flags, { outcome: 'outcome', skill: 'skill' }),
        ...pageFlags(ctx.flags),
      });
      showPage(
        ctx,
        out,
        (e) => `${e.id}  ${e.timestamp}  ${e.outcome.padEnd(7)}  ${e.task}${e.skill ? `  (skill ${e.skill.name}@${e.skill.version})` : ''}`,
        'No episodes.',
      );
    },
  },
  'episode show': {
    usage: 'episode show ID',
    summary: 'one episode in full',
    options: {},
    positionals: 'id',
    run: async (ctx) => show(ctx, await ctx.services.playbook.episodes.show({ id: ctx.args[0] })),
  },
};
