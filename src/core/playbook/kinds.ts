/**
 * The data each tier keeps in a StoredRecord (src/core/ports/records.ts) and how it fills the
 * record's lookup columns. Services validate inputs with their own zod schemas and store
 * exactly these shapes in `data`; everything that reads records goes through `as*` below.
 */
import type { StoredRecord } from '../ports/records';

/** Lower case, trimmed, inner whitespace collapsed: how subjects, predicates, objects and names are matched. */
export function normalizeKey(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ');
}

// ---------------------------------------------------------------- episodes

export type Outcome = 'success' | 'failure' | 'partial';

export interface EpisodeData {
  /** When it happened (ISO-8601 UTC, ms). */
  timestamp: string;
  /** What the task was, in one or two sentences. */
  task: string;
  outcome: Outcome;
  /** Tools used (names as the agent called them). */
  tools: string[];
  /** The key inputs given to them (a command line, a file, a flag); absent in episodes recorded before inputs were kept. */
  inputs?: string[];
  /** Errors met on the way (messages, shortened). */
  errors: string[];
  /** How it was resolved (summary), '' when not. */
  resolution: string;
  tags: string[];
  /** A pointer, never a transcript: a commit, an issue, a pull request, a chat id, a URL. */
  source: { type: 'commit' | 'issue' | 'pull-request' | 'chat' | 'url' | 'file' | 'other'; ref: string };
  /** The skill that was followed, if any. */
  skill: { name: string; version: number } | null;
  /** Who ran it: the author, or the agent's name as the caller gave it. */
  executor: string;
  /** The id an imported episode line had (the playbook seed's `evt_…`); the record's id is derived from it. */
  importedId?: string;
}

/**
 * Episode records: status = outcome, keys = [skill name, executor, skill version as text] ('' without
 * a skill), dueAt = timestamp. The version in the keys lets a skill version's outcomes be counted.
 */
export function episodeColumns(d: EpisodeData): Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'> {
  return {
    status: d.outcome,
    keys: [d.skill ? normalizeKey(d.skill.name) : '', normalizeKey(d.executor), d.skill ? String(d.skill.version) : ''],
    rank: 0,
    dueAt: d.timestamp,
  };
}

// ---------------------------------------------------------------- facts

export type FactStatus = 'active' | 'disputed' | 'retracted' | 'expired';

export interface FactData {
  subject: string;
  predicate: string;
  object: string;
  /** Where it comes from (a URL, a file, a commit, a memory id); null only when the policy allows. */
  source: string | null;
  observedAt: string;
  /** 0–1; null only when the policy allows. */
  confidence: number | null;
  validUntil: string | null;
  status: FactStatus;
  /** Set by a person (never by a model). */
  verification: { state: 'unverified' } | { state: 'verified'; by: string; at: string; evidence: string };
  /** Ids of the facts this one is disputed with (empty unless status is disputed). */
  disputedWith: string[];
  /** Why and by whom it was retracted, when it was. */
  retraction: { by: string; at: string; reason: string } | null;
  /** Who made the assertion this version carries (a dispute's new version is written by someone else). */
  assertedBy?: string;
  /**
   * Normalised objects of facts with the same subject and predicate that a person reviewed and
   * kept alongside this one ("keep both"): asserting them again does not dispute this fact.
   */
  keptWith?: string[];
}

/** Fact records: status = status, keys = normalised subject, predicate, object; rank = confidence; dueAt = validUntil. */
export function factColumns(d: FactData): Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'> {
  return {
    status: d.status,
    keys: [normalizeKey(d.subject), normalizeKey(d.predicate), normalizeKey(d.object)],
    rank: d.confidence ?? 0,
    dueAt: d.validUntil,
  };
}

// ---------------------------------------------------------------- skills

export interface SkillStep {
  /** What to do. */
  do: string;
  /** The real tool or command used, when there is one. */
  tool?: string;
  /** The observable output that shows the step worked; absent for a plain-text step of the seed's shape. */
  expect?: string;
}

