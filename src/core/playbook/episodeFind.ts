/**
 * Finding episodes: a bounded read of the newest episodes in a time window (the record store
 * filters outcome, skill and the window's end by its columns), matched against words of a task
 * on the terms memory search uses (src/core/text.ts: identifiers split, stop words dropped,
 * Porter stems).
 *
 * The record store has no text index for episodes, so a text match reads episodes: at most
 * `scanMax` of them per call (FIND_SCAN_MAX for the tool), the newest first, and says when that
 * bound cut the window short (`searchedAll: false`), so the caller narrows it with since, until,
 * outcome or skill. Without words there is no bound on what can be reached: pages follow the
 * store's own order and a call reads at most `scanMax` rows before it returns a shorter page
 * with a cursor.
 */
import type { RecordCursor, RecordQuery, RecordReader, StoredRecord } from '../ports/records';
import { ValidationError } from '../errors';
import { tagParts } from '../tags';
import { terms } from '../wordTerms';
import { CLOCK_SKEW_MS } from '../writer';
import { asEpisode, normalizeKey, type EpisodeData } from './kinds';
import { decodeRecordCursor, encodeRecordCursor } from './recordRows';

/** Most episodes one find call reads: a text match scores every one of them. */
export const FIND_SCAN_MAX = 5000;
/** Rows per store query while scanning. */
const SCAN_PAGE = 500;
/** A match found only in an episode's errors or resolution counts this much of one in its task or tags. */
export const DETAIL_WEIGHT = 0.5;
/** Episodes scoring below this are not returned: one shared word with a long task is not relevance. */
export const EPISODE_RELEVANCE_FLOOR = 0.3;

/** The terms an episode is found by: its task, tags and skill name, then (weaker) its errors and resolution. */
export interface EpisodeTerms {
  main: Set<string>;
  detail: Set<string>;
}

export function episodeTerms(e: Pick<EpisodeData, 'task' | 'tags' | 'skill' | 'errors' | 'resolution'>): EpisodeTerms {
  const main = new Set(terms(e.task));
  for (const tag of e.tags) for (const p of tagParts(tag)) main.add(p);
  if (e.skill) for (const t of terms(e.skill.name)) main.add(t);
  return { main, detail: new Set(terms([...e.errors, e.resolution].join('\n'))) };
}

/**
 * How well query terms meet an episode, 0–1: the larger of the share of the query found (a
 * term in the task or tags counts 1, in errors or resolution DETAIL_WEIGHT) and the share of
 * the episode's task and tags the query holds (a long task that covers a short episode). At
 * least two query terms must be found, unless the query has one: "fix" alone is not a match.
 */
export function matchEpisode(query: ReadonlySet<string>, t: EpisodeTerms): number {
  if (query.size === 0) return 0;
  let weight = 0;
  let inMain = 0;
  let found = 0;
  for (const q of query) {
    if (t.main.has(q)) {
      weight += 1;
      inMain++;
      found++;
    } else if (t.detail.has(q)) {
      weight += DETAIL_WEIGHT;
      found++;
    }
  }
  if (found < Math.min(2, query.size)) return 0;
  const score = Math.max(weight / query.size, t.main.size ? inMain / t.main.size : 0);
  return Math.round(score * 1000) / 1000;
}

/** What narrows a find, as the contract parsed it. */
export interface EpisodeFilter {
  outcome?: string;
  skill?: string;
  tags?: readonly string[];
  since?: string;
  until?: string;
}

/** The store's part of a filter: outcome (status), skill (keys[0]) and the window's end (dueAt = timestamp). */
function storeQuery(f: EpisodeFilter): Omit<RecordQuery, 'limit' | 'after'> {
  return {
    kind: 'episode',
    ...(f.outcome ? { status: [f.outcome] } : {}),
    ...(f.skill ? { keys: [normalizeKey(f.skill)] as const } : {}),
    ...(f.until ? { dueBefore: f.until } : {}),
  };
}

/** The rest of a filter, applied to each row read: the window's start and the tags. */
function keeps(f: EpisodeFilter): (r: StoredRecord) => boolean {
  return (r) => {
    const e = asEpisode(r);
    return (f.since === undefined || e.timestamp >= f.since) && (f.tags ?? []).every((t) => e.tags.includes(t));
  };
}

/**
 * Live episodes in the store's order (newest recorded first), from `after`, `pageSize` rows a
 * query. Stops at the window's start: an episode happened at most CLOCK_SKEW_MS after the clock
 * that recorded it allowed (EpisodeService.record), so none recorded earlier than `since` minus
 * that can have happened within the window.
 */
