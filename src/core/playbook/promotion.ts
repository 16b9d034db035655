import { createHash } from 'node:crypto';
import type { Store } from '../ports/store';
import { asEpisode, asProposal, asSkill, normalizeKey, type SkillData } from './kinds';
import { readAll } from './recordRows';
import { jaccard, matchSkill, RELEVANCE_FLOOR, termSet } from './skillMatch';
import { counted, draftSkill, type PromotionEpisode, type SkillDraft } from './skillDraft';
import type { SkillService } from './skillService';

// The draft itself (skillDraft.ts), named here too: what promotion hands the proposal queue.
export { draftSkill, type PromotionEpisode, type SkillDraft };

/**
 * Promotion from evidence: successful episodes of the same kind of task, recorded by more than
 * one author and covered by no skill, become skill drafts. Nothing here saves a skill; the
 * drafts go to the proposal queue for a person.
 *
 * Reproducibility counts the authors of the episode records (the identity the store writes
 * as), not their `executor`: that is free text one caller sets, so one agent could claim
 * three executors. The executor stays a label, kept in the draft's evidence.
 *
 * Same kind of task: two episodes share at least one tag and the Jaccard similarity of their
 * tasks' analysed term sets (stems, stop words dropped; src/core/text.ts) is at least
 * TASK_SIMILARITY. "Fix the flaky login test in CI" and "fix flaky checkout test on CI" share
 * 4 of 6 terms (0.67); "fix flaky login test" and "upgrade the login page" share 1 of 6.
 * Groups are the connected components of that relation.
 */
export const TASK_SIMILARITY = 0.5;
export const DEFAULT_MIN_SUCCESSES = 3;
/** Most recent successful episodes read per run: the evidence of recent work, bounded. */
export const DEFAULT_MAX_EPISODES = 2000;
/** Skill proposals read to avoid proposing a group twice. */
const MAX_PROPOSALS_READ = 1000;

export interface PromotionResult {
  drafts: SkillDraft[];
  /** Episodes read (at most maxEpisodes). */
  scanned: number;
  /** Groups big enough but already covered by a live skill or a draft in the queue, with its name. */
  covered: Array<{ episodes: string[]; skill: string }>;
  /** Groups not ready yet, biggest first (at most NOT_READY_LISTED), each with what it lacks. */
  notReady: NotReadyGroup[];
  /** Successful episodes read that have no tag: promotion groups by a shared tag, so these are never grouped. */
  untagged: number;
}

/** A group of successful episodes that is not evidence enough yet, and why. */
export interface NotReadyGroup {
  episodes: string[];
  /** The tags its episodes share (all of them, else those most of them have). */
  tags: string[];
  /** E.g. "3 successes of tag ci by 1 author; needs 2 authors". */
  reason: string;
}

/** How many not-ready groups a result explains (the biggest; most runs have many singletons). */
export const NOT_READY_LISTED = 10;

/** Pure: the same-kind-of-task groups of these episodes (every episode is in exactly one group). */
export function groupEpisodes(episodes: readonly PromotionEpisode[], similarity = TASK_SIMILARITY): PromotionEpisode[][] {
  const termSets = episodes.map((e) => termSet(e.data.task));
  const parent = episodes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const byTag = new Map<string, number[]>();
  episodes.forEach((e, i) => new Set(e.data.tags).forEach((t) => byTag.set(t, [...(byTag.get(t) ?? []), i])));
  const compared = new Set<string>();
  for (const members of byTag.values()) {
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        const [i, j] = [members[a]!, members[b]!];
        const key = `${i}:${j}`;
        if (compared.has(key)) continue;
        compared.add(key);
        if (jaccard(termSets[i]!, termSets[j]!) >= similarity) parent[find(i)] = find(j);
      }
    }
  }
  const groups = new Map<number, PromotionEpisode[]>();
  episodes.forEach((e, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), e]));
  return [...groups.values()];
}

