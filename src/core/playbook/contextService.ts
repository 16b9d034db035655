import { CONTEXT_TOKENS, ContextInput } from '../contract/context';
import type { StoredRecord } from '../ports/records';
import type { Store } from '../ports/store';
import { LIMITS } from '../contract/fields';
import { parseInput } from '../contract/validate';
import type { MemoryService } from '../memoryService';
import { isStopWord, words } from '../text';
import { packContext, type Candidate, type PackedContext, type Provenance } from './contextPacking';
import { LIVE_STATUSES } from './factRules';
import { asFact, normalizeKey } from './kinds';
import type { SkillService } from './skillService';

/** How many of each kind are considered before packing: more could never fit a useful budget. */
const MAX_MEMORIES = 20;
const MAX_FACTS = 50;
const MAX_SKILLS = 5;
/** Keywords per window search (see relevantMemories). */
const WINDOW = 3;
/** The record store matches at most 500 key values at once. */
const MAX_ENTITY_CANDIDATES = 500;

export interface ContextServiceOptions {
  memories: MemoryService;
  skills: SkillService;
  /** The policy's working.max_tokens: the budget when a call gives none. */
  defaultMaxTokens?: number | (() => number);
  now?: () => Date;
}

/** Search keywords of a task: its distinct words without stop words, as many as a search takes. */
export function taskKeywords(task: string): string[] {
  return [...new Set(words(task).filter((w) => w.length >= 2 && !isStopWord(w)))].slice(0, LIMITS.keywordsMax);
}

/**
 * The entities a task may name, as fact keys (normalizeKey): identifiers as written
 * (`service-a`, `src/store/records.ts`, `PgStore`), single words, and 2–3 word phrases of
 * consecutive words that neither start nor end with a stop word (`payments service`).
 */
export function entityCandidates(task: string): string[] {
  const raw = task
    .split(/\s+/)
    .map((t) => t.replace(/^[\s"'`([{<]+|[\s"'`)\]}>,;:!?.]+$/g, ''))
    .filter(Boolean);
  const out = new Set<string>();
  for (const t of raw) if (t.length >= 2) out.add(normalizeKey(t));
  for (const w of words(task)) if (w.length >= 2 && !isStopWord(w)) out.add(w);
  const lower = raw.map((t) => t.toLowerCase());
  for (let n = 2; n <= 3; n++) {
    for (let i = 0; i + n <= lower.length; i++) {
      const phrase = lower.slice(i, i + n);
      if (!isStopWord(phrase[0]!) && !isStopWord(phrase[n - 1]!)) out.add(normalizeKey(phrase.join(' ')));
    }
  }
  return [...out].filter((c) => !isStopWord(c)).slice(0, MAX_ENTITY_CANDIDATES);
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
 * active facts about the entities it names, and the skills that match it, packed within a
 * token budget (contextPacking.ts states the estimate), each item with its provenance.
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
    const [memories, facts, skills] = await Promise.all([
      this.memoryCandidates(c.task),
      this.factCandidates(c.task),
      this.skillCandidates(c.task),
    ]);
    return packContext([...memories, ...facts, ...skills], budget);
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

  /** Active or disputed facts whose subject or object is one of the task's entities, unexpired, by confidence. */
  private async factCandidates(task: string): Promise<Candidate[]> {
    const keys = entityCandidates(task);
    if (keys.length === 0) return [];
    const status = LIVE_STATUSES;
    const [bySubject, byObject] = await Promise.all([
      this.store.records.query({ kind: 'fact', keys: [keys], status, limit: MAX_FACTS }),
      this.store.records.query({ kind: 'fact', keys: [undefined, undefined, keys], status, limit: MAX_FACTS }),
    ]);
    const now = this.now().toISOString();
    const seen = new Set<string>();
    const rows: StoredRecord[] = [];
    for (const r of [...bySubject, ...byObject]) {
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
