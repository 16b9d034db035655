import * as fs from 'node:fs';
import * as path from 'node:path';
import { PackReader, PackWriter, type StringColumn } from '../../core/packed';
import { ANALYZER_VERSION, readIndex, SearchIndex, writeIndex } from '../../core/search/searchIndex';
import type { Analysis } from '../../core/search/analysis';
import type { StoredCitation } from '../../core/contract/citations';
import type { StoredVersion } from '../../core/ports/store';
import { isNewer, type VersionKey } from '../../core/ports/versionOrder';
import { writeFileAtomic } from './atomicFile';
import { AppliedLines, type SavedLines } from './appliedLines';
import type { JournalPosition } from './journal';

/** Format of the saved view file; bump when its shape changes (3: the index's content postings, slot gaps; 4: the consumed lines; 5: tag postings; 6: packed columns; 7: each slot's term count). */
const VIEW_FORMAT = 7;

/** The saved view's file in the store's folder. */
export const VIEW_FILE = 'search-index.bin';
/** Where releases before view format 6 saved it, as JSON: removed once the new file is saved. */
const OLD_VIEW_FILE = 'search-index.json';

interface Head extends VersionKey {
  deleted: boolean;
}

/**
 * The heads as saved, one column a field: made into a map when first needed (a search does not).
 * A live memory's head names its slot in the saved index, whose columns hold its id and time.
 */
interface SavedHeads {
  slots: Uint32Array;
  slotVersions: Float64Array;
  slotRowIds: StringColumn;
  /** The other heads (deleted memories), whole. */
  ids: StringColumn;
  changedAt: StringColumn;
  versions: Float64Array;
  rowIds: StringColumn;
  deleted: Uint8Array;
  /** The saved index's ids and times, by slot. */
  indexIds: StringColumn;
  indexTimes: StringColumn;
}

/** The saved view's first section; heads, the consumed lines' keys and the index follow as columns. */
interface SavedMeta {
  format: number;
  analyzer: number;
  journal: { offset: number; tailSha: string; tailLength: number };
  /** The lines consumed (appliedLines.ts) but their keys. */
  lines: Omit<SavedLines, 'keys'>;
  purged: string[];
  /** The citations of live memories that cite code (format 2). */
  cited: Array<[string, StoredCitation[]]>;
}

/**
 * What searches need, without the database: the current version key of every id and the
 * search index of the live ones. Applying a version is monotonic (an older one changes
 * nothing), so the same journal lines may be applied twice, in any process state. Saved
 * next to the snapshot (VIEW_FILE, packed columns: core/packed.ts), it lets a process answer
 * its first search without loading the database at all.
 */
export class CurrentView {
  constructor(readonly index = new SearchIndex()) {}

  private headMap: Map<string, Head> | undefined = new Map();
  private savedHeads: SavedHeads | undefined;
  /** With savedHeads: the heads set (or, undefined, deleted) since the view was read. */
  private readonly changedHeads = new Map<string, Head | undefined>();
  /** With savedHeads: for each index slot, the position of its live head in the saved columns (-1: none). */
  private headOfSlot: Int32Array | undefined;
  private readonly purged = new Set<string>();
  private readonly cited = new Map<string, StoredCitation[]>();

  /** The current version of every id: read from the saved columns, with the changes since, the first time all are asked for. */
  private get heads(): Map<string, Head> {
    if (this.headMap) return this.headMap;
    const h = this.savedHeads!;
    const map = new Map<string, Head>();
    const [indexIds, indexTimes, slotRowIds] = [h.indexIds.all(), h.indexTimes.all(), h.slotRowIds.all()];
    for (let i = 0; i < h.slots.length; i++) {
      const slot = h.slots[i]!;
      map.set(indexIds[slot]!, { changedAt: indexTimes[slot]!, version: h.slotVersions[i]!, rowId: slotRowIds[i]!, deleted: false });
    }
    const [ids, changedAt, rowIds] = [h.ids.all(), h.changedAt.all(), h.rowIds.all()];
    for (let i = 0; i < ids.length; i++)
      map.set(ids[i]!, { changedAt: changedAt[i]!, version: h.versions[i]!, rowId: rowIds[i]!, deleted: h.deleted[i] === 1 });
    for (const [id, head] of this.changedHeads) {
      if (head) map.set(id, head);
      else map.delete(id);
    }
    this.savedHeads = undefined;
    this.changedHeads.clear();
    this.headOfSlot = undefined;
    return (this.headMap = map);
  }

  /**
   * The current version of `id`. While the heads are still the saved columns (a search, or a
   * one-shot process catching up a few lines, needs no map of them all), looked up there by id.
   */
  private head(id: string): Head | undefined {
    if (this.headMap) return this.headMap.get(id);
    if (this.changedHeads.has(id)) return this.changedHeads.get(id);
    const h = this.savedHeads!;
    const slot = h.indexIds.indexOf(id);
    if (slot >= 0) {
      if (!this.headOfSlot) {
        this.headOfSlot = new Int32Array(h.indexIds.length).fill(-1);
        for (let i = 0; i < h.slots.length; i++) this.headOfSlot[h.slots[i]!] = i;
      }
      const i = this.headOfSlot[slot]!;
      if (i >= 0) return { changedAt: h.indexTimes.get(slot), version: h.slotVersions[i]!, rowId: h.slotRowIds.get(i), deleted: false };
    }
    const k = h.ids.indexOf(id);
    return k < 0
      ? undefined
      : { changedAt: h.changedAt.get(k), version: h.versions[k]!, rowId: h.rowIds.get(k), deleted: h.deleted[k] === 1 };
  }