/** Pure: whether a group is evidence enough — minSuccesses successes recorded by at least two authors. */
export function isPromotable(group: readonly PromotionEpisode[], minSuccesses: number): boolean {
  const ok = group.filter((e) => e.data.outcome === 'success');
  return ok.length >= minSuccesses && new Set(ok.map((e) => normalizeKey(e.author))).size >= 2;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The tags a group is about: those every episode has, else those at least two have (most common first). */
function groupTags(group: readonly PromotionEpisode[]): string[] {
  const counts = counted(group.flatMap((e) => [...new Set(e.data.tags)]));
  const all = counts.filter(([, n]) => n === group.length).map(([t]) => t);
  return (all.length ? all : counts.filter(([, n]) => n >= 2).map(([t]) => t)).slice(0, 3);
}

/** Pure: why a group is not evidence enough (undefined when it is), in the words a person acts on. */
export function notReadyReason(group: readonly PromotionEpisode[], minSuccesses: number): NotReadyGroup | undefined {
  if (isPromotable(group, minSuccesses)) return undefined;
  const ok = group.filter((e) => e.data.outcome === 'success');
  const authors = new Set(ok.map((e) => normalizeKey(e.author))).size;
  const tags = groupTags(group);
  const lacks = [
    ...(ok.length < minSuccesses ? [plural(minSuccesses, 'success', 'successes')] : []),
    ...(authors < 2 ? ['2 authors'] : []),
  ].join(' and ');
  const about = tags.length ? ` of ${tags.length === 1 ? 'tag' : 'tags'} ${tags.join(', ')}` : '';
  return {
    episodes: group.map((e) => e.id),
    tags,
    reason: `${plural(ok.length, 'success', 'successes')}${about} by ${plural(authors, 'author')}; needs ${lacks}`,
  };
}

/** A fixed namespace for draftProposalId (a random UUID chosen once). */
const DRAFT_NAMESPACE = Buffer.from('7d0b5c1e4a2f4e8b9c3d6f1a2b3c4d5e', 'hex');

/**
 * The proposal id of a draft: a name-based UUID (version 5, SHA-1) of its sorted evidence
 * episode ids. Two promotion runs that draft the same group at once propose under the same
 * id, and the second finds the first instead of queueing a duplicate.
 */
export function draftProposalId(episodeIds: readonly string[]): string {
  const hash = createHash('sha1')
    .update(DRAFT_NAMESPACE)
    .update([...episodeIds].sort().join('\n'))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The live skill that already covers a group: its evidence lists one of them, or it matches most of their tasks. */
export function coveringSkill(group: readonly PromotionEpisode[], skills: readonly SkillData[]): SkillData | undefined {
  const ids = new Set(group.map((e) => e.id));
  const tasks = group.map((e) => termSet(e.data.task));
  return skills.find(
    (s) =>
      s.evidence.episodes.some((id) => ids.has(id)) ||
      tasks.filter((t) => matchSkill(t, s).score >= RELEVANCE_FLOOR).length * 2 >= tasks.length,
  );
}

interface ProposedDraft {
  id: string;
  state: string;
  name: string;
  episodes: Set<string>;
}

/** Skill proposals made from evidence that are pending or were rejected (bounded). */
async function proposedDrafts(store: Store): Promise<ProposedDraft[]> {
  const rows = await readAll(store.records, { kind: 'proposal', keys: ['skill'], status: ['pending', 'rejected'] }, MAX_PROPOSALS_READ);
  return rows.flatMap((r) => {
    const payload = asProposal(r).payload as Partial<SkillData>;
    const episodes = payload.evidence?.episodes ?? [];
    return episodes.length ? [{ id: r.id, state: r.status, name: String(payload.name), episodes: new Set(episodes) }] : [];
  });
}

/**
 * A draft already in the queue stops a run from proposing the group again: a pending one while
 * it shares an episode with the group, a rejected one until the group has new evidence.
 */
function proposedFor(group: readonly PromotionEpisode[], drafts: readonly ProposedDraft[]): string | undefined {
  const d = drafts.find((p) =>
    p.state === 'pending' ? group.some((e) => p.episodes.has(e.id)) : group.every((e) => p.episodes.has(e.id)),
  );
  return d && `${d.name} (${d.state} proposal ${d.id})`;
}

/** Reads recent successful episodes (bounded), groups them and drafts a skill for each uncovered group. Never saves. */
export async function findPromotions(
  store: Store,
  skills: SkillService,
  options: { minSuccesses?: number; maxEpisodes?: number } = {},
): Promise<PromotionResult> {
  const minSuccesses = Math.max(1, options.minSuccesses ?? DEFAULT_MIN_SUCCESSES);
  const max = options.maxEpisodes ?? DEFAULT_MAX_EPISODES;
  const rows = await readAll(store.records, { kind: 'episode', status: ['success'] }, max);
  const episodes: PromotionEpisode[] = rows.map((r) => ({ id: r.id, author: r.author, data: asEpisode(r) }));
  const live = (await skills.liveRecords()).map(asSkill);
  const taken = new Set(live.map((s) => s.name));
  const drafts = await proposedDrafts(store);
  const untagged = episodes.filter((e) => e.data.tags.length === 0).length;
  const result: PromotionResult = { drafts: [], scanned: episodes.length, covered: [], notReady: [], untagged };
  const groups = groupEpisodes(episodes.filter((e) => e.data.tags.length > 0));
  for (const group of groups) {
    const why = notReadyReason(group, minSuccesses);
    if (why) {
      result.notReady.push(why);
      continue;
    }
    const cover = coveringSkill(group, live)?.name ?? proposedFor(group, drafts);
    if (cover) {
      result.covered.push({ episodes: group.map((e) => e.id), skill: cover });
      continue;
    }
    const draft = draftSkill(group, taken);
    taken.add(draft.data.name);
    result.drafts.push(draft);
  }
  result.notReady = result.notReady.sort((a, b) => b.episodes.length - a.episodes.length).slice(0, NOT_READY_LISTED);
  return result;
}
