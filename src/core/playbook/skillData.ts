import type { z } from 'zod';
import { SkillInputSchema } from '../contract/skills';
import { ValidationError } from '../errors';
import { assertNoSecret } from '../secrets';
import type { SkillData } from './kinds';
import { fromSeedShape } from './skillSeedShape';

/** Key order of a skill everywhere it is shown or stored (YAML, JSON, comparisons). */
export const SKILL_KEYS = [
  'name',
  'description',
  'trigger',
  'preconditions',
  'tools',
  'steps',
  'success_checks',
  'failure_handling',
  'evidence',
] as const;

/**
 * SkillData with keys in SKILL_KEYS order and steps in do, tool, expect order: equal skills serialise equally.
 * A proposal's payload leaves `evidence` out when the proposer gave none (agent-memory_proposeSkill
 * never does), so a missing `evidence` reads as empty lists, as parseSkillData reads it.
 */
export function canonicalSkill(d: SkillData): SkillData {
  return {
    name: d.name,
    description: d.description,
    trigger: [...d.trigger],
    preconditions: [...d.preconditions],
    tools: [...d.tools],
    steps: d.steps.map((s) => ({
      do: s.do,
      ...(s.tool === undefined ? {} : { tool: s.tool }),
      ...(s.expect === undefined ? {} : { expect: s.expect }),
    })),
    success_checks: [...d.success_checks],
    failure_handling: [...d.failure_handling],
    evidence: { episodes: [...(d.evidence?.episodes ?? [])], executors: [...(d.evidence?.executors ?? [])] },
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
    const allowed =
      head === 'steps'
        ? 'a step has do, tool and expect'
        : head === 'evidence'
          ? 'evidence has episodes and executors'
          : `a skill has ${SKILL_KEYS.join(', ')} (and version)`;
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
 * The steps written as mappings without `expect`: only the seed's plain-text steps may leave it
 * out (a mapping is the product's shape, and a model's proposal must say what each step shows).
 */
export function stepsMissingExpect(raw: unknown, plainSteps: ReadonlySet<number>): number[] {
  const steps = raw !== null && typeof raw === 'object' && 'steps' in raw ? (raw as { steps: unknown }).steps : undefined;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((s: unknown, i) =>
    !plainSteps.has(i) && s !== null && typeof s === 'object' && (s as { expect?: unknown }).expect === undefined ? [i] : [],
  );
}

/** The refusal of a mapping step without `expect`, worded as the schema words a missing field. */
export const MISSING_EXPECT = 'is missing — say what output shows the step worked';

/** What parsing a skill gives: the canonical data, its stated version, and how the seed's shape was read. */
export interface ParsedSkillData {
  data: SkillData;
  version?: number;
  evidenceGiven: boolean;
  /** The seed's spellings that were mapped (skillSeedShape.ts), one sentence each; empty for the product's shape. */
  notes: string[];
}

/**
 * Validates a skill given as data (not YAML): the seed's shape mapped, the schema, then secrets.
 * Returns the canonical SkillData, the version it says it was read as, if any, and whether it
 * gave its evidence (a missing `evidence` reads as empty lists here).
 */
export function parseSkillData(input: unknown): ParsedSkillData {
  const seed = fromSeedShape(input);
  input = seed.value;
  const result = SkillInputSchema.safeParse(input);
  if (!result.success) {
    const parts = result.error.issues.map((i) => {
      const p = pathOf(i.path);
      return p ? `${p} ${ruleOf(i)}` : ruleOf(i);
    });
    const first = result.error.issues[0]!;
    throw new ValidationError(pathOf(first.path), ruleOf(first), parts.join('; '));
  }
  const missing = stepsMissingExpect(input, seed.plainSteps);
  if (missing.length) {
    const parts = missing.map((i) => `steps[${i}].expect ${MISSING_EXPECT}`);
    throw new ValidationError(`steps[${missing[0]}].expect`, MISSING_EXPECT, parts.join('; '));
  }
  const { version, ...rest } = result.data;
  const data = canonicalSkill(rest);
  assertSkillHasNoSecret(data);
  const evidenceGiven = givesEvidence(input);
  const notes = seed.notes;
  return version === undefined ? { data, evidenceGiven, notes } : { data, version, evidenceGiven, notes };
}
