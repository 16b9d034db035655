import { terms } from '../wordTerms';
import type { SkillData } from './kinds';

/**
 * How task text meets a skill, on the same analysed terms memory search uses (src/core/text.ts:
 * lower case, compounds and identifiers split, stop words dropped, Porter stems).
 *
 * - trigger: for each trigger phrase, the share of its terms found in the task; the best one
 *   counts when at least TRIGGER_MATCH of it is there (most of "fix a flaky test" must be in
 *   the task, one shared word such as "fix" is not enough for a 2–3 word phrase).
 * - description: the share of the task's terms found in the skill's name and description,
 *   weighted by DESCRIPTION_WEIGHT, so triggers weigh most.
 * - score = trigger (when it counts, else 0) + DESCRIPTION_WEIGHT × description; a skill below
 *   RELEVANCE_FLOOR is not returned, so a task unrelated to every skill gets nothing.
 */
export const TRIGGER_MATCH = 0.6;
export const DESCRIPTION_WEIGHT = 0.5;
export const RELEVANCE_FLOOR = 0.3;

export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

/** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Share of `part`'s terms that `whole` holds; 0 for an empty `part`. */
function share(part: ReadonlySet<string>, whole: ReadonlySet<string>): number {
  if (part.size === 0) return 0;
  let n = 0;
  for (const t of part) if (whole.has(t)) n++;
  return n / part.size;
}

export interface SkillMatch {
  score: number;
  /** The trigger phrase that matched, or null when only the description did. */
  trigger: string | null;
}

export function matchSkill(task: ReadonlySet<string>, skill: Pick<SkillData, 'name' | 'description' | 'trigger'>): SkillMatch {
  if (task.size === 0) return { score: 0, trigger: null };
  let best = 0;
  let trigger: string | null = null;
  for (const phrase of skill.trigger) {
    const s = share(termSet(phrase), task);
    if (s > best) [best, trigger] = [s, phrase];
  }
  if (best < TRIGGER_MATCH) [best, trigger] = [0, null];
  const description = share(task, termSet(`${skill.name.replace(/-/g, ' ')} ${skill.description}`));
  return { score: best + DESCRIPTION_WEIGHT * description, trigger };
}

/** Terms that say what a skill is for: name, description and triggers (near-duplicate checks). */
export function skillTerms(skill: Pick<SkillData, 'name' | 'description' | 'trigger'>): Set<string> {
  return termSet([skill.name.replace(/-/g, ' '), skill.description, ...skill.trigger].join('\n'));
}
