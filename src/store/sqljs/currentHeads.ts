import { isNewer, type VersionKey } from '../../core/ports/versionOrder';
import type { JournalEntry } from './entries';

/**
 * Each memory id's current version (versionOrder) and the purged ids, from journal entries taken
 * in file order, without analysing any text: the first pass of a cold build (which then files
 * only the heads' lines) and what `doctor` compares the caches with.
 */
export class CurrentHeads {
  /** Each live or deleted id's current version, with the number of the line that holds it. */
  readonly heads = new Map<string, VersionKey & { line: number }>();
  readonly purged = new Set<string>();

  /** Takes the entry of line number `line`. */
  add(entry: JournalEntry, line: number): void {
    if (entry.type === 'memory.purge') {
      this.purged.add(entry.id);
      this.heads.delete(entry.id);
    } else if (entry.type === 'memory.version' && !this.purged.has(entry.row.id)) {
      const { id, changedAt, version, rowId } = entry.row;
      const head = this.heads.get(id);
      if (!head || isNewer(entry.row, head)) this.heads.set(id, { changedAt, version, rowId, line });
    }
  }

  /** As CurrentView.headRowIds: each id's current rowId, `purged` for a purged id. */
  rowIds(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [id, head] of this.heads) out.set(id, head.rowId);
    for (const id of this.purged) out.set(id, 'purged');
    return out;
  }
}
