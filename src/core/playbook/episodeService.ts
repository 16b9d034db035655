/**
 * Episodic memory: what was tried and how it went, as a summary with pointers. Episodes are
 * written once (a later change would be a new version, which nothing does but the forgetting
 * run's archive). Forgetting them is the lifecycle's job (lifecycle.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RecordStore, StoredRecord } from '../ports/records';
import { parseInput } from '../contract/validate';
import { NotFoundError, refusalAt, ValidationError } from '../errors';
import { seedEpisodeId, seedEpisodeRowId } from '../seedLines';
import type { z } from 'zod';
import { terms } from '../wordTerms';
import { asEpisode, episodeColumns, normalizeKey, type EpisodeData } from './kinds';
import {
  EPISODE_LIMITS,
  FindEpisodesInput,
  type FoundEpisode,
  ListEpisodesInput,
  RecordEpisodeInput,
  SeedEpisodeId,
  ShowEpisodeInput,
} from '../contract/episodes';
import { FIND_SCAN_MAX, newestEpisodes, rankedEpisodes } from './episodeFind';
import { assertSkillVersion } from './skillReference';
import { assertNoSecrets, pageOf, RecordWriter, type TierServiceOptions } from './recordRows';

/** One episode as show returns it. */
export interface EpisodeView extends EpisodeData {
  id: string;
  author: string;
  recordedAt: string;
  /** Set when the forgetting run archived it (kept, hidden from lists). */
  archivedAt?: string;
}

/** One episode as find returns it. */
export type FoundEpisodeView = z.output<typeof FoundEpisode>;

/** One line of a listing. */
export interface EpisodeSummary {
  id: string;
  timestamp: string;
  task: string;
  outcome: EpisodeData['outcome'];
  tags: string[];
  skill: EpisodeData['skill'];
  executor: string;
}

export class EpisodeService {
  private readonly w: RecordWriter;

  constructor(
    private readonly records: RecordStore,
    options: TierServiceOptions,
  ) {
    this.w = new RecordWriter(options);
  }

  /**
   * Records an episode; refuses secrets, transcripts, oversized fields and a skill (name or
   * version) that does not exist, writing nothing.
   */
  async record(input: unknown): Promise<{ id: string }> {
    const data = await this.check(parseInput(RecordEpisodeInput, input), this.w.now());
    const id = randomUUID();
    await this.records.write(`episode:${id}`, () => [this.w.row('episode', id, 1, 'create', episodeColumns(data), data)]);
    return { id };
  }

  /**
   * The records of episode lines in the playbook seed's JSONL shape (an `id` such as
   * `evt_20260915_001`, then record's fields: `source: conversation:abc` and all) that the store
   * does not hold yet. The record's id is derived from the line's id (seedLines.ts), which the
   * episode keeps as `importedId`, so importing the file again adds nothing; a line whose id is
   * stored with other content is refused. Checks every line; writes nothing.
   */
  async seedRecords(rows: unknown[], describeRow: (index: number) => string = (i) => `rows[${i}]`): Promise<StoredRecord[]> {
    const now = this.w.now();
    const out: StoredRecord[] = [];
    const seen = new Map<string, string>();
    for (const [i, r] of rows.entries()) {
      const where = describeRow(i);
      try {
        const { id: importedId, ...fields } = (r ?? {}) as Record<string, unknown>;
        const given = parseInput(SeedEpisodeId, { id: importedId });
        const data: EpisodeData = { ...(await this.check(parseInput(RecordEpisodeInput, fields), now)), importedId: given.id };
        const id = seedEpisodeId(given.id);
        if (seen.has(id)) throw new ValidationError('id', `${given.id} is also the id of ${seen.get(id)}; one line per episode`);
        seen.set(id, where);
        const stored = await this.records.get('episode', id);
        if (stored) {
          const same = JSON.stringify({ ...asEpisode(stored), executor: '' }) === JSON.stringify({ ...data, executor: '' });
          if (!same)
            throw new ValidationError(
              'id',
              `episode ${given.id} is stored already (as ${id}) with other content; give this one another id`,
            );
          continue;
        }
        out.push({ ...this.w.row('episode', id, 1, 'create', episodeColumns(data), data), rowId: seedEpisodeRowId(given.id) });
      } catch (err) {
        throw refusalAt(where, err);
      }
    }
    return out;
  }

