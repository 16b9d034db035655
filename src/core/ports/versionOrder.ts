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
