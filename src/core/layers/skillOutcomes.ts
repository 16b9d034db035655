/**
 * How the episodes that followed a skill version ended, by time window. Counted by the store
 * (episode keys are [skill name, executor, skill version]; dueAt is the episode's timestamp), so
 * no episode is read: "in the last N days" is all time minus the episodes before the window.
 */
import type { RecordStore } from '../../store/records';
import { asEpisode, normalizeKey, type Outcome } from './kinds';
import { readAll } from './recordRows';

/** Outcomes of the episodes that followed one skill version, within one time window. */
export interface OutcomeCounts {
  successes: number;
  failures: number;
  partials: number;
  total: number;
  /** successes / total (a partial is not a success), or null when no episode followed it. */
  rate: number | null;
}

/** A skill version's record by time window (by the episodes' timestamps, relative to now). */
export interface OutcomeStats {
  name: string;
  version: number;
  last7Days: OutcomeCounts;
  last30Days: OutcomeCounts;
  last90Days: OutcomeCounts;
  allTime: OutcomeCounts;
  /** Always false since the store counts every episode (kept so the shape readers know stays the same). */
  truncated: boolean;
}

const DAY = 86_400_000;
const OUTCOMES: readonly Outcome[] = ['success', 'failure', 'partial'];
const WINDOWS = [7, 30, 90] as const;

function counts(successes: number, failures: number, partials: number): OutcomeCounts {
  const total = successes + failures + partials;
  return { successes, failures, partials, total, rate: total ? successes / total : null };
}

/** The outcomes of the live episodes that followed `name` at `version`: 12 counts, no episode read. */
export async function outcomeStats(records: RecordStore, name: string, version: number, now: Date): Promise<OutcomeStats> {
  const key = normalizeKey(name);
  const count = (outcome: Outcome, dueBefore?: string) =>
    records.count({ kind: 'episode', keys: [key, undefined, String(version)], status: [outcome], ...(dueBefore === undefined ? {} : { dueBefore }) });
  // An episode is in the last N days when its timestamp is at or after now - N days, so not before it.
  const starts = WINDOWS.map((days) => new Date(now.getTime() - days * DAY).toISOString());
  const [all, ...before] = await Promise.all([
    Promise.all(OUTCOMES.map((o) => count(o))),
    ...starts.map((start) => Promise.all(OUTCOMES.map((o) => count(o, start)))),
  ]);
  const within = (i: number) => counts(all![0]! - before[i]![0]!, all![1]! - before[i]![1]!, all![2]! - before[i]![2]!);
  return { name: key, version, last7Days: within(0), last30Days: within(1), last90Days: within(2), allTime: counts(all![0]!, all![1]!, all![2]!), truncated: false };
}

// ---- Superseded by outcomeStats; skillService.ts still calls these until it switches (it is
// being changed on another branch). They read every episode of the skill, up to 50,000.

/** @deprecated use outcomeStats */
export const MAX_OUTCOME_EPISODES = 50_000;

/** @deprecated use outcomeStats */
export interface OutcomeSample {
  version: number;
  outcome: Outcome;
  timestamp: string;
}

/** @deprecated use outcomeStats. Pure: the windows of one version from the episodes' samples. */
export function outcomeWindows(name: string, version: number, samples: OutcomeSample[], now: Date, truncated = false): OutcomeStats {
  const mine = samples.filter((s) => s.version === version);
  const tally = (list: OutcomeSample[]) => counts(...(OUTCOMES.map((o) => list.filter((s) => s.outcome === o).length) as [number, number, number]));
  const within = (days: number) => tally(mine.filter((s) => now.getTime() - Date.parse(s.timestamp) <= days * DAY));
  return { name, version, last7Days: within(7), last30Days: within(30), last90Days: within(90), allTime: tally(mine), truncated };
}

/** @deprecated use outcomeStats. Reads, page by page, the episodes whose skill is `name` (any version). */
export async function skillEpisodeSamples(records: RecordStore, name: string): Promise<{ samples: OutcomeSample[]; truncated: boolean }> {
  const key = normalizeKey(name);
  const rows = await readAll(records, { kind: 'episode', keys: [key] }, MAX_OUTCOME_EPISODES + 1, 1000);
  const samples: OutcomeSample[] = [];
  for (const r of rows.slice(0, MAX_OUTCOME_EPISODES)) {
    const e = asEpisode(r);
    if (e.skill && normalizeKey(e.skill.name) === key) samples.push({ version: e.skill.version, outcome: e.outcome, timestamp: e.timestamp });
  }
  return { samples, truncated: rows.length > MAX_OUTCOME_EPISODES };
}
