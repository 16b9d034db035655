import type { FactProbes } from './factProbes';
import type { Summary } from './stats';

export type FactBackend = 'sqljs' | 'postgres';

/** What the parent hands each facts child process (as a JSON file). */
export interface FactsPlan {
  backend: FactBackend;
  n: number;
  /** Samples per query class and per kind of write. */
  iters: number;
  /** Time budget of each timing loop, both sides alike (it stops early once spent, after at least 20 samples). */
  budgetMs: number;
  /** sql.js: our store's folder (journal + snapshot) and the baseline's database file. */
  storeDir?: string;
  naiveDb?: string;
  /** PostgreSQL: the scratch database (our tables and the baseline's table) and the project. */
  url?: string;
  project: string;
  probes: FactProbes;
}

export const QUERY_CLASSES = ['subject', 'predicateObject', 'object', 'contextSubject', 'contextBoth'] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];
export const WRITE_CLASSES = ['created', 'refreshed', 'disputed'] as const;
export type WriteClass = (typeof WRITE_CLASSES)[number];

export interface FactOpenFigures {
  /** Store open (ours) or file load / connect (baseline). */
  openMs: number;
  /** The first query by subject after open (for sql.js, ours loads the database here). */
  firstQueryMs: number;
  rssMb: number;
}

export interface FactQueryFigures {
  summary: Summary;
  /**
   * Each probe's answer the first time it ran, in probe order: how many facts, and a digest of
   * their ids in order (sorted for contextBoth, whose two lists are merged).
   */
  answers: Array<[count: number, digest: string]>;
}

/** Everything one side measured in one child process. */
export interface FactsSideFigures {
  open: FactOpenFigures;
  queries: Record<QueryClass, FactQueryFigures>;
  writes: Record<WriteClass, Summary>;
  /** Baseline on sql.js: export() alone, per write. */
  exportMs?: Summary;
  rssMb: number;
}
