/** Skills: the playbook document a person or a model writes, and the skill tools' inputs and outputs. */
import * as z from 'zod';

/** Limits of a skill, stated in every message that enforces them. */
export const SKILL_LIMITS = {
  nameMax: 64,
  descriptionMax: 500,
  phraseMax: 200,
  triggersMax: 20,
  itemMax: 500,
  itemsMax: 20,
  toolsMax: 30,
  toolMax: 100,
  stepsMax: 40,
  stepTextMax: 1000,
  evidenceMax: 200,
  /** The whole YAML document, in characters. */
  documentMax: 64_000,
} as const;

export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A rule for a text field: missing, not text, empty and too long each get their own message. */
function text(max: number, missing: string) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? `is missing — ${missing}` : 'must be text') })
    .trim()
    .min(1, { error: `is empty — ${missing}` })
    .max(max, { error: (iss) => `is ${String(iss.input ?? '').length} characters; the limit is ${max}` });
}

function list<T extends z.ZodType>(item: T, max: number, what: string, min = 0) {
  return z
    .array(item, { error: (iss) => (iss.input === undefined ? `is missing — give a list of ${what}` : `must be a list of ${what}`) })
    .min(min, { error: `needs at least ${min} ${what}` })
    .max(max, { error: (iss) => `has ${(iss.input as unknown[]).length} items; the limit is ${max}` });
}

export const SkillStepSchema = z.strictObject(
  {
    do: text(SKILL_LIMITS.stepTextMax, 'say what to do in this step'),
    tool: text(SKILL_LIMITS.toolMax, 'name the tool or command, or leave the key out').optional(),
    // Optional here only for the seed's plain-text steps; a step written as a mapping must give it (skillData.ts).
    expect: text(SKILL_LIMITS.itemMax, 'say what output shows the step worked').optional(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be a mapping with do, tool (optional) and expect') },
);

/**
 * A skill as a person or a model writes it; `version` is the version it was read as (the store numbers
 * versions: saving a changed skill is refused unless that is still its newest version).
 */
export const SkillInputSchema = z.strictObject(
  {
    name: text(SKILL_LIMITS.nameMax, 'give the skill a lower-case name such as fix-flaky-test').regex(SKILL_NAME_PATTERN, {
      error: 'must be lower-case letters and digits joined by single "-" (e.g. fix-flaky-test)',
    }),
    version: z
      .number({ error: 'must be a number: the version this document was read as (saving makes the next one)' })
      .int()
      .min(1)
      .optional(),
    description: text(SKILL_LIMITS.descriptionMax, 'say in one or two sentences what the skill does and when to use it'),
    trigger: list(text(SKILL_LIMITS.phraseMax, 'write a phrase of a task this skill is for'), SKILL_LIMITS.triggersMax, 'task phrases', 1),
    preconditions: list(text(SKILL_LIMITS.itemMax, 'say what must hold before starting'), SKILL_LIMITS.itemsMax, 'preconditions').default(
      [],
    ),
    tools: list(text(SKILL_LIMITS.toolMax, 'name a tool'), SKILL_LIMITS.toolsMax, 'tool names').default([]),
    steps: list(SkillStepSchema, SKILL_LIMITS.stepsMax, 'steps', 1),
    success_checks: list(text(SKILL_LIMITS.itemMax, 'say what shows the whole task succeeded'), SKILL_LIMITS.itemsMax, 'success checks', 1),
    failure_handling: list(
      text(SKILL_LIMITS.itemMax, 'say what to do when something fails'),
      SKILL_LIMITS.itemsMax,
      'failure rules',
    ).default([]),
    evidence: z
      .strictObject({
        episodes: list(z.string().trim().min(1).max(100), SKILL_LIMITS.evidenceMax, 'episode ids').default([]),
        executors: list(z.string().trim().min(1).max(200), SKILL_LIMITS.evidenceMax, 'executor names').default([]),
      })
      .default({ episodes: [], executors: [] }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'a skill must be a mapping of name, description, trigger, steps, …') },
);

export type SkillInput = z.output<typeof SkillInputSchema>;

export const SkillName = z
  .string({ error: 'name must be text' })
  .trim()
  .toLowerCase()
  // The playbook seed names skills in snake_case; they are saved with "-" (skillSeedShape.ts).
  .overwrite((s) => (/^[a-z0-9_-]+$/.test(s) ? s.replace(/_/g, '-') : s))
  .regex(SKILL_NAME_PATTERN, { error: 'must be a skill name: lower-case letters and digits joined by "-"' })
  .max(SKILL_LIMITS.nameMax);
export const VersionNo = z.number().int().min(1, { error: 'versions start at 1' });
export const ReadSkillInput = z.strictObject({ name: SkillName, version: VersionNo.optional() });
export const FindSkillsInput = z.strictObject({
  task: z.string().trim().min(1, { error: 'describe the task in a sentence' }).max(4000, { error: 'task is at most 4000 characters' }),
  limit: z.number().int().min(1).max(20, { error: 'limit is at most 20' }).optional(),
});
export const ListSkillsInput = z.strictObject({
  limit: z.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
  deleted: z.boolean().optional(),
});

const SkillSummary = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  description: z.string(),
  changedAt: z.string(),
  author: z.string(),
});
export const FindSkillsOutput = z.array(SkillSummary.extend({ score: z.number(), trigger: z.string().nullable() }));
const Window = z.object({
  successes: z.number(),
  failures: z.number(),
  partials: z.number(),
  total: z.number(),
  rate: z.number().nullable(),
});
export const ReadSkillOutput = SkillSummary.extend({
  deletedAt: z.string().nullable(),
  yaml: z.string(),
  outcomes: z.object({
    name: z.string(),
    version: z.number(),
    last7Days: Window,
    last30Days: Window,
    last90Days: Window,
    allTime: Window,
    truncated: z.boolean(),
  }),
  /** The same by task type: the episodes' tags (null: the untagged ones), most episodes first. */
  outcomesByTag: z.object({
    tags: z.array(z.object({ tag: z.string().nullable(), last30Days: Window, allTime: Window })),
    truncated: z.boolean(),
  }),
});
export const ProposeSkillInput = z
  .object({
    yaml: z
      .string({ error: 'yaml must be the skill as a YAML document (text)' })
      .min(1)
      .max(64_000)
      .describe(
        'The skill as a YAML document with name, description, trigger, preconditions, tools, steps (do, tool, expect), success_checks, failure_handling.',
      ),
  })
  .strict();
