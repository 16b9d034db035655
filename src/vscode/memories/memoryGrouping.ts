/** A memory as the Memories view shows it. */
export interface ViewMemory {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
  /** Only for a memory that cites code: stale when the code changed since it was written. */
  freshness?: 'fresh' | 'stale' | 'unchecked';
}

export type GroupBy = 'recency' | 'tag';

/** A group of the view: a time range or a tag, with its memories in view order. */
export interface Group {
  /** Stable across refreshes, so VS Code keeps a group's expanded state. */
  key: string;
  label: string;
  memories: ViewMemory[];
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Time ranges, newest first, relative to local midnight of `now`: Today, Yesterday, Past 7
 * days, Past 30 days, Older. Memories keep the order they came in (newest change first).
 * Only ranges that hold a memory are returned.
 */
export function groupByRecency(
  memories: ViewMemory[],
  now: Date,
  labels: Record<'today' | 'yesterday' | 'week' | 'month' | 'older', string>,
): Group[] {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const ranges = [
    { key: 'today', since: midnight },
    { key: 'yesterday', since: midnight - DAY },
    { key: 'week', since: midnight - 6 * DAY },
    { key: 'month', since: midnight - 29 * DAY },
    { key: 'older', since: -Infinity },
  ] as const;
  const groups = ranges.map((r) => ({ key: `recency:${r.key}`, label: labels[r.key], since: r.since, memories: [] as ViewMemory[] }));
  for (const m of memories) {
    const t = Date.parse(m.changedAt);
    groups.find((g) => t >= g.since)!.memories.push(m);
  }
  return groups.filter((g) => g.memories.length > 0).map(({ key, label, memories: ms }) => ({ key, label, memories: ms }));
}

/** The key of the group that gathers the memories whose tags are all too rarely used to have a group of their own. */
export const OTHER_TAGS_KEY = 'other-tags';
/** At most this many tag groups: a list a person scans in the side bar without scrolling for long. */
export const MAX_TAG_GROUPS = 30;

/**
 * One group per tag, the most used tag first (ties by name); a memory appears under each of
 * its tags. When there are more tags than MAX_TAG_GROUPS, only tags used by at least k
 * memories get a group, k the smallest (2 or more) that leaves at most MAX_TAG_GROUPS (or, if
 * none does, the highest count any tag has): a
 * group of one memory is no grouping (the eval set's 120 memories carry 244 tags, 153 of them
 * once), and cutting at a count rather than a position never splits equally used tags by
 * their names. The memories under none of the shown tags come last, in `otherLabel`'s group,
 * so every memory stays reachable.
 */
export function groupByTag(memories: ViewMemory[], otherLabel: string, maxGroups: number = MAX_TAG_GROUPS): Group[] {
  const byTag = new Map<string, ViewMemory[]>();
  for (const m of memories) {
    for (const tag of m.tags) {
      const list = byTag.get(tag);
      if (list) list.push(m);
      else byTag.set(tag, [m]);
    }
  }
  const counts = [...byTag.values()].map((ms) => ms.length);
  let min = 1;
  if (counts.length > maxGroups) {
    // Raised no further than the most used tags: more groups than wanted rather than none.
    for (min = 2; counts.filter((c) => c >= min).length > maxGroups && counts.some((c) => c > min); min++);
  }
  const groups: Group[] = [...byTag.entries()]
    .filter(([, ms]) => ms.length >= min)
    .sort(([a, am], [b, bm]) => bm.length - am.length || a.localeCompare(b))
    .map(([tag, ms]) => ({ key: `tag:${tag}`, label: tag, memories: ms }));
  const shown = new Set(groups.map((g) => g.label));
  const rest = memories.filter((m) => !m.tags.some((t) => shown.has(t)));
  return rest.length ? [...groups, { key: OTHER_TAGS_KEY, label: otherLabel, memories: rest }] : groups;
}
