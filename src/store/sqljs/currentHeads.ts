import { isNewer, type VersionKey } from '../../core/ports/versionOrder';
import type { CurrentView } from './currentView';
import { parseLine, type JournalEntry } from './entries';
import type { JournalFile } from './journal';

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

/**
 * The second pass of a cold build: files into `view` the versions `heads` found current (by
 * their line numbers), reading the journal's first `until` bytes again, and drops the purged ids.
 * Analysing a memory's text is the costly part, and a version replaced later in the file would
 * be analysed for nothing.
 */
export function fileHeads(heads: CurrentHeads, journal: JournalFile, until: number, view: CurrentView): void {
  const wanted = new Set<number>();
  for (const h of heads.heads.values()) wanted.add(h.line);
  for (const id of heads.purged) view.purge(id);
  const lines = journal.readLines(0, until);
  let n = 0;
  for (let r = lines.next(); !r.done; r = lines.next(), n++) {
    if (!wanted.has(n)) continue;
    const parsed = parseLine(r.value.text);
    if (parsed.ok && parsed.entry.type === 'memory.version') view.apply(parsed.entry.row);
  }
}
