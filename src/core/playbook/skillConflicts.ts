import { ConflictError } from '../errors';
import type { StoredRecord } from '../ports/records';

// The conflicts a skill save is refused with (skillService.ts): each names who changed the skill and when, and what to do.

/** Why a save whose expected version (null: none) is not the live one is refused, and what to do. */
export function saveConflict(name: string, expected: number | null, live: StoredRecord | undefined): ConflictError {
  if (expected === null) {
    return new ConflictError(
      `skill "${name}" exists (version ${live!.version}, saved by ${live!.author} at ${live!.changedAt}), but this save was meant to create it; read it and save a new version of it, or choose another name`,
      live!.version,
    );
  }
  return new ConflictError(
    live
      ? `skill "${name}" is at version ${live.version}, not ${expected}: someone changed it since you read it; read it again and re-apply your change`
      : `skill "${name}" has no live version (expected ${expected}); save without expectedVersion to create it`,
    live?.version,
  );
}

/** A document that says it is `said` while the skill has moved on to `cur` (a teammate's version, or a delete). */
export function staleDocument(name: string, said: number, cur: StoredRecord): ConflictError {
  const what = cur.deletedAt
    ? `was deleted at version ${cur.version} (by ${cur.author} at ${cur.deletedAt})`
    : `is at version ${cur.version} (saved by ${cur.author} at ${cur.changedAt})`;
  return new ConflictError(
    `skill "${name}" ${what}, but this document says version ${said}: saving it would overwrite that change. ` +
      `Export the current version, re-apply your change and save that; or, to replace it on purpose, set "version: ${cur.version}" in the document`,
    cur.version,
  );
}
