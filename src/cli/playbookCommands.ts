import * as fs from 'node:fs';
import { ValidationError } from '../core/errors';
import { skillDocument } from '../core/playbook/skillService';
import type { Command, CommandContext } from './commands';
import { intFlag, pageFlags, readTextFile, str } from './io';
import { show, showPage } from './layerCommands';

const rate = (r: number | null) => (r === null ? 'no episodes' : `${Math.round(r * 100)}%`);

/** A skill document from a file argument, or stdin when the argument is `-`. */
async function skillText(ctx: CommandContext): Promise<string> {
  const file = ctx.args[0]!;
  if (file !== '-') return readTextFile('file', file);
  const piped = await ctx.io.readStdin();
  if (piped === undefined) throw new ValidationError('file', 'give a YAML file, or - and pipe the YAML on stdin');
  return piped;
}

export const PLAYBOOK_COMMANDS: Record<string, Command> = {
  'skill find': {
    usage: 'skill find TASK… [--limit N]',
    summary: 'skills whose triggers and description match a task, best first',
    options: { limit: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const out = await ctx.playbook.skills.find({ task: ctx.args.join(' '), ...(ctx.flags.limit !== undefined ? { limit: intFlag('limit', str(ctx.flags, 'limit')) } : {}) });
      show(ctx, out, out.length ? out.map((s) => `${s.name}@${s.version}  ${s.description}${s.trigger ? `  (trigger: ${s.trigger})` : ''}\n`).join('') : 'No skill matches.\n');
    },
  },
  'skill read': {
    usage: 'skill read NAME [--version V]',
    summary: 'a skill as YAML (the current or a given version), then its success rates',
    options: { version: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const version = intFlag('version', str(ctx.flags, 'version'));
      const out = await ctx.playbook.skills.read({ name: ctx.args[0], ...(version !== undefined ? { version } : {}) });
      const yaml = skillDocument(out);
      const o = out.outcomes;
      show(ctx, out, `${yaml}# success rate of version ${out.version}: 7 days ${rate(o.last7Days.rate)}, 30 days ${rate(o.last30Days.rate)}, 90 days ${rate(o.last90Days.rate)}, all time ${rate(o.allTime.rate)} (${o.allTime.total} episodes)\n`);
    },
  },
  'skill list': {
    usage: 'skill list [--deleted] [--limit N] [--cursor C]',
    summary: 'skills, paged',
    options: { deleted: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.playbook.skills.list({ ...(ctx.flags.deleted ? { deleted: true } : {}), ...pageFlags(ctx.flags) });
      showPage(ctx, out, (s) => `${s.name}@${s.version}  ${s.description}`, 'No skills.');
    },
  },
  'skill save': {
    usage: 'skill save FILE|- [--expect-version V]',
    summary: 'create a skill from a YAML document, or save the next version of the skill it names (import)',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = intFlag('expect-version', str(ctx.flags, 'expect-version'));
      const out = await ctx.playbook.skills.importYaml(await skillText(ctx), expected !== undefined ? { expectedVersion: expected } : {});
      show(ctx, out, out.changed ? `Saved ${out.name} version ${out.version}.\n` : `Nothing changed: ${out.name} is still at version ${out.version}; nothing was written.\n`);
    },
  },
  'skill export': {
    usage: 'skill export NAME [--version V] [--out FILE]',
    summary: 'a skill as a YAML document (to stdout or a file)',
    options: { version: { type: 'string' }, out: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const yaml = await ctx.playbook.skills.exportYaml(ctx.args[0]!, intFlag('version', str(ctx.flags, 'version')));
      const out = str(ctx.flags, 'out');
      if (out === undefined) return void ctx.io.stdout(ctx.json ? `${JSON.stringify({ yaml })}\n` : yaml);
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
      const out = await ctx.playbook.skills.history(ctx.args[0]!);
      show(ctx, out, out.map((v) => `${v.version}  ${v.op.padEnd(7)} ${v.changedAt}  ${v.author}${v.deletedAt ? '  (deleted)' : ''}\n`).join(''));
    },
  },
  'skill delete': {
    usage: 'skill delete NAME [--expect-version V]',
    summary: 'soft-delete a skill (saving it again brings it back)',
    options: { 'expect-version': { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const expected = intFlag('expect-version', str(ctx.flags, 'expect-version'));
      const out = await ctx.playbook.skills.delete(ctx.args[0]!, expected !== undefined ? { expectedVersion: expected } : {});
      show(ctx, out, `Deleted ${out.name} (version ${out.version}).\n`);
    },
  },
  'skill promote': {
    usage: 'skill promote',
    summary: 'propose a skill draft for each group of repeated successful episodes no skill covers (to the pending queue)',
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const ids = await ctx.playbook.promote();
      show(ctx, { proposals: ids }, ids.length ? `Proposed ${ids.length} skill draft(s) for review:\n${ids.map((i) => `  ${i}\n`).join('')}` : 'No group of episodes is ready for a skill.\n');
    },
  },
  'pending list': {
    usage: 'pending list [--state pending|approved|rejected] [--limit N] [--cursor C]',
    summary: 'proposals of models and of the promotion run (default: pending)',
    options: { state: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const out = await ctx.playbook.proposals.list({ state: str(ctx.flags, 'state') ?? 'pending', ...pageFlags(ctx.flags) });
      showPage(ctx, out, (p) => `${p.id}  ${p.state.padEnd(8)}  ${p.summary}  (by ${p.proposedBy})`, 'No proposals.');
    },
  },
  'pending show': {
    usage: 'pending show ID',
    summary: 'one proposal: what approving writes, duplicates, warnings, the decision',
    options: {},
    positionals: 'id',
    run: async (ctx) => show(ctx, await ctx.playbook.proposals.get(ctx.args[0]!)),
  },
  'pending approve': {
    usage: 'pending approve ID',
    summary: 'approve a proposal: the item is written as you, the decision recorded',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.playbook.proposals.approve({ id: ctx.args[0], by: ctx.author() });
      show(ctx, out, `Approved ${out.proposalId}${out.resultId ? `: wrote ${out.resultId}` : ''}.\n${out.note ? `${out.note}.\n` : ''}`);
    },
  },
  'pending reject': {
    usage: 'pending reject ID --reason R',
    summary: 'reject a proposal, saying why (recorded)',
    options: { reason: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const out = await ctx.playbook.proposals.reject({ id: ctx.args[0], by: ctx.author(), reason: str(ctx.flags, 'reason') ?? '' });
      show(ctx, out, `Rejected ${out.proposalId}.\n`);
    },
  },
  'lifecycle run': {
    usage: 'lifecycle run',
    summary: 'run the forgetting rules now (expire facts, forget or archive old episodes, propose skills) and print the report',
    options: {},
    positionals: 'none',
    run: async (ctx) => show(ctx, await ctx.playbook.runForgetting('cli')),
  },
  'lifecycle report': {
    usage: 'lifecycle report [--limit N]',
    summary: 'recent forgetting runs: what expired, was forgotten or archived, what was promoted, how often search results were read',
    options: { limit: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => show(ctx, await ctx.playbook.lifecycle.reports(ctx.flags.limit !== undefined ? { limit: intFlag('limit', str(ctx.flags, 'limit')) } : {})),
  },
  'policy show': {
    usage: 'policy show',
    summary: 'the lifecycle policy in force (defaults, then the store folder\'s policy.yaml)',
    options: {},
    positionals: 'none',
    run: async (ctx) => show(ctx, ctx.playbook.policy()),
  },
  'ontology check': {
    usage: 'ontology check',
    summary: 'check the store folder\'s ontology.yaml (line and reason when broken) and list its relations',
    options: {},
    positionals: 'none',
    run: async (ctx) => {
      const o = ctx.playbook.ontology();
      if (!o) return show(ctx, { ontology: null }, 'No ontology.yaml in the store folder: facts are not checked against types and relations.\n');
      const relations = o.relations.map((r) => ({ name: r.name, from: r.from, to: r.to, cardinality: r.cardinality }));
      show(ctx, { relations }, `ontology.yaml is valid; relations:\n${relations.map((r) => `  ${r.name}: ${r.from} → ${r.to} (${r.cardinality})\n`).join('')}`);
    },
  },
  context: {
    usage: 'context TASK… [--max-tokens N]',
    summary: 'what the team memory knows about a task (memories, facts, skills), packed within a token budget',
    options: { 'max-tokens': { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const max = intFlag('max-tokens', str(ctx.flags, 'max-tokens'));
      show(ctx, await ctx.playbook.context.context({ task: ctx.args.join(' '), ...(max !== undefined ? { maxTokens: max } : {}) }));
    },
  },
};
