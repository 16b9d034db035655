import type { Summary } from './stats';

/** Marks the line of a child's stdout that carries its result. */
export const RESULT_PREFIX = 'BENCH_RESULT ';

/** What the parent hands each measuring child process (as a JSON file). */
export interface Plan {
  n: number;
  seed: number;
  /** Our store's folder: journal + snapshot, loaded and closed. */
  storeDir: string;
  /** The naive baseline's database file (type-2 table, exported once). */
  naiveDb: string;
  selective: string[][];
  broad: string[][];
  /** Live memory ids to edit, in order. */
  editIds: string[];
  /** Searches per class and writes per kind for our store. */
  iters: number;
  /** Time budget of each baseline loop (it stops early once spent, after at least 20 samples). */
  baselineBudgetMs: number;
}

export interface SearchFigures {
  selective: Summary;
  broad: Summary;
  /** Mean number of matching memories per query (not limited to the page size). */
  selectiveHits: number;
  broadHits: number;
}

export interface OpenFigures {
  /** SqlJsStore.open (WASM init, snapshot load, journal replay, index build). */
  openMs: number;
  /** The first search after open. */
  firstSearchMs: number;
  rssMb: number;
}

export interface OursFigures {
  open: OpenFigures;
  search: SearchFigures;
  create: Summary;
  edit: Summary;
  write: Summary;
  /** One checkpoint (export + fsync + rename) at the end of the run: paid every 1000 writes. */
  checkpointMs: number;
  versionRows: number;
}

export interface NaiveFigures {
  /** new SQL.Database(file) + the first search. */
  openMs: number;
  firstSearchMs: number;
  rssMb: number;
  search: SearchFigures;
  /** INSERT + export() + write + fsync + rename. */
  write: Summary;
  exportMs: Summary;
}
