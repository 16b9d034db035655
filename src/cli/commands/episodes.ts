import { SOURCE_TYPES as TYPES } from '../../core/contract/sourceTypes';
import { ValidationError } from '../../core/errors';
import type { FoundEpisodeView } from '../../core/playbook/episodeService';
import { escapeInvisible } from '../../core/invisibleText';
import type { CommandGroup } from '../command';
import { given, list, many, pageFlags, str } from '../flags';
import { show, showPage } from '../format';
import { readTextFile } from '../io';

/** The types --source takes, as the contract lists them. */
const SOURCE_TYPES = TYPES.join(', ');

/** `TYPE:REF`, e.g. `issue:#42`, `commit:1a2b3c`, `conversation:abc`: read by the contract (aliases such as conversation → chat). */
function source(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.indexOf(':') <= 0)
    throw new ValidationError(
      'source',
      `give it as TYPE:REF with TYPE one of ${SOURCE_TYPES}, e.g. commit:1a2b3c4, issue:#42, url:https://…`,
    );
  return value;
}

/** `name@version`. */
function skillRef(value: string | undefined): { name: string; version: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(.+)@(\d+)$/.exec(value.trim());
  if (!m) throw new ValidationError('skill', 'give it as NAME@VERSION, e.g. release-hotfix@3');
  return { name: m[1]!, version: Number(m[2]) };
}

/** Stored text on one terminal line: control and invisible characters escaped, newlines as \n. */
const line = (text: string) => escapeInvisible(text, false);

/** A found episode: its line, then for one that met errors or was resolved, those indented. */
function foundText(e: FoundEpisodeView): string {
  const head =
    `${e.id}  ${e.timestamp}  ${e.outcome.padEnd(7)}  ${line(e.task)}` +
    (e.skill ? `  (skill ${line(e.skill.name)}@${e.skill.version})` : '') +
    (e.tags.length ? `  [${e.tags.join(', ')}]` : '') +
    (e.score !== undefined ? `  score ${e.score}` : '');
  const detail = [...e.errors.map((x) => `    error: ${line(x)}`), ...(e.resolution ? [`    resolution: ${line(e.resolution)}`] : [])];
  return [head, ...detail].join('\n');
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
      const { playbook } = await ctx.allServices();
      const out = await playbook.episodes.record({
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
      const { playbook } = await ctx.allServices();
      const out = await playbook.episodes.list({
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
  'episode find': {
    usage:
      'episode find [WORDS…] [--tags a,b] [--outcome success|failure|partial] [--skill NAME] [--since ISO] [--until ISO] [--limit N] [--cursor C]',
    summary: 'episodes matching task or error words, best first (newest first without words), with their errors and resolution',
    details:
      "WORDS are matched (stemmed) against each episode's task and tags, and more weakly its errors and resolution; " +
      'with words, only the newest 5000 episodes of the window are searched (the output says when older ones were not).\n' +
      '--tags keeps episodes carrying every tag; --since is inclusive and --until exclusive (ISO-8601, e.g. 2026-01-01T00:00:00Z); ' +
      '--limit is 1–50 (default 10).',
    options: {
      tags: { type: 'string' },
      outcome: { type: 'string' },
      skill: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    positionals: 'many',
    run: async (ctx) => {
      const query = ctx.args.join(' ');
      const { playbook } = await ctx.allServices();
      const out = await playbook.episodes.find({
        ...(ctx.args.length ? { query } : {}),
        ...given(ctx.flags, { outcome: 'outcome', skill: 'skill', since: 'since', until: 'until' }),
        ...(ctx.flags.tags !== undefined ? { tags: list(ctx.flags, 'tags') } : {}),
        ...pageFlags(ctx.flags),
      });
      const more = out.nextCursor ? `… more: --cursor ${out.nextCursor}\n` : '';
      const note = out.note ? `(${out.note})\n` : '';
      const text = out.items.length ? `${out.items.map(foundText).join('\n')}\n${more}${note}` : `No episodes match.\n${note}`;
      show(ctx, out, text);
    },
  },
  'episode show': {
    usage: 'episode show ID',
    summary: 'one episode in full',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.episodes.show({ id: ctx.args[0] }));
    },
  },
};
