import { stringify } from 'yaml';
import { ValidationError } from '../core/errors';
import type { Command, CommandContext } from './commands';
import { pageFlags, readTextFile, splitList, str } from './io';

type Flags = CommandContext['flags'];

/** Only the flags that were given, so the service's defaults and messages apply to the rest. */
function given(f: Flags, map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).filter(([flag]) => f[flag] !== undefined).map(([flag, field]) => [field, f[flag] as string]));
}

/** `--json` prints the service's answer; text prints it as YAML, or `text` when given. */
export function show(ctx: CommandContext, value: unknown, text?: string): void {
  ctx.io.stdout(ctx.json ? `${JSON.stringify(value)}\n` : (text ?? stringify(value, { lineWidth: 0 })));
}

/** A page of items as one line each, and how to get the next page. */
export function showPage<T>(ctx: CommandContext, page: { items: T[]; nextCursor: string | null }, line: (item: T) => string, empty: string): void {
  const more = page.nextCursor ? `… more: --cursor ${page.nextCursor}\n` : '';
  show(ctx, page, page.items.length ? page.items.map((i) => `${line(i)}\n`).join('') + more : `${empty}\n`);
}


/** `TYPE:REF`, e.g. `issue:#42`, `commit:1a2b3c`, `url:https://…`. */
function source(value: string | undefined): { type: string; ref: string } | undefined {
  if (value === undefined) return undefined;
  const i = value.indexOf(':');
  if (i <= 0) throw new ValidationError('source', 'give it as TYPE:REF, e.g. commit:1a2b3c4, issue:#42, pull-request:17, chat:ID, url:https://…, file:path');
  return { type: value.slice(0, i), ref: value.slice(i + 1) };
}

/** `name@version`. */
function skillRef(value: string | undefined): { name: string; version: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(.+)@(\d+)$/.exec(value.trim());
  if (!m) throw new ValidationError('skill', 'give it as NAME@VERSION, e.g. release-hotfix@3');
  return { name: m[1]!, version: Number(m[2]) };
}

const TRIPLE = { subject: { type: 'string' as const }, predicate: { type: 'string' as const }, object: { type: 'string' as const } };

