import * as fs from 'node:fs';
import { ValidationError } from '../../core/errors';
import type { TagOutcomes } from '../../core/playbook/skillOutcomes';
import type * as Skills from '../../core/playbook/skillService';
import type { CommandContext, CommandGroup } from '../command';
import { bool, int, pageFlags, str } from '../flags';
import { show, showPage } from '../format';
import { readTextFile } from '../io';

const rate = (r: number | null) => (r === null ? 'no episodes' : `${Math.round(r * 100)}%`);

/** The "by task type" comment line of `skill read` (nothing when no episode followed the version). */
function byTask(b: { tags: TagOutcomes[]; truncated: boolean }): string {
  if (b.tags.length === 0) return '';
  const each = b.tags.map((t) => `${t.tag ?? '(no tag)'} ${rate(t.allTime.rate)} of ${t.allTime.total}`);
  return `# by task type (episode tags), all time: ${each.join(', ')}${b.truncated ? ' (the newest episodes only)' : ''}\n`;
}

/** A skill document from a file argument, or stdin when the argument is `-`. */
async function skillText(ctx: CommandContext): Promise<string> {
  const file = ctx.args[0]!;
  if (file !== '-') return readTextFile('file', file);
  const piped = await ctx.io.readStdin();
  if (piped === undefined) throw new ValidationError('file', 'give a YAML file, or - and pipe the YAML on stdin');
  return piped;
}

/** Skills: versioned procedures as YAML documents, found by task, and drafted from repeated episodes. */
export const SKILL_COMMANDS: CommandGroup = {
  'skill find': {
    usage: 'skill find TASK… [--limit N]',
    summary: 'skills whose triggers and description match a task, best first',
    options: { limit: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const limit = int(ctx.flags, 'limit');
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.find({ task: ctx.args.join(' '), ...(limit !== undefined ? { limit } : {}) });
      const text = out.map((s) => `${s.name}@${s.version}  ${s.description}${s.trigger ? `  (trigger: ${s.trigger})` : ''}\n`).join('');
      show(ctx, out, text || 'No skill matches.\n');
    },
  },
  'skill read': {
    usage: 'skill read NAME [--version V]',
    summary: 'a skill as YAML (the current or a given version), then its success rates',
    options: { version: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = int(ctx.flags, 'version');
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.read({ name: ctx.args[0], ...(version !== undefined ? { version } : {}) });
      // Loaded with the services above, not by every command (the skills' schemas).
      const { skillDocument }: typeof Skills = await import('../../core/playbook/skillService');
      const o = out.outcomes;
      show(
        ctx,
        out,
        `${skillDocument(out)}# success rate of version ${out.version}: 7 days ${rate(o.last7Days.rate)}, 30 days ${rate(o.last30Days.rate)}, ` +
          `90 days ${rate(o.last90Days.rate)}, all time ${rate(o.allTime.rate)} (${o.allTime.total} episodes)\n` +
          byTask(out.outcomesByTag),
      );
    },
  },
  'skill list': {
    usage: 'skill list [--deleted] [--limit N] [--cursor C]',
    summary: 'skills, paged',
    options: { deleted: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.list({
        ...(bool(ctx.flags, 'deleted') ? { deleted: true } : {}),
        ...pageFlags(ctx.flags),
      });
      showPage(ctx, out, (s) => `${s.name}@${s.version}  ${s.description}`, 'No skills.');
    },
  },
  'skill save': {
    usage: 'skill save FILE|- [--expect-version V]',
    summary: 'create a skill from a YAML document, or save the next version of the skill it names (import)',
    details:
      'The playbook seed\'s shape is read as well: success and failure as success_checks and failure_handling, a step written as plain text as a step without expect, a snake_case name with "-"; the output says each mapping.',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = int(ctx.flags, 'expect-version');
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.importYaml(await skillText(ctx), expected !== undefined ? { expectedVersion: expected } : {});
      const read = out.notes?.length ? `Read in the playbook seed's shape: ${out.notes.join('; ')}.\n` : '';
      show(
        ctx,
        out,
        (out.changed
          ? `Saved ${out.name} version ${out.version}.\n`
          : `Nothing changed: ${out.name} is still at version ${out.version}; nothing was written.\n`) + read,
      );
    },
  },
  'skill export': {
    usage: 'skill export NAME [--version V] [--out FILE]',
    summary: 'a skill as a YAML document (to stdout or a file)',
    options: { version: { type: 'string' }, out: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const yaml = await playbook.skills.exportYaml(ctx.args[0]!, int(ctx.flags, 'version'));
      const out = str(ctx.flags, 'out');
      if (out === undefined) return show(ctx, { yaml }, yaml);
      fs.writeFileSync(out, yaml);
      show(ctx, { file: out }, `Wrote ${out}.\n`);
    },
  },
  'skill history': {
    usage: 'skill history NAME',
    summary: 'every version of a skill, oldest first',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.history(ctx.args[0]!);
      show(
        ctx,
        out,
        out.map((v) => `${v.version}  ${v.op.padEnd(7)} ${v.changedAt}  ${v.author}${v.deletedAt ? '  (deleted)' : ''}\n`).join(''),
      );
    },
  },
  'skill delete': {
    usage: 'skill delete NAME [--expect-version V]',
    summary: 'soft-delete a skill (saving it again brings it back)',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = int(ctx.flags, 'expect-version');
      const { playbook } = await ctx.allServices();
      const out = await playbook.skills.delete(ctx.args[0]!, expected !== undefined ? { expectedVersion: expected } : {});
      show(ctx, out, `Deleted ${out.name} (version ${out.version}).\n`);
    },
  },
  'skill promote': {
    usage: 'skill promote',
    summary: 'propose a skill draft for each group of repeated successful episodes no skill covers (to the pending queue)',
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.promoteExplained();
      const ids = out.proposals;
      const why = [
        ...out.covered.map((c) => `  ${c.episodes.length} episodes: covered by ${c.skill}\n`),
        ...out.notReady.map((g) => `  ${g.reason}\n`),
        ...(out.untagged
          ? [
              `  ${out.untagged} successful episode(s) without tags: episodes without a shared tag are not grouped; record them with --tags\n`,
            ]
          : []),
      ].join('');
      show(
        ctx,
        out,
        (ids.length
          ? `Proposed ${ids.length} skill draft(s) for review:\n${ids.map((i) => `  ${i}\n`).join('')}`
          : out.scanned === 0
            ? 'No group of episodes is ready for a skill: no successful episodes were recorded.\n'
            : 'No group of episodes is ready for a skill. A group is successful episodes with a shared tag and similar tasks, recorded by at least 2 authors:\n') +
          (ids.length && why ? `Not proposed:\n${why}` : why),
      );
    },
  },
};