  /** The checks of an episode (time, secrets, the skill it names) and its data. */
  private async check(e: RecordEpisodeInput, now: Date): Promise<EpisodeData> {
    this.w.checkNotFuture('timestamp', e.timestamp, 'give the time the episode happened', now);
    assertNoSecrets({
      task: e.task,
      tools: e.tools,
      inputs: e.inputs,
      errors: e.errors,
      resolution: e.resolution,
      'source.ref': e.source.ref,
      'skill.name': e.skill?.name,
      executor: e.executor,
    });
    if (e.skill) await assertSkillVersion(this.records, e.skill);
    return {
      timestamp: e.timestamp ?? now.toISOString(),
      task: e.task,
      outcome: e.outcome,
      tools: e.tools,
      inputs: e.inputs,
      errors: e.errors,
      resolution: e.resolution,
      tags: e.tags,
      source: e.source,
      skill: e.skill ?? null,
      executor: e.executor ?? this.w.author,
    };
  }

  /** Live episodes, most recently recorded first, optionally of one outcome or skill; paged. */
  async list(input: unknown = {}): Promise<{ items: EpisodeSummary[]; nextCursor: string | null }> {
    const l = parseInput(ListEpisodesInput, input ?? {});
    const { rows, nextCursor } = await pageOf(
      this.records,
      { kind: 'episode', status: l.outcome ? [l.outcome] : undefined, keys: l.skill ? [normalizeKey(l.skill)] : undefined },
      l.limit ?? EPISODE_LIMITS.listDefault,
      l.cursor,
    );
    return { items: rows.map(summary), nextCursor };
  }

  /**
   * Live episodes by task words, tags, outcome, skill and time window: with words, the best
   * matches first among the newest FIND_SCAN_MAX of the window (episodeFind.ts says why it is
   * bounded); without, the newest first. Paged.
   */
  async find(input: unknown = {}): Promise<{ items: FoundEpisodeView[]; nextCursor: string | null; searchedAll: boolean; note?: string }> {
    const { query, limit, cursor, ...filter } = parseInput(FindEpisodesInput, input ?? {});
    const n = limit ?? EPISODE_LIMITS.findDefault;
    const page = query
      ? await rankedEpisodes(this.records, query, filter, n, cursor)
      : await newestEpisodes(this.records, filter, n, cursor);
    return {
      items: page.rows.map(({ r, score }) => found(r, score)),
      nextCursor: page.nextCursor,
      searchedAll: page.searchedAll,
      ...(page.searchedAll
        ? {}
        : {
            note: `Only the newest ${FIND_SCAN_MAX} episodes of the window were searched; narrow it with since, until, outcome or skill to search older ones.`,
          }),
    };
  }

  /**
   * The episodes most relevant to a task's text (no filters), best first, among the newest
   * `scanMax`: what working memory packs. Failures are not reordered here (the caller does).
   */
  async relevant(task: string, limit: number, scanMax: number): Promise<Array<FoundEpisodeView & { version: number }>> {
    // A task of common words only has nothing to match episodes on (rankedEpisodes would refuse it).
    if (terms(task).length === 0) return [];
    const page = await rankedEpisodes(this.records, task, {}, limit, undefined, scanMax);
    return page.rows.map(({ r, score }) => ({ ...found(r, score), version: r.version }));
  }

  /** One episode, archived or not. */
  async show(input: unknown): Promise<EpisodeView> {
    // An imported seed line's own id (`evt_20260915_001`) finds the record stored under the id derived from it.
    const imported = importedIdOf(input);
    const found = imported === undefined ? undefined : await this.records.get('episode', seedEpisodeId(imported));
    if (found) return view(found);
    const { id } = parseInput(ShowEpisodeInput, input);
    const r = await this.records.get('episode', id);
    if (!r) throw new NotFoundError(`episode ${id} does not exist (or was forgotten); list episodes to find one`);
    return view(r);
  }
}

/** The id asked for when it is not a UUID: perhaps an imported seed line's own id. */
function importedIdOf(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || !('id' in input)) return undefined;
  const id = (input as { id: unknown }).id;
  return typeof id === 'string' && id.length <= 200 && !/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id) ? id : undefined;
}

function summary(r: StoredRecord): EpisodeSummary {
  const e = asEpisode(r);
  return { id: r.id, timestamp: e.timestamp, task: e.task, outcome: e.outcome, tags: e.tags, skill: e.skill, executor: e.executor };
}

function view(r: StoredRecord): EpisodeView {
  return { id: r.id, ...asEpisode(r), author: r.author, recordedAt: r.changedAt, ...(r.deletedAt ? { archivedAt: r.deletedAt } : {}) };
}

function found(r: StoredRecord, score: number | undefined): FoundEpisodeView {
  const e = asEpisode(r);
  return {
    id: r.id,
    task: e.task,
    outcome: e.outcome,
    timestamp: e.timestamp,
    recordedAt: r.changedAt,
    skill: e.skill,
    tags: e.tags,
    executor: e.executor,
    author: r.author,
    tools: e.tools,
    inputs: e.inputs ?? [],
    errors: e.errors,
    resolution: e.resolution,
    source: e.source,
    ...(score !== undefined ? { score } : {}),
  };
}
