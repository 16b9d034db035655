/**
 * Inputs of the fact operations. Whether source and confidence are required is the policy's
 * call (semantic.require_source / require_confidence), checked by the service, so the schemas
 * accept them as optional and the service's message names the policy key.
 */
import * as z from 'zod';
import { Author, Timestamp } from './fields';
import { Cursor, PageLimit, RecordId } from './pages';

export const FACT_LIMITS = {
  subjectMax: 200,
  predicateMax: 100,
  objectMax: 500,
  sourceMax: 500,
  reasonMax: 500,
  evidenceMax: 500,
  /** Facts one resolution may settle at once. */
  resolveMax: 20,
  queryDefault: 20,
  queryMax: 100,
} as const;

/** A one-line text of at most `max` characters. */
const Line = (what: string, max: number) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, { error: `${what} is empty` })
    .max(max, { error: (iss) => `${what} is ${String(iss.input ?? '').length} characters; the limit is ${max}` })
    .refine((s) => !s.includes('\n'), { error: `${what} must be one line` });

export const FactId = RecordId('a fact');

export const AssertFactInput = z
  .object({
    subject: Line('subject', FACT_LIMITS.subjectMax).describe(
      'The entity the fact is about (with an ontology: type:name, e.g. service:billing).',
    ),
    predicate: Line('predicate', FACT_LIMITS.predicateMax).describe('The relation, e.g. depends_on or owned_by.'),
    object: Line('object', FACT_LIMITS.objectMax).describe('The value or the other entity.'),
    source: Line('source', FACT_LIMITS.sourceMax)
      .nullable()
      .optional()
      .describe('Where it comes from: a URL, a file path, a commit, a memory id.'),
    confidence: z
      .number({ error: 'confidence must be a number from 0 to 1' })
      .min(0, { error: 'confidence is at least 0' })
      .max(1, { error: 'confidence is at most 1 (1 = certain)' })
      .nullable()
      .optional()
      .describe('How sure the source is, 0–1.'),
    observedAt: z.optional(Timestamp).describe('When it was observed (ISO-8601 UTC with milliseconds); defaults to now.'),
    validUntil: z.nullable(Timestamp).optional().describe('When it stops being true, if known; it is hidden afterwards.'),
  })
  .strict();
export type AssertFactInput = z.output<typeof AssertFactInput>;

export const QueryFactsInput = z
  .object({
    subject: Line('subject', FACT_LIMITS.subjectMax).optional(),
    predicate: Line('predicate', FACT_LIMITS.predicateMax).optional(),
    object: Line('object', FACT_LIMITS.objectMax).optional(),
    includeInactive: z.boolean().optional().describe('Also return retracted and expired facts (default false).'),
    limit: PageLimit(FACT_LIMITS.queryMax, FACT_LIMITS.queryDefault),
    cursor: Cursor,
  })
  .strict()
  .refine((q) => q.subject !== undefined || q.predicate !== undefined || q.object !== undefined, {
    error: 'give at least one of subject, predicate or object',
  });

export const RetractFactInput = z
  .object({ id: FactId, reason: Line('reason', FACT_LIMITS.reasonMax).describe('Why it is no longer believed.') })
  .strict();

export const RESOLUTIONS = ['keep-one', 'keep-both', 'retract-all'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const ResolveFactsInput = z
  .object({
    ids: z
      .array(FactId)
      .min(2, { error: 'give the ids of at least two disputed facts' })
      .max(FACT_LIMITS.resolveMax, { error: `at most ${FACT_LIMITS.resolveMax} facts at once` })
      .transform((ids) => [...new Set(ids)]),
    decision: z.enum(RESOLUTIONS, { error: `decision is one of ${RESOLUTIONS.join(', ')}` }),
    keep: FactId.optional().describe('For keep-one: the fact that stays.'),
    reason: Line('reason', FACT_LIMITS.reasonMax).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.ids.length < 2) ctx.addIssue({ code: 'custom', path: ['ids'], message: 'name at least two different facts' });
    if (r.decision === 'keep-one' && (r.keep === undefined || !r.ids.includes(r.keep))) {
      ctx.addIssue({ code: 'custom', path: ['keep'], message: 'keep-one needs keep: the id (one of ids) of the fact that stays' });
    }
    if (r.decision !== 'keep-one' && r.keep !== undefined)
      ctx.addIssue({ code: 'custom', path: ['keep'], message: `keep is only for keep-one, not ${r.decision}` });
  });

export const VerifyFactInput = z
  .object({
    id: FactId,
    by: z.optional(Author).describe('Who verified it; defaults to the author.'),
    evidence: Line('evidence', FACT_LIMITS.evidenceMax).describe('A link or reference that shows it is true.'),
  })
  .strict();

export const FactIdInput = z.object({ id: FactId }).strict();

const Verification = z.union([
  z.object({ state: z.literal('unverified') }),
  z.object({ state: z.literal('verified'), by: z.string(), at: z.string(), evidence: z.string() }),
]);
export const FactView = z.object({
  id: z.string(),
  version: z.number().int(),
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  source: z.string().nullable(),
  observedAt: z.string(),
  confidence: z.number().nullable(),
  validUntil: z.string().nullable(),
  status: z.enum(['active', 'disputed', 'retracted', 'expired']),
  verification: Verification,
  disputedWith: z.array(z.string()),
  retraction: z.object({ by: z.string(), at: z.string(), reason: z.string() }).nullable(),
  assertedBy: z.string(),
  changedAt: z.string(),
  channel: z.string().optional().describe('the client this version came through (vscode, mcp, cli, import)'),
  proposedBy: z.string().optional().describe('when a person approved it from a proposal: who proposed it'),
  dbRole: z.string().optional().describe('team database: the database role that wrote it'),
});
export const QueryFactsOutput = z.object({ items: z.array(FactView), nextCursor: z.string().nullable() });
