import { CONTEXT_TOKENS, ContextInput } from '../contract/context';
import { KEY_MATCH_MAX, type StoredRecord } from '../ports/records';
import type { Store } from '../ports/store';
import { LIMITS } from '../contract/fields';
import { parseInput } from '../contract/validate';
import type { MemoryService } from '../memoryService';
import { isStopWord, words } from '../text';
import { packContext, type Candidate, type PackedContext, type Provenance } from './contextPacking';
import type { EpisodeService } from './episodeService';
import { LIVE_STATUSES } from './factRules';
import { asFact } from './kinds';
import type { Ontology } from './ontology';
import type { SkillService } from './skillService';
import { entityCandidates, typedEntityCandidates } from './taskEntities';

/** How many of each kind are considered before packing: more could never fit a useful budget. */
const MAX_MEMORIES = 20;
const MAX_FACTS = 50;
const MAX_SKILLS = 5;
/** Keywords per window search (see relevantMemories). */
const WINDOW = 3;
const MAX_EPISODES = 5;
/** Episodes read to find the relevant ones: the newest of the store (episodeFind.ts); context runs at every task's start. */
const EPISODES_SCANNED = 1000;
/** The record store matches at most this many key values at once. */
const KEYS_PER_QUERY = KEY_MATCH_MAX;
/** A failure's errors in its short form; the full form has them all. */
const SHORT_ERRORS = 2;

export interface ContextServiceOptions {
  memories: MemoryService;
  skills: SkillService;
  episodes: EpisodeService;
  /** The workspace ontology, whose types name the task's entities (`billing` → `service:billing`); none by default. */
  ontology?: () => Ontology | null;
  /** The policy's working.max_tokens: the budget when a call gives none. */
  defaultMaxTokens?: number | (() => number);
  now?: () => Date;
}

/** Search keywords of a task: its distinct words without stop words, as many as a search takes. */
export function taskKeywords(task: string): string[] {
  return [...new Set(words(task).filter((w) => w.length >= 2 && !isStopWord(w)))].slice(0, LIMITS.keywordsMax);
}

const provenance = (kind: Provenance['kind'], r: { id: string; version: number; author: string; changedAt: string }): Provenance => ({
  kind,
  id: r.id,
  version: r.version,
  author: r.author,
  changedAt: r.changedAt,
});

/**
 * Working memory: one call at the start of a task returns the most relevant memories, the
 * active facts about the entities it names, the skills that match it and the relevant recent
 * episodes, packed within a token budget (contextPacking.ts states the estimate), in that order
 * of kinds, each item with its provenance.
 */
export class ContextService {
  private readonly now: () => Date;

