/**
 * How the episodes that followed a skill version ended, by time window. Counted by the store
 * (episode keys are [skill name, executor, skill version]; dueAt is the episode's timestamp), so
 * no episode is read: "in the last N days" is all time minus the episodes before the window.
 */
import type { RecordStore } from '../ports/records';
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
    records.count({
      kind: 'episode',
      keys: [key, undefined, String(version)],
      status: [outcome],
      ...(dueBefore === undefined ? {} : { dueBefore }),
    });
  // An episode is in the last N days when its timestamp is at or after now - N days, so not before it.
  const starts = WINDOWS.map((days) => new Date(now.getTime() - days * DAY).toISOString());
  const [all, ...before] = await Promise.all([
    Promise.all(OUTCOMES.map((o) => count(o))),
    ...starts.map((start) => Promise.all(OUTCOMES.map((o) => count(o, start)))),
  ]);
  const within = (i: number) => counts(all![0]! - before[i]![0]!, all![1]! - before[i]![1]!, all![2]! - before[i]![2]!);
  return {
    name: key,
    version,
    last7Days: within(0),
    last30Days: within(1),
    last90Days: within(2),
    allTime: counts(all![0]!, all![1]!, all![2]!),
    truncated: false,
  };
}

/** A skill version's outcomes on one kind of task: the episodes carrying one tag. */
export interface TagOutcomes {
  /** The episodes' tag; null for the episodes that have none. */
  tag: string | null;
  last30Days: OutcomeCounts;
  allTime: OutcomeCounts;
}

/** Most episodes of one skill version read to split its outcomes by tag (the newest ones). */
export const TAG_EPISODES_READ = 2000;

/**
 * The outcomes of the live episodes that followed `name` at `version`, by task type (each tag
 * of theirs; an episode with two tags counts in both), most episodes first. Unlike outcomeStats
 * this reads the episodes, the newest `max`: `truncated` says when there were more.
 */
export async function outcomesByTag(
  records: RecordStore,
  name: string,
  version: number,
  now: Date,
  max = TAG_EPISODES_READ,
): Promise<{ tags: TagOutcomes[]; truncated: boolean }> {
  const rows = await readAll(records, { kind: 'episode', keys: [normalizeKey(name), undefined, String(version)] }, max + 1);
  const since = new Date(now.getTime() - 30 * DAY).toISOString();
  const tally = new Map<string | null, { all: number[]; recent: number[] }>();
  for (const r of rows.slice(0, max)) {
    const e = asEpisode(r);
    const i = OUTCOMES.indexOf(e.outcome);
    for (const tag of e.tags.length ? new Set(e.tags) : [null]) {
      const t = tally.get(tag) ?? { all: [0, 0, 0], recent: [0, 0, 0] };
      t.all[i]!++;
      if (e.timestamp >= since) t.recent[i]!++;
      tally.set(tag, t);
    }
  }
  const tags = [...tally.entries()].map(([tag, t]) => ({
    tag,
    last30Days: counts(t.recent[0]!, t.recent[1]!, t.recent[2]!),
    allTime: counts(t.all[0]!, t.all[1]!, t.all[2]!),
  }));
  tags.sort((a, b) => b.allTime.total - a.allTime.total || (a.tag ?? '\uffff').localeCompare(b.tag ?? '\uffff'));
  return { tags, truncated: rows.length > max };
}
