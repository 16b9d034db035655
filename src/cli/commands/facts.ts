import { ValidationError } from '../../core/errors';
import type { CommandGroup } from '../command';
import { bool, given, pageFlags, str } from '../flags';
import { show, showPage } from '../format';

const TRIPLE = { subject: { type: 'string' as const }, predicate: { type: 'string' as const }, object: { type: 'string' as const } };

/** Facts: subject–predicate–object statements with their evidence, disputes and verification. */
export const FACT_COMMANDS: CommandGroup = {
  'fact assert': {
    usage: 'fact assert --subject S --predicate P --object O [--source SRC] [--confidence 0..1] [--observed-at ISO] [--valid-until ISO]',
    summary: 'record a fact as a person (a model proposes through the tools); says when it disputes another',
    options: {
      ...TRIPLE,
      source: { type: 'string' },
      confidence: { type: 'string' },
      'observed-at': { type: 'string' },
      'valid-until': { type: 'string' },
    },
    positionals: 'none',
    run: async (ctx) => {
      const f = ctx.flags;
      const confidence = str(f, 'confidence');
      if (confidence !== undefined && !/^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/.test(confidence)) {
        throw new ValidationError('confidence', `must be a number from 0 to 1, got "${confidence}"`);
      }
      const { playbook } = await ctx.allServices();
      const out = await playbook.facts.assert({
        ...given(f, {
          subject: 'subject',
          predicate: 'predicate',
          object: 'object',
          source: 'source',
          'observed-at': 'observedAt',
          'valid-until': 'validUntil',
        }),
        ...(confidence !== undefined ? { confidence: Number(confidence) } : {}),
      });
      const text =
        out.outcome === 'disputed'
          ? `Recorded ${out.id}, DISPUTED: it contradicts ${out.disputes.length - 1} live fact(s); resolve with agent-memory fact resolve:\n` +
            out.disputes
              .map(
                (d) =>
                  `  ${d.id}  ${d.subject} ${d.predicate} ${d.object}  (source ${d.source ?? '-'}, confidence ${d.confidence ?? '-'}, by ${d.assertedBy})\n`,
              )
              .join('')
          : `${out.outcome === 'created' ? 'Recorded' : 'Refreshed'} ${out.id} (version ${out.version}).\n` +
            (out.verificationCleared
              ? `It was verified by ${out.verificationCleared.by} (evidence: ${out.verificationCleared.evidence}); from another source it needs verifying again: agent-memory fact verify ${out.id} --evidence …\n`
              : '');
      show(ctx, out, text);
    },
  },
  'fact query': {
    usage: 'fact query [--subject S] [--predicate P] [--object O] [--all] [--limit N] [--cursor C]',
    summary: 'facts by subject/predicate/object, highest confidence first (--all: retracted and expired too)',
    options: { ...TRIPLE, all: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    positionals: 'none',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.facts.query({
        ...given(ctx.flags, { subject: 'subject', predicate: 'predicate', object: 'object' }),
        ...(bool(ctx.flags, 'all') ? { includeInactive: true } : {}),
        ...pageFlags(ctx.flags),
      });
      showPage(
        ctx,
        out,
        (x) =>
          `${x.id}  ${x.subject} ${x.predicate} ${x.object}  [${x.status}${x.verification.state === 'verified' ? ', verified' : ''}] confidence ${x.confidence ?? '-'}, source ${x.source ?? '-'}`,
        'No facts match.',
      );
    },
  },
  'fact show': {
    usage: 'fact show ID',
    summary: 'one fact with its evidence and status',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.facts.show({ id: ctx.args[0] }));
    },
  },
  'fact history': {
    usage: 'fact history ID',
    summary: 'every version of a fact, oldest first',
    options: {},
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      show(ctx, await playbook.facts.history({ id: ctx.args[0] }));
    },
  },
  'fact retract': {
    usage: 'fact retract ID --reason R',
    summary: 'retract a fact (kept in its history)',
    options: { reason: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.facts.retract({ id: ctx.args[0], ...given(ctx.flags, { reason: 'reason' }) });
      show(ctx, out, `Retracted ${out.id} (version ${out.version}).\n`);
    },
  },
  'fact verify': {
    usage: 'fact verify ID --evidence LINK [--by NAME]',
    summary: 'mark a fact verified by a person, with the evidence',
    options: { evidence: { type: 'string' }, by: { type: 'string' } },
    positionals: 'id',
    run: async (ctx) => {
      const by = str(ctx.flags, 'by') ?? ctx.services.author();
      const { playbook } = await ctx.allServices();
      const out = await playbook.facts.verify({ id: ctx.args[0], by, ...given(ctx.flags, { evidence: 'evidence' }) });
      show(ctx, out, `Verified ${out.id} (version ${out.version}).\n`);
    },
  },
  'fact resolve': {
    usage: 'fact resolve ID ID… --decision keep-one|keep-both|retract-all [--keep ID] [--reason R]',
    summary: 'settle a dispute: keep one (the others retracted), keep both, or retract all',
    options: { decision: { type: 'string' }, keep: { type: 'string' }, reason: { type: 'string' } },
    positionals: 'many',
    run: async (ctx) => {
      const { playbook } = await ctx.allServices();
      const out = await playbook.facts.resolve({
        ids: ctx.args,
        ...given(ctx.flags, { decision: 'decision', keep: 'keep', reason: 'reason' }),
      });
      show(ctx, out, out.map((x) => `${x.id}  ${x.subject} ${x.predicate} ${x.object}  [${x.status}]\n`).join(''));
    },
  },
};
