/**
 * Import of the seed documents' JSON Lines: the first seed's memory lines (one line per version,
 * no rowId, version or op) and the second seed's episode lines (with their own `id`). Each becomes
 * a stored row whose rowId is derived from what identifies it, so importing a file again adds
 * nothing: a memory line is identified by its id and changedAt, an episode line by its id.
 */
import type { StoredVersion } from './ports/store';
import type { SeedMemoryLine } from './contract';
import { ValidationError } from './errors';
import { sha256Hex } from './nodeCrypto';

/** A UUID (version 8: custom) derived from `key`: the same key always gives the same id. */
export function stableUuid(key: string): string {
  const h = sha256Hex(key).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** The rowId of a seed memory line: its id and changedAt (canonical, so `…00Z` and `…00.000Z` agree). */
export const seedVersionRowId = (id: string, changedAt: string): string => stableUuid(`agent-memory seed memory ${id} ${changedAt}`);

/** The record id of a seed episode line (`evt_20260915_001`): the store's ids are UUIDs. */
export const seedEpisodeId = (id: string): string => stableUuid(`agent-memory seed episode id ${id}`);

/** The rowId of a seed episode line: its id. */
export const seedEpisodeRowId = (id: string): string => stableUuid(`agent-memory seed episode ${id}`);

/** A parsed seed memory line and where it was (for messages). */
export interface SeedLine {
  line: SeedMemoryLine;
  where: string;
}

/**
 * The version rows of one memory's seed lines that the store does not hold yet, in changedAt
 * order, numbered after every stored version of the id. `stored` is the id's stored history.
 * Two lines of one id at one changedAt are one version: the same line twice is kept once,
 * different content is refused (which of them is the version?).
 */
export function seedVersionsOf(lines: readonly SeedLine[], stored: readonly StoredVersion[], author: string): StoredVersion[] {
  const sorted = [...lines].sort((a, b) => Date.parse(a.line.changedAt) - Date.parse(b.line.changedAt));
  const unique: SeedLine[] = [];
  for (const l of sorted) {
    const prev = unique[unique.length - 1];
    if (prev && prev.line.changedAt === l.line.changedAt) {
      if (JSON.stringify(prev.line) === JSON.stringify(l.line)) continue;
      throw new ValidationError(
        l.where,
        `memory ${l.line.id} has two different versions at changedAt ${l.line.changedAt} (also ${prev.where}); one version per time`,
      );
    }
    unique.push(l);
  }
  const have = new Set(stored.map((v) => v.rowId));
  let version = stored.reduce((m, v) => Math.max(m, v.version), 0);
  // Stored versions and new lines in time order: whether the version before a line was deleted decides its op.
  const timeline = [
    ...stored.map((v) => ({ at: v.changedAt, deletedAt: v.deletedAt, line: undefined })),
    ...unique
      .filter((l) => !have.has(seedVersionRowId(l.line.id, l.line.changedAt)))
      .map((l) => ({ at: l.line.changedAt, deletedAt: l.line.deletedAt ?? null, line: l.line })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const out: StoredVersion[] = [];
  let previous: { deletedAt: string | null } | undefined;
  for (const t of timeline) {
    if (t.line) {
      const line = t.line;
      const op: StoredVersion['op'] = t.deletedAt ? 'delete' : !previous ? 'create' : previous.deletedAt ? 'restore' : 'edit';
      out.push({
        rowId: seedVersionRowId(line.id, line.changedAt),
        id: line.id,
        version: ++version,
        op,
        description: line.description,
        tags: line.tags,
        content: line.content,
        changedAt: line.changedAt,
        deletedAt: t.deletedAt,
        author,
        restoredFrom: null,
      });
    }
    previous = t;
  }
  return out;
}
