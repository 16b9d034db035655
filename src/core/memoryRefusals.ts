import type { StoredVersion } from './ports/store';
import { ConflictError, NotFoundError } from './errors';
import { assertNoSecret } from './secrets';

// The refusals both memory services (MemoryService, MemoryUpkeep) make, worded for whoever
// reads them, a model included: what is wrong, and what to do instead.

/** Refuses a secret in any of the fields given (a refusal names the field). */
export function assertNoSecretFields(fields: Partial<Pick<StoredVersion, 'description' | 'tags' | 'content'>>): void {
  if (fields.description !== undefined) assertNoSecret('description', fields.description);
  if (fields.tags !== undefined) fields.tags.forEach((t, i) => assertNoSecret(`tags[${i}]`, t));
  if (fields.content !== undefined) assertNoSecret('content', fields.content);
}

/** `current`, or a refusal that the memory does not exist. */
export function mustExist(id: string, current: StoredVersion | undefined): StoredVersion {
  if (!current) throw new NotFoundError(`memory ${id} does not exist; search to find the id of an existing memory`);
  return current;
}

/** `current` when it exists and is not deleted; else a refusal saying it cannot be `action` (e.g. 'edited'). */
export function mustBeLive(id: string, current: StoredVersion | undefined, action: string): StoredVersion {
  const cur = mustExist(id, current);
  if (cur.deletedAt) {
    throw new ConflictError(
      `memory ${id} was deleted at ${cur.deletedAt} (version ${cur.version}); it cannot be ${action} unless a person restores it`,
      cur.version,
    );
  }
  return cur;
}

/** Refuses a change made from a version other than the current one (`expected`, when given). */
export function mustBeAt(id: string, cur: StoredVersion, expected: number | undefined): void {
  if (expected !== undefined && expected !== cur.version) {
    throw new ConflictError(
      `memory ${id} is at version ${cur.version}, not ${expected}: someone changed it since you read it; read it again and re-apply your change`,
      cur.version,
    );
  }
}