export interface SkillData {
  /** Lower-case identifier (a-z, 0-9, -), unique among live skills. */
  name: string;
  description: string;
  /** Phrases of tasks this skill is for. */
  trigger: string[];
  preconditions: string[];
  tools: string[];
  steps: SkillStep[];
  success_checks: string[];
  failure_handling: string[];
  /** The episodes it was promoted from, and who ran them (empty for a hand-written skill). */
  evidence: { episodes: string[]; executors: string[] };
}

/**
 * What a skill record's data holds: the skill, and on a version written by approving a
 * proposal, that proposal's id (provenance of the version, not part of the playbook: it is
 * never shown in the YAML nor compared).
 */
export type SkillRecordData = SkillData & { proposalId?: string };

/** Skill records: status 'active', keys = [name, '', ''], rank 0, no due time. The record's version is the skill's version. */
export function skillColumns(d: SkillData): Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'> {
  return { status: 'active', keys: [normalizeKey(d.name), '', ''], rank: 0, dueAt: null };
}

// ---------------------------------------------------------------- proposals

export type ProposalTarget = 'fact' | 'skill' | 'memory';
export type ProposalState = 'pending' | 'approved' | 'rejected';

export interface ProposalData {
  target: ProposalTarget;
  /** What approving does: create a new item, or a new version of `targetId`. */
  action: 'create' | 'edit';
  targetId: string | null;
  /**
   * The version of the item approving would change, as it was when proposed (null: no such
   * item existed); approving refuses when it changed meanwhile. Absent when not pinned.
   */
  targetVersion?: number | null;
  /** The validated input of the write, as the target's service takes it. */
  payload: Record<string, unknown>;
  /** One line a person reads in the Pending view. */
  summary: string;
  proposedBy: string;
  proposedAt: string;
  /** What validation found: near-duplicates of existing items, warnings. */
  validation: { duplicates: Array<{ kind: string; id: string; similarity: number; label: string }>; warnings: string[] };
  decision: { state: 'approved' | 'rejected'; by: string; at: string; reason: string; resultId: string | null } | null;
}

/** Proposal records: status = pending|approved|rejected, keys = [target, targetId or '', ''], rank 0. */
export function proposalColumns(d: ProposalData): Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'> {
  return { status: d.decision?.state ?? 'pending', keys: [d.target, d.targetId ?? '', ''], rank: 0, dueAt: null };
}

// ---------------------------------------------------------------- lifecycle reports

export interface ReportData {
  ranAt: string;
  trigger: 'activation' | 'schedule' | 'command' | 'cli';
  expiredFacts: string[];
  /**
   * Facts this run marked disputed because they contradict another live fact of a single-valued
   * relation and no write had recorded it (each side came from another clone, through a git merge).
   */
  disputedOnMerge: string[];
  forgottenEpisodes: number;
  archivedEpisodes: number;
  /** Skill drafts proposed from evidence in this run (proposal ids). */
  promotions: string[];
  /** Since the previous report, in this process: searches answered, results returned, results read afterwards. */
  searchReads: { searches: number; returned: number; read: number };
  /** Where the next run's check for merged contradictions carries on (a relation and a position in its facts); null: from the start. */
  mergeCheckResume: { relation: string; after: { rank: number; changedAt: string; id: string } | null } | null;
}

/** Report records: status 'run', keys = [trigger, '', ''], dueAt = ranAt. */
export function reportColumns(d: ReportData): Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'> {
  return { status: 'run', keys: [d.trigger, '', ''], rank: 0, dueAt: d.ranAt };
}

/** The record's data as the kind's shape (records are our own output; services wrote them). */
export const asEpisode = (r: StoredRecord) => r.data as unknown as EpisodeData;
export const asFact = (r: StoredRecord) => r.data as unknown as FactData;
export const asSkill = (r: StoredRecord) => r.data as unknown as SkillRecordData;
export const asProposal = (r: StoredRecord) => r.data as unknown as ProposalData;
export const asReport = (r: StoredRecord) => r.data as unknown as ReportData;
