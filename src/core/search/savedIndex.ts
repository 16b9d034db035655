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
  ids: StringColumn;
  descriptions: StringColumn;
  changedAt: StringColumn;
  /** Per slot, how many tags; `tagRefs` holds them all in order, each as its index among `tags.terms`. */
  tagCounts: Uint32Array;
  tagRefs: Uint32Array;
  terms: SavedPostings;
  /** Postings of the tags as written (exact tag matches, required tags, the vocabulary). */
  tags: SavedPostings;
  tagStems: SavedPostings;
  /** Postings of content terms (see Analysis.contentTerms). */
  content: SavedPostings;
}

export function writeIndex(w: PackWriter, s: SavedIndex): void {
  w.bytes(s.live).strings(s.ids).strings(s.descriptions).strings(s.changedAt).u32(s.tagCounts).u32(s.tagRefs);
  for (const p of [s.terms, s.tags, s.tagStems, s.content]) w.strings(p.terms).u32(p.counts).u32(p.sizes).bytes(p.lists);
}

export function readIndex(r: PackReader): SavedIndex {
  const [live, ids, descriptions, changedAt, tagCounts, tagRefs] = [r.bytes(), r.strings(), r.strings(), r.strings(), r.u32(), r.u32()];
  const postings = (): SavedPostings => ({ terms: r.strings(), counts: r.u32(), sizes: r.u32(), lists: r.bytes() });
  return {
    live,
    ids,
    descriptions,
    changedAt,
    tagCounts,
    tagRefs,
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
  /** Where each slot's tags start in tagRefs. */
  private readonly tagStart: Uint32Array;
  private readonly tagNames: string[];
  /** Live slots not taken yet. */
  private left = 0;

  constructor(private readonly s: SavedIndex) {
    const n = s.live.length;
    if ([s.ids, s.descriptions, s.changedAt, s.tagCounts].some((c) => c.length !== n))
      throw new Error('saved index: the columns differ in length');
    this.tagNames = s.tags.terms.all();
    this.tagStart = new Uint32Array(n + 1);
    for (let slot = 0; slot < n; slot++) {
      this.tagStart[slot + 1] = this.tagStart[slot]! + s.tagCounts[slot]!;
      if (s.live[slot]) this.left++;
    }
    if (this.tagStart[n] !== s.tagRefs.length) throw new Error('saved index: the tags do not add up');
    for (const ref of s.tagRefs) if (ref >= this.tagNames.length) throw new Error('saved index: a tag is not in the vocabulary');
  }

  get slots(): number {
    return this.s.live.length;
  }

  /** Memories not taken yet. */
  get remaining(): number {
    return this.left;
  }

  has(slot: number): boolean {
    return this.s.live[slot] === 1;
  }

  /** Every slot's id ('' for a free one), decoded at once, without taking the memories. */
  ids(): string[] {
    return this.s.ids.all();
  }

  /** The memory in `slot` (live: check `has`), read from the columns; the slot is the caller's from now on. */
  take(slot: number): Doc {
    this.s.live[slot] = 0;
    this.left--;
    return this.read(slot);
  }

  /** The memory in `slot` (live: check `has`), read from the columns and left there (a save reads every one). */
  read(slot: number): Doc {
    const s = this.s;
    const tags = new Array<string>(s.tagCounts[slot]!);
    for (let k = 0, at = this.tagStart[slot]!; k < tags.length; k++) tags[k] = this.tagNames[s.tagRefs[at + k]!]!;
    return { id: s.ids.get(slot), description: s.descriptions.get(slot), tags, changedAt: s.changedAt.get(slot) };
  }
}
