import * as fs from 'node:fs';
import { ANALYZER_VERSION, type SavedIndex, SearchIndex } from '../../core/search/searchIndex';
import type { StoredCitation } from '../../core/contract/citations';
import type { StoredVersion } from '../../core/ports/store';
import { isNewer, type VersionKey } from '../../core/ports/versionOrder';
import { writeFileAtomic } from './atomicFile';
import { AppliedLines, type SavedLines } from './appliedLines';
import type { JournalPosition } from './journal';

/** Format of the saved view file; bump when its shape changes (3: the index's content postings, slot gaps; 4: the consumed lines; 5: tag postings). */
const VIEW_FORMAT = 5;

interface Head extends VersionKey {
  deleted: boolean;
}

interface SavedView {
  format: number;
  analyzer: number;
  journal: { offset: number; tailSha: string; tailLength: number };
  /** The lines consumed, by key, to catch up with a journal git changed without replaying it (format 4). */
  lines: SavedLines;
  /** [id, changedAt, version, rowId, deleted 0|1] of every id's current version. */
  heads: Array<[string, string, number, string, 0 | 1]>;
  purged: string[];
  /** The citations of live memories that cite code (format 2). */
  cited: Array<[string, StoredCitation[]]>;
  index: SavedIndex;
}

/**
 * What searches need, without the database: the current version key of every id and the
 * search index of the live ones. Applying a version is monotonic (an older one changes
 * nothing), so the same journal lines may be applied twice, in any process state. Saved
 * next to the snapshot (search-index.json), it lets a process answer its first search
 * without loading the database at all.
 */
export class CurrentView {
  constructor(readonly index = new SearchIndex()) {}

  private readonly heads = new Map<string, Head>();
  private readonly purged = new Set<string>();
  private readonly cited = new Map<string, StoredCitation[]>();

  /** The citations of the live memories among `ids` that cite code. */
  citationsOf(ids: readonly string[]): Map<string, StoredCitation[]> {
    const found = new Map<string, StoredCitation[]>();
    if (this.cited.size === 0) return found;
    for (const id of ids) {
      const c = this.cited.get(id);
      if (c) found.set(id, c);
    }
    return found;
  }

  /** Applies one stored version; returns whether it became the current one. */
  apply(row: StoredVersion): boolean {
    if (this.purged.has(row.id)) return false;
    const head = this.heads.get(row.id);
    if (head && !isNewer(row, head)) return false;
    this.heads.set(row.id, { changedAt: row.changedAt, version: row.version, rowId: row.rowId, deleted: row.deletedAt !== null });
    if (row.citations?.length && !row.deletedAt) this.cited.set(row.id, row.citations);
    else this.cited.delete(row.id);
    if (row.deletedAt) this.index.remove(row.id);
    else this.index.put({ id: row.id, description: row.description, tags: row.tags, changedAt: row.changedAt, content: row.content });
    return true;
  }

  /** Each id's current rowId (`purged` for a purged id): what two views agree on when they describe the same journal. */
  headRowIds(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [id, head] of this.heads) out.set(id, head.rowId);
    for (const id of this.purged) out.set(id, 'purged');
    return out;
  }

  /** Whether any version of `id` was applied, or it was purged: when not, the database holds no row of it either. */
  knows(id: string): boolean {
    return this.heads.has(id) || this.purged.has(id);
  }

  purge(id: string): void {
    this.purged.add(id);
    this.heads.delete(id);
    this.cited.delete(id);
    this.index.remove(id);
  }

  /** Writes the view as of `position` (temp file, fsync, rename) if `commit()` still agrees at rename time. */
  save(file: string, position: JournalPosition, lines: AppliedLines, commit: () => boolean = () => true): boolean {
    const saved: SavedView = {
      format: VIEW_FORMAT,
      analyzer: ANALYZER_VERSION,
      journal: { offset: position.offset, tailSha: position.tailSha, tailLength: position.tailLength },
      lines: lines.save(),
      heads: [...this.heads].map(([id, h]) => [id, h.changedAt, h.version, h.rowId, h.deleted ? 1 : 0]),
      purged: [...this.purged],
      cited: [...this.cited],
      index: this.index.save(),
    };
    return writeFileAtomic(file, JSON.stringify(saved), commit);
  }

  /**
   * Loads a saved view if it exists, parses and was made by this analysis, with the journal
   * position it describes (ino 0: the caller checks that the journal still continues it, or
   * reconciles through the lines). Otherwise the reason, when there was a file: the view is a
   * cache and is rebuilt.
   */
  static load(file: string): { view: CurrentView; position: JournalPosition; lines: AppliedLines } | { reason?: string } {
    let saved: SavedView;
    try {
      saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedView;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : { reason: `it could not be read (${(err as Error).message})` };
    }
    if (saved.format !== VIEW_FORMAT || saved.analyzer !== ANALYZER_VERSION) return { reason: 'it was made by another release' };
    const { offset, tailSha, tailLength } = saved.journal;
    let view: CurrentView;
    let lines: AppliedLines;
    try {
      lines = AppliedLines.restore(saved.lines);
      view = new CurrentView(SearchIndex.restore(saved.index));
      for (const [id, changedAt, version, rowId, deleted] of saved.heads)
        view.heads.set(id, { changedAt, version, rowId, deleted: deleted === 1 });
      for (const id of saved.purged) view.purged.add(id);
      for (const [id, citations] of saved.cited) view.cited.set(id, citations);
    } catch (err) {
      return { reason: `it is damaged (${(err as Error).message})` };
    }
    return { view, position: { ino: 0, offset, tailSha, tailLength }, lines };
  }

  /** Builds the view from the current rows of a database. */
  static fromRows(current: Iterable<StoredVersion>, purged: Iterable<string>): CurrentView {
    const view = new CurrentView();
    for (const id of purged) view.purged.add(id);
    for (const row of current) view.apply(row);
    return view;
  }
}
