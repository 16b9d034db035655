import type { StoredVersion } from '../store';

/** Version of the journal line format. Lines with a higher `v` come from a newer release. */
export const JOURNAL_FORMAT = 1;

export type JournalEntry =
  | { v: number; type: 'memory.version'; row: StoredVersion }
  | { v: number; type: 'memory.purge'; id: string; at: string; author: string };

export type ParsedLine =
  | { ok: true; entry: JournalEntry }
  | { ok: false; reason: string; unknown?: boolean };

const isStr = (x: unknown): x is string => typeof x === 'string';

/** Structural check of a stored row: the journal is our own output, so this guards against damage, not input. */
function isRow(r: unknown): r is StoredVersion {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return (
    isStr(o.rowId) && isStr(o.id) && Number.isInteger(o.version) && isStr(o.op) && isStr(o.description) &&
    Array.isArray(o.tags) && o.tags.every(isStr) && isStr(o.content) && isStr(o.changedAt) &&
    (o.deletedAt === null || isStr(o.deletedAt)) && isStr(o.author)
  );
}

export function parseLine(text: string): ParsedLine {
  let e: unknown;
  try {
    e = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'is not valid JSON' };
  }
  if (typeof e !== 'object' || e === null) return { ok: false, reason: 'is not a JSON object' };
  const o = e as Record<string, unknown>;
  if (typeof o.v !== 'number') return { ok: false, reason: 'has no format version' };
  if (o.v > JOURNAL_FORMAT) return { ok: false, reason: `has format ${o.v}, newer than this release (${JOURNAL_FORMAT})`, unknown: true };
  if (o.type === 'memory.version' && isRow(o.row)) return { ok: true, entry: e as JournalEntry };
  if (o.type === 'memory.purge' && isStr(o.id) && isStr(o.at)) return { ok: true, entry: e as JournalEntry };
  return { ok: false, reason: `has an unknown or malformed entry type ${JSON.stringify(o.type)}`, unknown: true };
}

export function versionLine(row: StoredVersion): string {
  return JSON.stringify({ v: JOURNAL_FORMAT, type: 'memory.version', row });
}

export function purgeLine(id: string, at: string, author: string): string {
  return JSON.stringify({ v: JOURNAL_FORMAT, type: 'memory.purge', id, at, author });
}
