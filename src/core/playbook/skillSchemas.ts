import { z } from 'zod';
import { ValidationError } from '../errors';
import { assertNoSecret } from '../secrets';
import type { SkillData } from './kinds';

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
    expect: text(SKILL_LIMITS.itemMax, 'say what output shows the step worked'),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'must be a mapping with do, tool (optional) and expect') },
);

/** A skill as a person or a model writes it; `version` is accepted and ignored (the store keeps versions). */
export const SkillInputSchema = z.strictObject(
  {
    name: text(SKILL_LIMITS.nameMax, 'give the skill a lower-case name such as fix-flaky-test').regex(SKILL_NAME_PATTERN, {
      error: 'must be lower-case letters and digits joined by single "-" (e.g. fix-flaky-test)',
    }),
    version: z.number({ error: 'must be a number (it is informational: saving makes the next version)' }).int().min(1).optional(),
    description: text(SKILL_LIMITS.descriptionMax, 'say in one or two sentences what the skill does and when to use it'),
    trigger: list(text(SKILL_LIMITS.phraseMax, 'write a phrase of a task this skill is for'), SKILL_LIMITS.triggersMax, 'task phrases', 1),
    preconditions: list(text(SKILL_LIMITS.itemMax, 'say what must hold before starting'), SKILL_LIMITS.itemsMax, 'preconditions').default([]),
    tools: list(text(SKILL_LIMITS.toolMax, 'name a tool'), SKILL_LIMITS.toolsMax, 'tool names').default([]),
    steps: list(SkillStepSchema, SKILL_LIMITS.stepsMax, 'steps', 1),
    success_checks: list(text(SKILL_LIMITS.itemMax, 'say what shows the whole task succeeded'), SKILL_LIMITS.itemsMax, 'success checks', 1),
    failure_handling: list(text(SKILL_LIMITS.itemMax, 'say what to do when something fails'), SKILL_LIMITS.itemsMax, 'failure rules').default([]),
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

/** Key order of a skill everywhere it is shown or stored (YAML, JSON, comparisons). */
export const SKILL_KEYS = ['name', 'description', 'trigger', 'preconditions', 'tools', 'steps', 'success_checks', 'failure_handling', 'evidence'] as const;

/** SkillData with keys in SKILL_KEYS order and steps in do, tool, expect order: equal skills serialise equally. */
export function canonicalSkill(d: SkillData): SkillData {
  return {
    name: d.name,
    description: d.description,
    trigger: [...d.trigger],
    preconditions: [...d.preconditions],
    tools: [...d.tools],
    steps: d.steps.map((s) => (s.tool === undefined ? { do: s.do, expect: s.expect } : { do: s.do, tool: s.tool, expect: s.expect })),
    success_checks: [...d.success_checks],
    failure_handling: [...d.failure_handling],
    evidence: { episodes: [...d.evidence.episodes], executors: [...d.evidence.executors] },
  };
}

/** `steps[2].expect` style path. */
export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
}

/** The rule an issue states, phrased to follow the field's path. */
export function ruleOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const head = issue.path[0];
    const allowed = head === 'steps' ? 'a step has do, tool and expect' : head === 'evidence' ? 'evidence has episodes and executors' : `a skill has ${SKILL_KEYS.join(', ')} (and version)`;
    return `has unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; ${allowed}`;
  }
  return issue.message;
}

/** Refuses a skill holding what looks like a credential, naming the field and the kind only. */
export function assertSkillHasNoSecret(d: SkillData): void {
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') assertNoSecret(path, value);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(d, '');
}

/** Whether the input names its evidence: a save that leaves it out keeps the previous version's. */
export function givesEvidence(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'evidence' in raw;
}

/**
 * Validates a skill given as data (not YAML): the schema, then secrets. Returns the
 * canonical SkillData, the informational version it carried, if any, and whether it gave
 * its evidence (a missing `evidence` reads as empty lists here).
 */
export function parseSkillData(input: unknown): { data: SkillData; version?: number; evidenceGiven: boolean } {
  const result = SkillInputSchema.safeParse(input);
  if (!result.success) {
    const parts = result.error.issues.map((i) => {
      const p = pathOf(i.path);
      return p ? `${p} ${ruleOf(i)}` : ruleOf(i);
    });
    const first = result.error.issues[0]!;
    throw new ValidationError(pathOf(first.path), ruleOf(first), parts.join('; '));
  }
  const { version, ...rest } = result.data;
  const data = canonicalSkill(rest);
  assertSkillHasNoSecret(data);
  const evidenceGiven = givesEvidence(input);
  return version === undefined ? { data, evidenceGiven } : { data, version, evidenceGiven };
}
