import { isStopWord, stem, tokens } from '../text';
import { SKILL_LIMITS } from '../contract/skills';
import { normalizeKey, type EpisodeData, type SkillData } from './kinds';
import { parseSkillData } from './skillData';

// A skill drafted from a group of successful episodes of the same kind of task (promotion.ts
// finds the groups): its name from the words most tasks share, its steps from their resolutions,
// its failure handling from their errors. A draft goes to the proposal queue for a person.

const MAX_TRIGGERS = 5;
const MAX_STEPS = 8;
const MAX_FAILURES = 10;
const NAME_WORDS = 4;

export interface PromotionEpisode {
  id: string;
  /** Who recorded it (the record's author): what reproducibility counts. */
  author: string;
  data: EpisodeData;
}

export interface SkillDraft {
  /** A valid skill (it passes the skill schema), ready to be proposed. */
  data: SkillData;
  /** Every tool the episodes used and in how many of them, most used first. */
  toolCounts: Array<{ tool: string; episodes: number }>;
  /** The tags the group shares. */
  tags: string[];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`);

/** The words most of the tasks share, in the order the earliest task says them. */
function commonWords(tasks: string[]): string[] {
  const perTask = tasks.map((t) => {
    const m = new Map<string, string>();
    for (const tok of tokens(t)) {
      for (const w of tok.parts) if (w.length >= 2 && !isStopWord(w) && /^[a-z0-9]+$/.test(w) && !m.has(stem(w))) m.set(stem(w), w);
    }
    return m;
  });
  const count = new Map<string, number>();
  for (const m of perTask) for (const s of m.keys()) count.set(s, (count.get(s) ?? 0) + 1);
  const need = Math.max(2, Math.ceil(tasks.length / 2));
  return [...perTask[0]!.entries()].filter(([s]) => (count.get(s) ?? 0) >= need).map(([, w]) => w);
}

/** Each value with how many times it occurs, most frequent first (ties in value order). */
export function counted(values: string[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Pure: a skill draft from a group of episodes (oldest first); `taken` names are avoided. */
export function draftSkill(group: readonly PromotionEpisode[], taken: ReadonlySet<string> = new Set()): SkillDraft {
  const eps = [...group].sort((a, b) => (a.data.timestamp < b.data.timestamp ? -1 : 1));
  const tasks = eps.map((e) => e.data.task);
  const words = commonWords(tasks).slice(0, NAME_WORDS);
  const base = (words.join('-') || 'skill-from-episodes').slice(0, SKILL_LIMITS.nameMax - 4).replace(/-+$/, '');
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  const executors = [...new Set(eps.map((e) => e.data.executor))];
  const authors = new Set(eps.map((e) => normalizeKey(e.author))).size;
  const tags = [...eps[0]!.data.tags].filter((t) => eps.every((e) => e.data.tags.includes(t)));
  const triggers = [
    ...new Map([words.join(' '), ...tasks].filter(Boolean).map((t) => [normalizeKey(t), clip(t.trim(), SKILL_LIMITS.phraseMax)])).values(),
  ];
  const toolCounts = counted(eps.flatMap((e) => [...new Set(e.data.tools)])).map(([tool, episodes]) => ({ tool, episodes }));
  // The inputs the successful runs gave their tools, most shared first: what a person repeating it needs at hand.
  const inputs = counted(eps.flatMap((e) => [...new Set(e.data.inputs ?? [])]))
    .slice(0, SKILL_LIMITS.itemsMax)
    .map(([input, n]) => clip(`input used in ${n} of ${eps.length} successful runs: ${input}`, SKILL_LIMITS.itemMax));
  const resolutions = counted(eps.map((e) => e.data.resolution.trim()).filter(Boolean));
  const steps = resolutions.slice(0, MAX_STEPS).map(([resolution]) => {
    const from = eps.filter((e) => e.data.resolution.trim() === resolution);
    const tools = [...new Set(from.flatMap((e) => e.data.tools))];
    return {
      do: clip(resolution, SKILL_LIMITS.stepTextMax),
      ...(tools.length === 1 ? { tool: clip(tools[0]!, SKILL_LIMITS.toolMax) } : {}),
      expect: `the result episode ${from[0]!.id} reached (success); state the output that shows it`,
    };
  });
  if (steps.length === 0)
    steps.push({
      do: clip(`Do the task as episode ${eps[0]!.id} did: ${tasks[0]}`, SKILL_LIMITS.stepTextMax),
      expect: 'state the output that shows the task is done',
    });
  const failures = new Map<string, string>();
  for (const e of eps) {
    for (const err of e.data.errors) {
      const key = normalizeKey(err);
      if (!failures.has(key) && failures.size < MAX_FAILURES)
        failures.set(
          key,
          clip(`when "${clip(err, 200)}" appears: ${e.data.resolution.trim() || 'see the steps'} (episode ${e.id})`, SKILL_LIMITS.itemMax),
        );
    }
  }
  const draft: SkillData = {
    name,
    description: clip(
      `${words.length ? `${capitalise(words.join(' '))}: d` : 'D'}rafted from ${eps.length} successful episodes recorded by ${authors} authors${tags.length ? ` (${tags.join(', ')})` : ''}; review the steps and checks before approving.`,
      SKILL_LIMITS.descriptionMax,
    ),
    trigger: triggers.slice(0, MAX_TRIGGERS),
    preconditions: inputs,
    tools: toolCounts.slice(0, SKILL_LIMITS.toolsMax).map((t) => clip(t.tool, SKILL_LIMITS.toolMax)),
    steps,
    success_checks: [`the task ends in success as in the ${eps.length} source episodes; confirm it the way they did`],
    failure_handling: [...failures.values()],
    evidence: {
      episodes: eps.map((e) => e.id).slice(0, SKILL_LIMITS.evidenceMax),
      executors: executors.slice(0, SKILL_LIMITS.evidenceMax),
    },
  };
  return { data: parseSkillData(draft).data, toolCounts, tags };
}