  constructor(
    private readonly store: Store,
    private readonly options: ContextServiceOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  private defaultMaxTokens(): number {
    const d = this.options.defaultMaxTokens;
    return (typeof d === 'function' ? d() : d) ?? CONTEXT_TOKENS.default;
  }

  async context(input: unknown): Promise<PackedContext> {
    const c = parseInput(ContextInput, input);
    const budget = Math.min(CONTEXT_TOKENS.max, Math.max(CONTEXT_TOKENS.min, c.maxTokens ?? this.defaultMaxTokens()));
    const [memories, facts, skills, episodes] = await Promise.all([
      this.memoryCandidates(c.task),
      this.factCandidates(c.task),
      this.skillCandidates(c.task),
      this.episodeCandidates(c.task),
    ]);
    return packContext([...memories, ...facts, ...skills, ...episodes], budget);
  }

  private async memoryCandidates(task: string): Promise<Candidate[]> {
    const keywords = taskKeywords(task);
    if (keywords.length === 0) return [];
    const fresh: Candidate[] = [];
    const stale: Candidate[] = [];
    for (const id of await this.relevantMemories(keywords)) {
      const m = await this.options.memories.read({ id });
      const summary = {
        provenance: provenance('memory', m),
        description: m.description,
        tags: m.tags,
        // A memory whose text reads like instructions says so, in short and full form alike.
        ...(m.instructionLike ? { instructionLike: m.instructionLike } : {}),
        // A memory whose cited code changed says so, with what changed, and ranks below the fresh ones.
        ...(m.freshness === 'stale'
          ? { stale: m.note, staleCitations: m.citations!.filter((c) => c.status !== 'fresh' && c.status !== 'moved').map((c) => c.detail) }
          : {}),
      };
      (m.freshness === 'stale' ? stale : fresh).push({ summary, full: { ...summary, content: m.content } });
    }
    return [...fresh, ...stale];
  }

  /**
   * Memory search is built for a few keywords: a memory must cover a quarter of the query's
   * weight, which a long task's many words make hard. So the whole task is searched first
   * (its hits rank first), then windows of WINDOW consecutive keywords (overlapping by one),
   * whose hits rank by how many windows found them.
   */
  private async relevantMemories(keywords: string[]): Promise<string[]> {
    const memories = this.options.memories;
    const windows: string[][] = [];
    if (keywords.length > WINDOW) for (let i = 0; i < keywords.length - 1; i += WINDOW - 1) windows.push(keywords.slice(i, i + WINDOW));
    const [whole, ...parts] = await Promise.all([keywords, ...windows].map((k) => memories.search({ keywords: k, limit: MAX_MEMORIES })));
    const seen = new Map<string, number>();
    for (const hits of parts) for (const h of hits) seen.set(h.id, (seen.get(h.id) ?? 0) + 1);
    const first = whole!.map((h) => h.id);
    const rest = [...seen.entries()]
      .filter(([id]) => !first.includes(id))
      .sort((a, b) => b[1] - a[1])
      .map(([id]) => id);
    return [...first, ...rest].slice(0, MAX_MEMORIES);
  }

  /**
   * Active or disputed facts whose subject or object is one of the task's entities, as written
   * or typed (`billing service` → `service:billing`, taskEntities.ts), unexpired, by confidence.
   * Exact lookups on the key columns, KEYS_PER_QUERY values at a time.
   */
  private async factCandidates(task: string): Promise<Candidate[]> {
    const types = this.options.ontology?.()?.types ?? null;
    const keys = [...new Set([...entityCandidates(task), ...typedEntityCandidates(task, types)])];
    if (keys.length === 0) return [];
    const status = LIVE_STATUSES;
    const chunks: string[][] = [];
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) chunks.push(keys.slice(i, i + KEYS_PER_QUERY));
    const found = await Promise.all(
      chunks.flatMap((chunk) => [
        this.store.records.query({ kind: 'fact', keys: [chunk], status, limit: MAX_FACTS }),
        this.store.records.query({ kind: 'fact', keys: [undefined, undefined, chunk], status, limit: MAX_FACTS }),
      ]),
    );
    const now = this.now().toISOString();
    const seen = new Set<string>();
    const rows: StoredRecord[] = [];
    for (const r of found.flat()) {
      const f = asFact(r);
      if (seen.has(r.id) || (f.validUntil !== null && f.validUntil <= now)) continue;
      seen.add(r.id);
      rows.push(r);
    }
    rows.sort((a, b) => b.rank - a.rank || (a.changedAt < b.changedAt ? 1 : -1));
    return rows.slice(0, MAX_FACTS).map((r) => {
      const f = asFact(r);
      return {
        summary: {
          provenance: provenance('fact', r),
          subject: f.subject,
          predicate: f.predicate,
          object: f.object,
          status: f.status,
          confidence: f.confidence,
          source: f.source,
          validUntil: f.validUntil,
          verified: f.verification.state === 'verified',
        },
      };
    });
  }

  /**
   * The episodes most relevant to the task among the newest EPISODES_SCANNED, failures and
   * partial successes first (what went wrong and how it was resolved is what a retry needs), then
   * successes, each group best first. Short form: what, how it ended, when, and for a failure
   * its first errors and its resolution; full form: the whole episode.
   */
  private async episodeCandidates(task: string): Promise<Candidate[]> {
    const found = await this.options.episodes.relevant(task, MAX_EPISODES, EPISODES_SCANNED);
    const ordered = [...found.filter((e) => e.outcome !== 'success'), ...found.filter((e) => e.outcome === 'success')];
    return ordered.map((e) => {
      const failed = e.outcome !== 'success';
      const summary = {
        provenance: provenance('episode', { id: e.id, version: e.version, author: e.author, changedAt: e.recordedAt }),
        task: e.task,
        outcome: e.outcome,
        timestamp: e.timestamp,
        skill: e.skill,
        tags: e.tags,
        ...(failed && e.errors.length ? { errors: e.errors.slice(0, SHORT_ERRORS) } : {}),
        ...(failed && e.resolution ? { resolution: e.resolution } : {}),
      };
      return {
        summary,
        full: {
          ...summary,
          errors: e.errors,
          resolution: e.resolution,
          tools: e.tools,
          inputs: e.inputs,
          source: e.source,
          executor: e.executor,
        },
      };
    });
  }

  private async skillCandidates(task: string): Promise<Candidate[]> {
    const found = await this.options.skills.find({ task: task.slice(0, 4000), limit: MAX_SKILLS });
    const out: Candidate[] = [];
    for (const s of found) {
      const summary = { provenance: provenance('skill', s), name: s.name, description: s.description, matched: s.trigger };
      const full = await this.options.skills.read({ name: s.name });
      const d = full.data;
      const o = full.outcomes.allTime;
      out.push({
        summary,
        full: {
          ...summary,
          preconditions: d.preconditions,
          tools: d.tools,
          steps: d.steps,
          success_checks: d.success_checks,
          failure_handling: d.failure_handling,
          outcomes: { episodes: o.total, successRate: o.rate },
        },
      });
    }
    return out;
  }
}