export const LAYER_COMMANDS: Record<string, Command> = {
  'episode record': {
    usage: 'episode record --task T --outcome success|failure|partial --source TYPE:REF [--tools a,b] [--input I]… [--error E]… [--resolution R | --resolution-file F] [--tags a,b] [--skill NAME@V] [--executor X] [--timestamp ISO]',
    summary: 'record what was tried and how it ended (a summary and a pointer, never a transcript); prints its id',
    options: {
      task: { type: 'string' }, outcome: { type: 'string' }, source: { type: 'string' }, tools: { type: 'string' }, input: { type: 'string', multiple: true }, error: { type: 'string', multiple: true },
      resolution: { type: 'string' }, 'resolution-file': { type: 'string' }, tags: { type: 'string' }, skill: { type: 'string' }, executor: { type: 'string' }, timestamp: { type: 'string' },
    },
    positionals: 'none',
    run: async (ctx) => {
      const f = ctx.flags;
      const resolutionFile = str(f, 'resolution-file');
      const out = await ctx.playbook.episodes.record({
        ...given(f, { task: 'task', outcome: 'outcome', executor: 'executor', timestamp: 'timestamp', resolution: 'resolution' }),
        ...(resolutionFile !== undefined ? { resolution: readTextFile('resolution-file', resolutionFile) } : {}),
        ...(f.source !== undefined ? { source: source(str(f, 'source')) } : {}),
        ...(f.tools !== undefined ? { tools: splitList(str(f, 'tools')) } : {}),
        ...(f.input !== undefined ? { inputs: f.input as unknown as string[] } : {}),
        ...(f.error !== undefined ? { errors: f.error as unknown as string[] } : {}),
        ...(f.tags !== undefined ? { tags: splitList(str(f, 'tags')) } : {}),
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
      const out = await ctx.playbook.episodes.list({ ...given(ctx.flags, { outcome: 'outcome', skill: 'skill' }), ...pageFlags(ctx.flags) });
      showPage(ctx, out, (e) => `${e.id}  ${e.timestamp}  ${e.outcome.padEnd(7)}  ${e.task}${e.skill ? `  (skill ${e.skill.name}@${e.skill.version})` : ''}`, 'No episodes.');
    },
  },
  'episode show': {
    usage: 'episode show ID',
    summary: 'one episode in full',
    options: {},
    positionals: 'id',
    run: async (ctx) => show(ctx, await ctx.playbook.episodes.show({ id: ctx.args[0] })),
  },
  'fact assert': {
    usage: 'fact assert --subject S --predicate P --object O [--source SRC] [--confidence 0..1] [--observed-at ISO] [--valid-until ISO]',
    summary: 'record a fact as a person (a model proposes through the tools); says when it disputes another',
    options: { ...TRIPLE, source: { type: 'string' }, confidence: { type: 'string' }, 'observed-at': { type: 'string' }, 'valid-until': { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const f = ctx.flags;
      const confidence = str(f, 'confidence');
      if (confidence !== undefined && !/^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/.test(confidence)) throw new ValidationError('confidence', `must be a number from 0 to 1, got "${confidence}"`);
      const out = await ctx.playbook.facts.assert({
        ...given(f, { subject: 'subject', predicate: 'predicate', object: 'object', source: 'source', 'observed-at': 'observedAt', 'valid-until': 'validUntil' }),
        ...(confidence !== undefined ? { confidence: Number(confidence) } : {}),
      });
      const text =
        out.outcome === 'disputed'
          ? `Recorded ${out.id}, DISPUTED: it contradicts ${out.disputes.length - 1} live fact(s); resolve with agent-memory fact resolve:\n` +
            out.disputes.map((d) => `  ${d.id}  ${d.subject} ${d.predicate} ${d.object}  (source ${d.source ?? '-'}, confidence ${d.confidence ?? '-'}, by ${d.assertedBy})\n`).join('')
          : `${out.outcome === 'created' ? 'Recorded' : 'Refreshed'} ${out.id} (version ${out.version}).\n`;
      show(ctx, out, text);
    },
  },
  'fact query': {
    usage: 'fact query [--subject S] [--predicate P] [--object O] [--all] [--limit N] [--cursor C]',
    summary: 'facts by subject/predicate/object, highest confidence first (--all: retracted and expired too)',
    options: { ...TRIPLE, all: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.playbook.facts.query({ ...given(ctx.flags, { subject: 'subject', predicate: 'predicate', object: 'object' }), ...(ctx.flags.all ? { includeInactive: true } : {}), ...pageFlags(ctx.flags) });
      showPage(ctx, out, (x) => `${x.id}  ${x.subject} ${x.predicate} ${x.object}  [${x.status}${x.verification.state === 'verified' ? ', verified' : ''}] confidence ${x.confidence ?? '-'}, source ${x.source ?? '-'}`, 'No facts match.');
    },
  },
  'fact show': {
    usage: 'fact show ID',
    summary: 'one fact with its evidence and status',
    options: {},
    positionals: 'id',
    run: async (ctx) => show(ctx, await ctx.playbook.facts.show({ id: ctx.args[0] })),
  },
  'fact history': {
    usage: 'fact history ID',
    summary: 'every version of a fact, oldest first',
    options: {},
    positionals: 'id',
    run: async (ctx) => show(ctx, await ctx.playbook.facts.history({ id: ctx.args[0] })),
  },
  'fact retract': {
    usage: 'fact retract ID --reason R',
    summary: 'retract a fact (kept in its history)',
    options: { reason: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.playbook.facts.retract({ id: ctx.args[0], ...given(ctx.flags, { reason: 'reason' }) });
      show(ctx, out, `Retracted ${out.id} (version ${out.version}).\n`);
    },
  },
  'fact verify': {
    usage: 'fact verify ID --evidence LINK [--by NAME]',
    summary: 'mark a fact verified by a person, with the evidence',
    options: { evidence: { type: 'string' }, by: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.playbook.facts.verify({ id: ctx.args[0], by: str(ctx.flags, 'by') ?? ctx.author(), ...given(ctx.flags, { evidence: 'evidence' }) });
      show(ctx, out, `Verified ${out.id} (version ${out.version}).\n`);
    },
  },
  'fact resolve': {
    usage: 'fact resolve ID ID… --decision keep-one|keep-both|retract-all [--keep ID] [--reason R]',
    summary: 'settle a dispute: keep one (the others retracted), keep both, or retract all',
    options: { decision: { type: 'string' }, keep: { type: 'string' }, reason: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const out = await ctx.playbook.facts.resolve({ ids: ctx.args, ...given(ctx.flags, { decision: 'decision', keep: 'keep', reason: 'reason' }) });
      show(ctx, out, out.map((x) => `${x.id}  ${x.subject} ${x.predicate} ${x.object}  [${x.status}]\n`).join(''));
    },
  },
};
