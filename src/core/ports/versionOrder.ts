import type { StoredVersion } from './store';

/** What decides which of two versions of one id is the newer. */
export type VersionKey = Pick<StoredVersion, 'changedAt' | 'version' | 'rowId'>;

/**
 * Orders two versions of one id: the later change wins; version and rowId break ties, so
 * every process (and every merged journal) picks the same current version.
 */
export function isNewer(a: VersionKey, b: VersionKey): boolean {
  if (a.changedAt !== b.changedAt) return a.changedAt > b.changedAt;
  if (a.version !== b.version) return a.version > b.version;
  return a.rowId > b.rowId;
}

/**
 * The newest row of each key among `rows` (isNewer), with the highest version number any row of
 * that key has (a head keeps it even when an older-by-time row holds the larger number).
 */
export function newestByKey<R extends VersionKey>(rows: Iterable<R>, keyOf: (row: R) => string): Map<string, R & { maxVersion: number }> {
  const newest = new Map<string, R & { maxVersion: number }>();
  for (const r of rows) {
    const k = keyOf(r);
    const prev = newest.get(k);
    const maxVersion = Math.max(r.version, prev?.maxVersion ?? 0);
    if (!prev || isNewer(r, prev)) newest.set(k, { ...r, maxVersion });
    else prev.maxVersion = maxVersion;
  }
  return newest;
}