async function* newest(
  reader: RecordReader,
  f: EpisodeFilter,
  pageSize: number,
  after?: RecordCursor,
): AsyncGenerator<StoredRecord, void, undefined> {
  const q = storeQuery(f);
  const stop = f.since === undefined ? undefined : new Date(Date.parse(f.since) - CLOCK_SKEW_MS).toISOString();
  let cursor = after;
  for (;;) {
    const batch = await reader.query({ ...q, limit: pageSize, after: cursor });
    for (const r of batch) {
      if (stop !== undefined && r.changedAt < stop) return;
      yield r;
    }
    const last = batch[batch.length - 1];
    if (!last || batch.length < pageSize) return;
    cursor = { rank: last.rank, changedAt: last.changedAt, id: last.id };
  }
}

export interface FoundPage {
  rows: Array<{ r: StoredRecord; score?: number }>;
  nextCursor: string | null;
  /** False when a text match read `scanMax` episodes and stopped before the window's start. */
  searchedAll: boolean;
}

/** The newest matching episodes (no words): the store's order, paged by its cursor. */
export async function newestEpisodes(
  reader: RecordReader,
  f: EpisodeFilter,
  limit: number,
  cursor: string | undefined,
  scanMax = FIND_SCAN_MAX,
): Promise<FoundPage> {
  const keep = keeps(f);
  const rows: FoundPage['rows'] = [];
  let read = 0;
  for await (const r of newest(reader, f, Math.min(SCAN_PAGE, limit + 1), cursor === undefined ? undefined : decodeRecordCursor(cursor))) {
    if (keep(r)) {
      if (rows.length === limit) return { rows, nextCursor: encodeRecordCursor(rows[rows.length - 1]!.r), searchedAll: true };
      rows.push({ r });
    }
    // Bounded per call: many rows filtered out (tags, an old window) end the page early, with a cursor.
    if (++read >= scanMax) return { rows, nextCursor: encodeRecordCursor(r), searchedAll: true };
  }
  return { rows, nextCursor: null, searchedAll: true };
}

/** Position in a ranked listing: score, then when it happened, then id (all descending). */
type RankPosition = [score: number, timestamp: string, id: string];

const byRank = (a: RankPosition, b: RankPosition) =>
  b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0) || (a[2] < b[2] ? 1 : a[2] > b[2] ? -1 : 0);

function encodeRankCursor(p: RankPosition): string {
  return Buffer.from(JSON.stringify(['ranked', ...p])).toString('base64url');
}

function decodeRankCursor(s: string): RankPosition {
  try {
    const [tag, score, timestamp, id] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (tag === 'ranked' && typeof score === 'number' && typeof timestamp === 'string' && typeof id === 'string')
      return [score, timestamp, id];
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError('cursor', 'is not a cursor returned by this search (same query); start without one');
}

/**
 * The episodes matching `words`, best first (then the most recent), among the newest `scanMax`
 * of the window. The cursor is a position in that order, so a page after it is stable while
 * nothing is recorded; a new episode may push the oldest out of the bound.
 */
export async function rankedEpisodes(
  reader: RecordReader,
  words: string,
  f: EpisodeFilter,
  limit: number,
  cursor: string | undefined,
  scanMax = FIND_SCAN_MAX,
): Promise<FoundPage> {
  const query = new Set(terms(words));
  if (query.size === 0)
    throw new ValidationError('query', 'has only common words (the, with, how…); give words of the task or the error, or leave it out');
  const after = cursor === undefined ? undefined : decodeRankCursor(cursor);
  const keep = keeps(f);
  const hits: Array<{ r: StoredRecord; score: number; at: RankPosition }> = [];
  let read = 0;
  let searchedAll = true;
  for await (const r of newest(reader, f, SCAN_PAGE)) {
    if (read++ >= scanMax) {
      searchedAll = false;
      break;
    }
    if (!keep(r)) continue;
    const e = asEpisode(r);
    const score = matchEpisode(query, episodeTerms(e));
    if (score < EPISODE_RELEVANCE_FLOOR) continue;
    const at: RankPosition = [score, e.timestamp, r.id];
    if (after && byRank(after, at) >= 0) continue;
    hits.push({ r, score, at });
  }
  hits.sort((a, b) => byRank(a.at, b.at));
  const page = hits.slice(0, limit);
  return {
    rows: page.map(({ r, score }) => ({ r, score })),
    nextCursor: hits.length > limit ? encodeRankCursor(page[page.length - 1]!.at) : null,
    searchedAll,
  };
}
