import { ArrayColumn } from '../packed';
import { room } from '../typedArrays';
import type { Doc } from './analysis';
import { SavedDocs, type SavedIndex } from './savedIndex';

/** The memory columns of a saved index (SavedIndex without the postings). */
export type SavedDocColumns = Pick<
  SavedIndex,
  'live' | 'count' | 'ids' | 'descriptions' | 'changedAt' | 'tagStarts' | 'tagRefs' | 'termCounts'
>;

/**
 * The memories of a SearchIndex by slot (the number its posting lists hold), how many
 * description and tag terms each holds, the slot of each id, and the slots free for reuse. A
 * restored one reads a memory from the saved columns when it is first asked for (SavedDocs),
 * finds a slot by id in the saved ids column (a hash table of its bytes, made on the first
 * lookup) and makes the free list when a change first needs it: opening makes no object per
 * memory, and a few changes (a one-shot process catching up a few lines) make none either.
 */
export class DocSlots {
  private readonly slots: Array<Doc | undefined> = [];
  /**
   * Per slot, the memory's distinct description and tag terms (Analysis.terms.length; 0 when
   * free): what a likely-duplicate check needs of each candidate, kept so it reads no memory
   * and analyses no text to rule one out. Grown by doubling; restored from the saved column.
   */
  private counts = new Uint32Array(0);
  /** Slots to reuse, lowest last; undefined until first needed after a restore (free). */
  private freeSlots: number[] | undefined = [];
  /**
   * The slot of every memory by id; undefined after a restore, where `moved` holds the ids placed
   * or released since (undefined: released) and the others are found in the saved ids column.
   */
  private slotsById: Map<string, number> | undefined = new Map();
  private readonly moved = new Map<string, number | undefined>();
  private count = 0;
  /** Set by restore: the memories not read from the columns yet. */
  private saved: SavedDocs | undefined;

  /** Live memories. */
  get size(): number {
    return this.count;
  }

  /** Slots, free ones included (the bound of a slot number). */
  get length(): number {
    return this.slots.length;
  }

  /** The memory in `slot`, read from the saved columns the first time. */
  at(slot: number): Doc | undefined {
    const d = this.slots[slot];
    if (d !== undefined || !this.saved?.has(slot)) return d;
    return (this.slots[slot] = this.saved.take(slot));
  }

  /** The memory in `slot`, without taking it from the saved columns (a save reads every one). */
  peek(slot: number): Doc | undefined {
    return this.slots[slot] ?? (this.saved?.has(slot) ? this.saved.read(slot) : undefined);
  }

  /** When the memory in `slot` changed, or undefined for a free slot (reads nothing else of an unread memory). */
  changedAt(slot: number): string | undefined {
    return this.slots[slot]?.changedAt ?? (this.saved?.has(slot) ? this.saved.changedAt(slot) : undefined);
  }

  slotOf(id: string): number | undefined {
    if (this.slotsById) return this.slotsById.get(id);
    // A memory neither placed nor released since the restore holds its saved slot.
    if (this.moved.has(id)) return this.moved.get(id);
    const slot = this.saved!.slotOf(id);
    return slot < 0 ? undefined : slot;
  }

  /** Per slot, how many distinct description and tag terms its memory holds (0: a free slot; slots past its end hold none). */
  termCounts(): Uint32Array {
    return this.counts;
  }

  /** Puts `doc` (whose id holds no slot, with `termCount` description and tag terms) in a free slot, or a new one; returns the slot. */
  place(doc: Doc, termCount: number): number {
    const slot = this.free().pop() ?? this.slots.length;
    this.slots[slot] = doc;
    this.counts = room(this.counts, slot);
    this.counts[slot] = termCount;
    if (this.slotsById) this.slotsById.set(doc.id, slot);
    else this.moved.set(doc.id, slot);
    this.count++;
    return slot;
  }

  /** Frees `slot`, which `id` holds (slotOf). */
  release(id: string, slot: number): void {
    const free = this.free(); // before the slot is freed: a first look at the free slots would count it
    if (this.slotsById) this.slotsById.delete(id);
    else this.moved.set(id, undefined);
    this.slots[slot] = undefined;
    this.counts[slot] = 0;
    this.count--;
    free.push(slot);
  }

  /** Every live memory read from the saved columns (once, for a pass over all of them). */
  all(): Array<[number, Doc]> {
    const out: Array<[number, Doc]> = [];
    for (let slot = 0; slot < this.slots.length; slot++) {
      const d = this.at(slot);
      if (d) out.push([slot, d]);
    }
    return out;
  }

  /** The columns `restore` takes; `tagNo` numbers the tag vocabulary as the saved tag postings do. */
  save(tagNo: Map<string, number>): SavedDocColumns {
    const n = this.slots.length;
    const live = new Uint8Array(n);
    const ids = new Array<string>(n).fill('');
    const descriptions = new Array<string>(n).fill('');
    const changedAt = new Array<string>(n).fill('');
    const tagStarts = new Uint32Array(n + 1);
    const tagRefs: number[] = [];
    let count = 0;
    for (let slot = 0; slot < n; slot++) {
      // Memories not read since the restore are read for the save and left in the columns.
      const d = this.peek(slot);
      if (d) {
        live[slot] = 1;
        count++;
        ids[slot] = d.id;
        descriptions[slot] = d.description;
        changedAt[slot] = d.changedAt;
        for (const tag of d.tags) tagRefs.push(tagNo.get(tag)!);
      }
      tagStarts[slot + 1] = tagRefs.length;
    }
    return {
      live,
      count,
      ids: new ArrayColumn(ids),
      descriptions: new ArrayColumn(descriptions),
      changedAt: new ArrayColumn(changedAt),
      tagStarts,
      tagRefs: Uint32Array.from(tagRefs),
      // At least one count per slot (grown in place, copied in restore); a free slot's is 0 (release).
      termCounts: this.counts.slice(0, n),
    };
  }

  /** Slots over a saved index's columns, read as they are asked for. Throws when the columns do not agree. */
  static restore(saved: SavedIndex): DocSlots {
    const docs = new DocSlots();
    docs.saved = new SavedDocs(saved);
    docs.slots.length = saved.live.length;
    // A copy: the saved column is a view of the file's bytes, and this one is written to.
    docs.counts = saved.termCounts.slice();
    docs.freeSlots = undefined;
    docs.slotsById = undefined;
    docs.count = saved.count;
    return docs;
  }

  private free(): number[] {
    if (this.freeSlots) return this.freeSlots;
    const free: number[] = [];
    for (let slot = this.slots.length - 1; slot >= 0; slot--) if (!this.slots[slot] && !this.saved?.has(slot)) free.push(slot);
    return (this.freeSlots = free);
  }
}
