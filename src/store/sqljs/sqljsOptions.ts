import type { SqlJsStatic } from 'sql.js';
import type { StoreWarning } from '../../core/ports/store';

export interface SqlJsStoreOptions {
  /** Folder of the store: journal.jsonl, snapshot.sqlite, search-index.bin, write.lock. Created by the first write. */
  dir: string;
  /** Path of sql-wasm.wasm; by default sql.js finds it next to its own code. */
  wasmPath?: string;
  /** Write a snapshot after this many journal lines since the last one (default 1000). */
  checkpointEvery?: number;
  /** A write lock not refreshed for this long is taken over (default 10 s, at least 2 s). */
  lockStaleMs?: number;
  /** Told about anything set aside or repaired, and about failed background checkpoints. */
  onWarning?: (warning: StoreWarning) => void;
  /**
   * False: a journal changed underneath (a git pull) reloads the caches instead of applying only
   * its new lines; for benchmarks and tests that compare the two (default true).
   */
  incrementalCatchUp?: boolean;
  /** Without a snapshot, a journal of at least this many bytes opens with the search view alone (default 1 MiB; for tests). */
  viewFirstFrom?: number;
}

/**
 * One sql.js instance per process: compiling the WebAssembly module is the expensive part.
 * Its code is loaded on first use too: a process that only searches or creates never needs it.
 */
let sqlJs: Promise<SqlJsStatic> | undefined;
export function loadSqlJs(wasmPath?: string): Promise<SqlJsStatic> {
  sqlJs ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs(wasmPath ? { locateFile: () => wasmPath } : undefined));
  return sqlJs;
}
