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
  /** True when more episodes followed the skill than were read (MAX_OUTCOME_EPISODES). */
  truncated: boolean;
}

const DAY = 86_400_000;
const PAGE = 1000;
/** Most episodes read for one skill's stats: a view's figure, not an audit. */
export const MAX_OUTCOME_EPISODES = 50_000;

export interface OutcomeSample {
  version: number;
  outcome: Outcome;
  timestamp: string;
}

function counts(samples: OutcomeSample[]): OutcomeCounts {
  const c = { successes: 0, failures: 0, partials: 0 };
  for (const s of samples) {
    if (s.outcome === 'success') c.successes++;
    else if (s.outcome === 'failure') c.failures++;
    else c.partials++;
  }
  const total = c.successes + c.failures + c.partials;
  return { ...c, total, rate: total ? c.successes / total : null };
}

/** Pure: the windows of one version from the episodes' samples. */
export function outcomeWindows(name: string, version: number, samples: OutcomeSample[], now: Date, truncated = false): OutcomeStats {
  const mine = samples.filter((s) => s.version === version);
  const within = (days: number) => mine.filter((s) => now.getTime() - Date.parse(s.timestamp) <= days * DAY);
  return { name, version, last7Days: counts(within(7)), last30Days: counts(within(30)), last90Days: counts(within(90)), allTime: counts(mine), truncated };
}

/** Reads, page by page, the episodes whose skill is `name` (any version). */
export async function skillEpisodeSamples(records: RecordStore, name: string): Promise<{ samples: OutcomeSample[]; truncated: boolean }> {
  const key = normalizeKey(name);
  const rows = await readAll(records, { kind: 'episode', keys: [key] }, MAX_OUTCOME_EPISODES + 1, PAGE);
  const samples: OutcomeSample[] = [];
  for (const r of rows.slice(0, MAX_OUTCOME_EPISODES)) {
    const e = asEpisode(r);
    if (e.skill && normalizeKey(e.skill.name) === key) samples.push({ version: e.skill.version, outcome: e.outcome, timestamp: e.timestamp });
  }
  return { samples, truncated: rows.length > MAX_OUTCOME_EPISODES };
}
