/**
 * Versioned records of the other memory tiers (episodes, facts, skills, proposals, lifecycle
 * reports), stored next to memories by every backend. The store knows nothing of a kind's
 * rules: it keeps versions (append-only, never updated in place, soft delete, hard purge),
 * and answers lookups on the few columns a kind's domain fills in (status, three keys, a
 * rank, a due time). The domain (src/core/playbook) gives them meaning and validates `data`.
 */
import { StorageError } from '../errors';
import type { VersionOp } from './versionOp';
import type { VersionOrigin } from './origin';

/** `usage`: search→read counts a process kept, written when it stops, until a forgetting run reports them. */
export const RECORD_KINDS = ['episode', 'fact', 'skill', 'proposal', 'report', 'usage'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** One version of one record, exactly as stored (and as written to the journal). */
export interface StoredRecord extends VersionOrigin {
  /** Unique per version row; makes replay and import idempotent. */
  rowId: string;
  kind: RecordKind;
  /** The record's id (a UUID), shared by its versions; unique per kind. */
  id: string;
  /** 1, 2, 3… per (kind, id), like memory versions (twins possible after a git merge). */
  version: number;
  op: VersionOp;
  /** The kind's state: a fact's status, an episode's outcome, a proposal's state. */
  status: string;
  /**
   * Three lookup keys as the kind's domain normalised them ('' where unused): a fact's
   * subject, predicate and object; a skill's name; an episode's skill; a proposal's kind.
   */
  keys: [string, string, string];
  /** Sort weight, higher first (a fact's confidence); 0 where the kind has none. */
  rank: number;
  /** The time lifecycle rules look at (an episode's timestamp, a fact's valid_until), or null. */
  dueAt: string | null;
  /** The record itself, as the kind's schema produced it. */
  data: Record<string, unknown>;
  /** ISO-8601 UTC with milliseconds; strictly increasing per (kind, id). */
  changedAt: string;
  deletedAt: string | null;
  author: string;
}

/** Position in a query's order: rank descending, then changedAt descending, then id descending. */
export interface RecordCursor {
  rank: number;
  changedAt: string;
  id: string;
}

/** An exact key match; an array matches any of its values (at most 500). */
export type KeyMatch = string | readonly string[];

/** A lookup over the current version of each record of one kind. */
export interface RecordQuery {
  kind: RecordKind;
  /** keys[0], keys[1], keys[2] must equal (one of) these; undefined matches anything. */
  keys?: readonly [KeyMatch?, KeyMatch?, KeyMatch?];
  /** Any of these statuses; undefined matches any. */
  status?: readonly string[];
  /** false (default): live records only; true: deleted ones only. */
  deleted?: boolean;
  /** Only records whose dueAt is set and earlier than this ISO time. */
  dueBefore?: string;
  /** 1–1000. */
  limit: number;
  after?: RecordCursor;
}

/** What a write's decision may read: the freshest state, every other writer's rows applied. */
export interface RecordReader {
  /** The newest version of (kind, id), deleted or not. */
  get(kind: RecordKind, id: string): Promise<StoredRecord | undefined>;
  /** The highest version number stored for (kind, id); 0 when none. */
  maxVersion(kind: RecordKind, id: string): Promise<number>;
  /** Current versions matching `q`, in rank, changedAt, id order (all descending). */
  query(q: RecordQuery): Promise<StoredRecord[]>;
}

/** Decides, from the freshest state, the rows to append (of any ids of any kinds), or none. */
export type RecordDecision = (reader: RecordReader) => Promise<StoredRecord[]> | StoredRecord[];

export interface RecordStore extends RecordReader {
  /** All versions of (kind, id), oldest first (so the last is the current one). */
  history(kind: RecordKind, id: string): Promise<StoredRecord[]>;
  /** How many current records match (no limit, no cursor). */
  count(q: Omit<RecordQuery, 'limit' | 'after'>): Promise<number>;
  /**
   * The only write path for records. Writers whose decisions read the same records name
   * the same `scope` (say `fact:<subject>`); the store serialises them, runs `decide` with
   * every other writer's rows applied, then appends all the rows it returns atomically:
   * all are stored or none. If `decide` throws, nothing is written.
   */
  write(scope: string, decide: RecordDecision): Promise<StoredRecord[]>;
  /**
   * Hard-deletes every version of these ids (forgetting); returns how many rows went. Imports never
   * bring them back. The tombstone records `author`: the person who ran the purge.
   */
  purge(kind: RecordKind, ids: readonly string[], author: string): Promise<number>;
  /** Appends the rows not stored yet (by rowId); returns how many were new. */
  importRecords(rows: StoredRecord[]): Promise<{ added: number; skipped: number }>;
  /** Every stored record row, in the order they were stored. */
  exportRecords(): AsyncIterable<StoredRecord>;
}

/** Most values one key match may list. */
export const KEY_MATCH_MAX = 500;

/** Refuses a query no backend should run (a caller's bug, not bad user input the domain missed). */
export function checkRecordQuery(q: RecordQuery): void {
  if (!RECORD_KINDS.includes(q.kind)) throw new RangeError(`unknown record kind ${JSON.stringify(q.kind)}`);
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > 1000)
    throw new RangeError(`a record query's limit must be 1–1000, not ${q.limit}`);
  for (const m of [...(q.keys ?? []), q.status]) {
    if (Array.isArray(m) && m.length > KEY_MATCH_MAX)
      throw new RangeError(`a record query may match at most ${KEY_MATCH_MAX} values of one column, not ${m.length}`);
  }
}

/**
 * A write's rows must all be new: two rows of one (kind, id) numbered alike, or a rowId twice,
 * is a decision's bug (PostgreSQL's unique index would refuse it on every attempt; the workspace
 * store would keep both). Both stores refuse such a write whole.
 */
export function checkRecordBatch(rows: readonly StoredRecord[]): void {
  const numbers = new Set<string>();
  const rowIds = new Set<string>();
  for (const r of rows) {
    if (!RECORD_KINDS.includes(r.kind)) throw new RangeError(`unknown record kind ${JSON.stringify(r.kind)}`);
    const n = `${r.kind} ${r.id} version ${r.version}`;
    if (numbers.has(n)) throw new StorageError(`a record write produced two rows of ${n}`);
    if (rowIds.has(r.rowId)) throw new StorageError(`a record write produced row ${r.rowId} twice`);
    numbers.add(n);
    rowIds.add(r.rowId);
  }
}
