import type { z } from 'zod';
import { type CitationChecker, STALE_NOTE, uncheckedViews } from './citations';
import type { CitationInput, Freshness, StoredCitation } from './contract/citations';
import type * as C from './contract/memories';
import { ValidationError } from './errors';
import type { Store, StoredVersion } from './ports/store';
import { instructionLikeField } from './screening';

/**
 * The citations side of the memory domain (MemoryService): code cited by a write is anchored
 * to the workspace as it is now, and a memory read, listed or found is told whether that code
 * has changed since. Without a workspace (`checker` undefined) nothing can be cited, and what was
 * cited elsewhere is shown unchecked.
 */
export class MemoryCitations {
  constructor(
    private readonly store: Store,
    private readonly checker: CitationChecker | undefined,
  ) {}

  /** Citations given by a write, anchored now; refused when a cited file or line does not exist, or no workspace is open. */
  anchor(citations: CitationInput[]): StoredCitation[] {
    if (citations.length === 0) return [];
    if (!this.checker) {
      throw new ValidationError(
        'citations',
        'citing code needs a workspace to check it against, and none is open here; leave citations out',
      );
    }
    return this.checker.anchor(citations);
  }

  /** An edit's citations: the ones given, anchored now, or the memory's own anchored again to the code as it is now. */
  edited(given: CitationInput[] | undefined, cur: StoredVersion): StoredCitation[] {
    if (given) return this.anchor(given);
    if (!cur.citations?.length) return [];
    return this.checker ? this.checker.reanchor(cur.citations) : cur.citations;
  }

  /** A version as read: its citations checked against the workspace, and a note when it is stale. */
  async read(v: StoredVersion): Promise<z.output<typeof C.ReadOutput>> {
    const base = {
      id: v.id,
      description: v.description,
      tags: v.tags,
      content: v.content,
      changedAt: v.changedAt,
      ...(v.deletedAt ? { deletedAt: v.deletedAt } : {}),
      author: v.author,
      version: v.version,
      // Marked for the model that reads it, from the text itself: memories stored before screening are marked too.
      ...instructionLikeField(v),
    };
    if (!v.citations?.length) return base;
    if (!this.checker) return { ...base, citations: uncheckedViews(v.citations), freshness: 'unchecked' };
    const checked = await this.checker.check(v.citations);
    return { ...base, ...checked, ...(checked.freshness === 'stale' ? { note: STALE_NOTE } : {}) };
  }

  /** Marks the summaries of memories that cite code fresh or stale (one lookup for the page, a stat per cited file). */
  async withFreshness<T extends { id: string }>(items: T[]): Promise<Array<T & { freshness?: Freshness }>> {
    if (items.length === 0) return items;
    const cited = await this.store.citationsOf(items.map((i) => i.id));
    if (cited.size === 0) return items;
    return items.map((item) => {
      const citations = cited.get(item.id);
      if (!citations) return item;
      const freshness: Freshness = !this.checker ? 'unchecked' : this.checker.isStale(citations) ? 'stale' : 'fresh';
      return { ...item, freshness };
    });
  }
}
