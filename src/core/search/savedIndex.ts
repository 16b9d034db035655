import { type PackReader, type PackWriter, type StringColumn } from '../packed';
import type { Doc } from './analysis';
import type { SavedPostings } from './postings';

/**
 * An index as saved next to a snapshot: the memories by slot and the postings of terms, tags,
 * tag stems and content terms (postings.ts), so restoring needs no text analysis. Columns,
 * not records: written to and read from a packed file (core/packed.ts) without a parse per value.
 */
export interface SavedIndex {
  /** Per slot, 1 when it holds a memory (0: a free slot, with '' and no tags in the other columns). */
  live: Uint8Array;
  /** How many slots hold a memory. */
  count: number;
  ids: StringColumn;
  descriptions: StringColumn;
  changedAt: StringColumn;
  /** Where each slot's tags start in `tagRefs`, and (last) where they end: one more than the slots. */
  tagStarts: Uint32Array;
  /** Every slot's tags in order, each as its index among `tags.terms`. */
  tagRefs: Uint32Array;
  /** Per slot, how many distinct description and tag terms the memory holds (Analysis.terms; 0 for a free slot). */
  termCounts: Uint32Array;
  terms: SavedPostings;
  /** Postings of the tags as written (exact tag matches, required tags, the vocabulary). */
  tags: SavedPostings;
  tagStems: SavedPostings;
  /** Postings of content terms (see Analysis.contentTerms). */
  content: SavedPostings;
}

export function writeIndex(w: PackWriter, s: SavedIndex): void {
  w.json({ count: s.count })
    .bytes(s.live)
    .strings(s.ids)
    .strings(s.descriptions)
    .strings(s.changedAt)
    .u32(s.tagStarts)
    .u32(s.tagRefs)
    .u32(s.termCounts);
  for (const p of [s.terms, s.tags, s.tagStems, s.content]) w.strings(p.terms).u32(p.counts).u32(p.sizes).bytes(p.lists);
}

export function readIndex(r: PackReader): SavedIndex {
  const { count } = r.json<{ count: number }>();
  const [live, ids, descriptions, changedAt] = [r.bytes(), r.strings(), r.strings(), r.strings()];
  const [tagStarts, tagRefs, termCounts] = [r.u32(), r.u32(), r.u32()];
  const postings = (): SavedPostings => ({ terms: r.strings(), counts: r.u32(), sizes: r.u32(), lists: r.bytes() });
  return {
    live,
    count,
    ids,
    descriptions,
    changedAt,
    tagStarts,
    tagRefs,
    termCounts,
    terms: postings(),
    tags: postings(),
    tagStems: postings(),
    content: postings(),
  };
}

/**
 * The memories of a restored index, read from its saved columns one at a time when a search
 * returns them or a change reaches them: opening makes no object per memory.
 */
export class SavedDocs {
  private readonly tagNames: string[];

  /** Checks what can be checked without a pass over every slot (opening makes none); `read` checks a memory's tags. */
  constructor(private readonly s: SavedIndex) {
    const n = s.live.length;
    if ([s.ids, s.descriptions, s.changedAt, s.termCounts].some((c) => c.length !== n) || s.tagStarts.length !== n + 1)
      throw new Error('saved index: the columns differ in length');
    if (s.tagStarts[n] !== s.tagRefs.length) throw new Error('saved index: the tags do not add up');
    if (!Number.isInteger(s.count) || s.count < 0 || s.count > n) throw new Error('saved index: the count is wrong');
    this.tagNames = s.tags.terms.all();
  }

  has(slot: number): boolean {
    return this.s.live[slot] === 1;
  }

  /** The slot whose saved id is `id` (live or not: check `has` or the slot's memory), or -1. */
  slotOf(id: string): number {
    return id === '' ? -1 : this.s.ids.indexOf(id);
  }

  /** When the memory in `slot` changed (live: check `has`), read alone. */
  changedAt(slot: number): string {
    return this.s.changedAt.get(slot);
  }

  /** The memory in `slot` (live: check `has`), read from the columns; the slot is the caller's from now on. */
  take(slot: number): Doc {
    this.s.live[slot] = 0;
    return this.read(slot);
  }

  /** The memory in `slot` (live: check `has`), read from the columns and left there (a save reads every one). */
  read(slot: number): Doc {
    const s = this.s;
    const start = s.tagStarts[slot]!;
    const end = s.tagStarts[slot + 1]!;
    if (end < start || end > s.tagRefs.length) throw new Error('saved index: the tags of a memory are out of range');
    const tags = new Array<string>(end - start);
    for (let k = 0; k < tags.length; k++) {
      const tag = this.tagNames[s.tagRefs[start + k]!];
      if (tag === undefined) throw new Error('saved index: a tag is not in the vocabulary');
      tags[k] = tag;
    }
    return { id: s.ids.get(slot), description: s.descriptions.get(slot), tags, changedAt: s.changedAt.get(slot) };
  }
}
