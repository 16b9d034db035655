import { MemoryUpkeep } from './memoryUpkeep';
import type { StoredRecord } from './ports/records';
import type { Store, StoredVersion } from './ports/store';

/** Rows per import: each batch is one transaction (PostgreSQL) or one journal append (workspace store). */
const BATCH = 1000;

export interface Counts {
  added: number;
  skipped: number;
}

/** What a copy added and skipped (already present): memory versions, and records of the playbook's tiers. */
export interface CopyResult {
  versions: Counts;
  records: Counts;
}

export interface CopyOptions {
  /** Called after each batch with the running totals (a progress display). */
  onProgress?: (sofar: CopyResult) => void;
}

/** Imports an async stream of rows batch by batch, so memory stays flat at any size. */
async function inBatches<T>(
  rows: AsyncIterable<T>,
  importBatch: (batch: T[], first: number) => Promise<Counts>,
  total: Counts,
  progress: () => void,
): Promise<void> {
  let first = 0;
  for await (const batch of batched(rows, (b) => b)) {
    const r = await importBatch(batch, first);
    total.added += r.added;
    total.skipped += r.skipped;
    first += batch.length;
    progress();
  }
}

/** The rows of `rows` in arrays of BATCH (the last one shorter), each mapped by `check` with the index of its first row. */
async function* batched<T, U>(rows: AsyncIterable<T>, check: (batch: T[], first: number) => U[]): AsyncIterable<U[]> {
  let batch: T[] = [];
  let first = 0;
  for await (const row of rows) {
    batch.push(row);
    if (batch.length < BATCH) continue;
    yield check(batch, first);
    first += batch.length;
    batch = [];
  }
  if (batch.length) yield check(batch, first);
}

/**
 * Copies everything one store holds into another: every memory version with its history, then
 * every record of the playbook's tiers (episodes, facts, skills, proposals, reports), in stored
 * order. Memory versions are checked as any import is (limits, tag rules, secrets). Imports skip
 * rows already stored (by rowId), so a second copy adds nothing and an interrupted copy is
 * completed by running it again. Into a store that holds no memory yet and can load (the team
 * database, Store.loadIntoEmpty), the versions go in as one load: all of them or, interrupted,
 * none. The one copy `migrate` and VS Code's "Connect to Team Database… copy" both use.
 */
export async function copyStore(from: Store, to: Store, options: CopyOptions = {}): Promise<CopyResult> {
  const result: CopyResult = { versions: { added: 0, skipped: 0 }, records: { added: 0, skipped: 0 } };
  const progress = () => options.onProgress?.({ versions: { ...result.versions }, records: { ...result.records } });
  // The author is never used: imported rows keep their own.
  const target = new MemoryUpkeep(to, { author: 'copy' });
  const describe = (first: number) => (i: number) => `version row ${first + i + 1} of ${from.location}`;
  // Into a store that holds no memory yet, in one go where it can (the team database: its indexes
  // built once at the end); nothing is added until the whole load is, so progress comes after it.
  const loaded = await to.loadIntoEmpty?.(
    batched(from.exportVersions(), (batch, first) => target.checkedForImport(batch, describe(first))),
  );
  if (loaded) {
    Object.assign(result.versions, loaded);
    progress();
  } else {
    await inBatches<StoredVersion>(
      from.exportVersions(),
      (batch, first) => target.importVersions(batch, describe(first)),
      result.versions,
      progress,
    );
  }
  await inBatches<StoredRecord>(from.records.exportRecords(), (batch) => to.records.importRecords(batch), result.records, progress);
  return result;
}
