/**
 * The one storage interface. The domain (src/core) talks only to this; each backend
 * (the workspace sql.js store, later PostgreSQL) implements it and passes the same
 * contract tests. Rows are never updated in place: a change is a new version row.
 */

import type { StoredCitation } from '../contract/citations';
import type { RecordStore } from './records';
import type { SearchQuery } from '../search/query';
import type { VersionOp } from './versionOp';
import type { VersionOrigin } from './origin';

export type { VersionOp };

/** One version of one memory, exactly as stored and as written to the journal. */
export interface StoredVersion extends VersionOrigin {
  /** Unique per version row; makes journal replay and import idempotent. */
  rowId: string;
  /** The memory's id (a UUID), shared by all its versions. */
  id: string;
  /**
   * 1, 2, 3… per id; a new version gets the highest number so far + 1. After journals are
   * merged two rows may share a number (distinct rowIds); both are kept.
   */
  version: number;
  op: VersionOp;
  description: string;
  tags: string[];
  content: string;
  /** ISO-8601 UTC with milliseconds; strictly increasing per id. */
  changedAt: string;
  /** Set on the version that deleted the memory. */
  deletedAt: string | null;
  author: string;
  /** For a restore: the version whose data was restored. */
  restoredFrom?: number | null;
  /** The code this version cites (absent or null: none), fingerprinted when it was written. */
  citations?: StoredCitation[] | null;
}

/** A current memory in a listing (no content: listings stay small). */
export interface ListedMemory {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
  deletedAt: string | null;
}

/** Position in a listing ordered by changedAt descending, then id. */
export interface ListCursor {
  changedAt: string;
  id: string;
}

/** Something the store noticed and set aside (a corrupt snapshot, a torn journal line). */
export interface StoreWarning {
  code:
    | 'corrupt-snapshot'
    | 'stale-snapshot'
    | 'index-rebuilt'
    | 'torn-journal-tail'
    | 'bad-journal-line'
    | 'unknown-journal-entry'
    | 'checkpoint-failed'
    | 'local-index'
    | 'lock';
  message: string;
  /** Where the unreadable part was kept, when it was set aside. */
  keptAt?: string;
}

/** A search hit in rank order. */
export interface StoredHit {
  id: string;
  description: string;
  tags: string[];
  changedAt: string;
}

/** Decides, from the freshest current row (undefined for a new id), the row to append, or null for none. */
export type WriteDecision = (current: StoredVersion | undefined, maxVersion: number) => StoredVersion | null;

/** What a writer knows beside its decision. */
export interface WriteOptions {
  /**
   * The caller has just made this id (a random UUID): a store that pays for reading the current
   * row (a round trip to a server) may decide on none first; should the id exist after all, it
   * reads it and decides again before anything is written.
   */
  newId?: boolean;
}

export interface Store {
  /** Where the data lives, for messages and logs. */
  readonly location: string;
  /**
   * The database role this store's connection writes as (PostgreSQL: `current_user`, what the
   * database records and enforces); null where there is none (the workspace store).
   */
  readonly dbRole: string | null;
  /** Versioned records of the other tiers (episodes, facts, skills, proposals, reports): records.ts. */
  readonly records: RecordStore;

  /** The newest version of `id` (deleted or not), or undefined. */
  current(id: string): Promise<StoredVersion | undefined>;
  /**
   * One specific version. Two rows can share a number when journals were merged (two
   * clones each edited version n); the newer of them by versionOrder answers.
   */
  version(id: string, version: number): Promise<StoredVersion | undefined>;
  /** All versions of `id`, oldest first in versionOrder (so the last is the current one). */
  history(id: string): Promise<StoredVersion[]>;
  /** Current memories, newest change first, `limit` at a time. */
  list(options: { deleted: boolean; limit: number; after?: ListCursor }): Promise<ListedMemory[]>;
  /** Ranked search over current, non-deleted memories. */
  search(query: SearchQuery): Promise<StoredHit[]>;
  /**
   * Current, non-deleted memories whose description and tag terms are at least `min` alike to
   * `terms` (Jaccard over analysis.ts's describedTerms), most alike first (then most recently
   * changed, then by id), at most `limit`. A create checks for duplicates with it, so a store
   * reads only the memories that may be alike enough (those holding one of the rarer terms, or
   * a few terms together: core/search/similarProbe.ts), not every memory a common term reaches.
   */
  similar(terms: ReadonlySet<string>, min: number, limit: number): Promise<Array<StoredHit & { similarity: number }>>;
  /** The citations of the current versions of `ids` that have any (search hits and list pages are checked with these). */
  citationsOf(ids: readonly string[]): Promise<Map<string, StoredCitation[]>>;
  /** Tags of current, non-deleted memories, with counts, most used first. */
  tagCounts(): Promise<Array<{ tag: string; count: number }>>;

  /**
   * The only write path for versions. Runs `decide` while holding the store's write lock,
   * with every write of every other process applied, then durably appends the row it
   * returns. If `decide` throws, nothing is written.
   */
  write(id: string, decide: WriteDecision, options?: WriteOptions): Promise<StoredVersion | null>;
  /**
   * Appends the rows that are not stored yet (by rowId) in one durable write; returns how
   * many were new. A crash during that write can keep a prefix of them: importing the same
   * rows again completes it, since stored rows are skipped.
   */
  importVersions(rows: StoredVersion[]): Promise<{ added: number; skipped: number }>;
  /**
   * Optional, for a store that can fill itself faster in one go than batch by batch: loads the
   * rows of `batches`, in order, as importVersions would, when the store holds no memory yet, all
   * or nothing (a batch that throws, or any failure, leaves it empty). Returns undefined without
   * reading `batches` when it cannot (it holds memories, or may not load this way): import in
   * batches then. The team database builds its indexes once, at the end (bulkLoad.ts).
   */
  loadIntoEmpty?(batches: AsyncIterable<StoredVersion[]>): Promise<{ added: number; skipped: number } | undefined>;
  /** Every stored version row, in the order they were stored. */
  exportVersions(): AsyncIterable<StoredVersion>;
  /**
   * Hard-deletes every version of `id` (for a leaked secret). Returns how many rows went. The
   * tombstone that keeps imports from bringing it back records `author`: the person who purged.
   */
  purge(id: string, author: string): Promise<number>;

  /** What the store noticed since it was opened. */
  warnings(): StoreWarning[];
  /** Flushes a checkpoint if one is due and releases files. */
  close(): Promise<void>;
}