  private setHead(id: string, head: Head | undefined): void {
    if (!this.headMap) this.changedHeads.set(id, head);
    else if (head) this.headMap.set(id, head);
    else this.headMap.delete(id);
  }

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

  /**
   * Applies one stored version (filed under `analysis` when its journal line carried one, the
   * memory keeping its content terms unless `keepContentTerms` is false: SearchIndex.putAnalyzed);
   * returns whether it became the current one.
   */
  apply(row: StoredVersion, analysis?: Analysis, keepContentTerms = true): boolean {
    if (this.purged.has(row.id)) return false;
    const head = this.head(row.id);
    if (head && !isNewer(row, head)) return false;
    this.setHead(row.id, { changedAt: row.changedAt, version: row.version, rowId: row.rowId, deleted: row.deletedAt !== null });
    if (row.citations?.length && !row.deletedAt) this.cited.set(row.id, row.citations);
    else this.cited.delete(row.id);
    if (row.deletedAt) this.index.remove(row.id);
    else if (analysis)
      this.index.putAnalyzed(
        { id: row.id, description: row.description, tags: row.tags, changedAt: row.changedAt },
        analysis,
        keepContentTerms,
      );
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
    return this.head(id) !== undefined || this.purged.has(id);
  }

  purge(id: string): void {
    this.purged.add(id);
    this.setHead(id, undefined);
    this.cited.delete(id);
    this.index.remove(id);
  }

  /** Writes the view as of `position` (temp file, fsync, rename) if `commit()` still agrees at rename time. */
  save(file: string, position: JournalPosition, lines: AppliedLines, commit: () => boolean = () => true): boolean {
    const { keys, ...consumed } = lines.save();
    const meta: SavedMeta = {
      format: VIEW_FORMAT,
      analyzer: ANALYZER_VERSION,
      journal: { offset: position.offset, tailSha: position.tailSha, tailLength: position.tailLength },
      lines: consumed,
      purged: [...this.purged],
      cited: [...this.cited],
    };
    const bySlot: Array<[number, Head]> = [];
    const whole: Array<[string, Head]> = [];
    for (const [id, h] of this.heads) {
      const slot = h.deleted ? undefined : this.index.slotAt(id, h.changedAt);
      if (slot === undefined) whole.push([id, h]);
      else bySlot.push([slot, h]);
    }
    const w = new PackWriter()
      .json(meta)
      .u32(bySlot.map(([slot]) => slot))
      .f64(bySlot.map(([, h]) => h.version))
      .strings(bySlot.map(([, h]) => h.rowId))
      .strings(whole.map(([id]) => id))
      .strings(whole.map(([, h]) => h.changedAt))
      .f64(whole.map(([, h]) => h.version))
      .strings(whole.map(([, h]) => h.rowId))
      .bytes(Uint8Array.from(whole, ([, h]) => (h.deleted ? 1 : 0)))
      .bytes(keys);
    writeIndex(w, this.index.save());
    if (!writeFileAtomic(file, w.chunks(), commit)) return false;
    fs.rmSync(path.join(path.dirname(file), OLD_VIEW_FILE), { force: true });
    return true;
  }

  /**
   * Loads a saved view if it exists, reads and was made by this analysis, with the journal
   * position it describes (ino 0: the caller checks that the journal still continues it, or
   * reconciles through the lines). Otherwise the reason, when there was a file: the view is a
   * cache and is rebuilt.
   */
  static load(file: string): { view: CurrentView; position: JournalPosition; lines: AppliedLines } | { reason?: string } {
    let r: PackReader;
    let meta: SavedMeta;
    try {
      r = new PackReader(fs.readFileSync(file));
      meta = r.json<SavedMeta>();
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : { reason: `it could not be read (${(err as Error).message})` };
    }
    if (meta.format !== VIEW_FORMAT || meta.analyzer !== ANALYZER_VERSION) return { reason: 'it was made by another release' };
    const { offset, tailSha, tailLength } = meta.journal;
    let view: CurrentView;
    let lines: AppliedLines;
    try {
      const [slots, slotVersions, slotRowIds] = [r.u32(), r.f64(), r.strings()];
      const [ids, changedAt, versions, rowIds, deleted] = [r.strings(), r.strings(), r.f64(), r.strings(), r.bytes()];
      if (slotVersions.length !== slots.length || slotRowIds.length !== slots.length) throw new Error('the heads differ in length');
      if ([changedAt, versions, rowIds, deleted].some((c) => c.length !== ids.length)) throw new Error('the heads differ in length');
      lines = AppliedLines.restore({ ...meta.lines, keys: r.bytes() });
      const index = readIndex(r);
      r.end();
      for (let i = 0; i < slots.length; i++)
        if (index.live[slots[i]!] !== 1) throw new Error('a head names a slot the index does not hold');
      view = new CurrentView(SearchIndex.restore(index));
      const heads: SavedHeads = {
        slots,
        slotVersions,
        slotRowIds,
        ids,
        changedAt,
        versions,
        rowIds,
        deleted,
        indexIds: index.ids,
        indexTimes: index.changedAt,
      };
      view.headMap = undefined;
      view.savedHeads = heads;
      for (const id of meta.purged) view.purged.add(id);
      for (const [id, citations] of meta.cited) view.cited.set(id, citations);
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
