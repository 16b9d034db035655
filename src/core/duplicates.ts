/**
 * Likely duplicate memories: two memories whose descriptions and tags say the same thing, so a
 * writer should edit the one that exists rather than add another. Similarity is the Jaccard
 * index of the terms the search index files them under (analysis.ts, describedTerms: compounds
 * split, stop words dropped, Porter stems; tags by their parts). Candidates come from the
 * store (Store.similar: only the memories that may be alike enough are read). The
 * threshold and the measure are checked on labelled pairs in test/core/duplicates.test.ts.
 */
import type { MemorySummary } from './contract/memories';
import type { StoredHit } from './ports/store';
import { jaccard } from './playbook/skillMatch';
import { describedTerms } from './search/analysis';

/** At or above this similarity two memories are likely duplicates (shared by creates, proposals and the duplicates listing). */
export const LIKELY_DUPLICATE = 0.6;
/** Most candidates asked of Store.similar for one memory. */
const CANDIDATES = 20;

type Described = Pick<MemorySummary, 'description' | 'tags'>;

/** A live memory close to another: its id, description, and the similarity, rounded to 2 places. */
export interface SimilarMemory {
  id: string;
  description: string;
  similarity: number;
}

/** A pair of live memories that are likely duplicates, `a` the older of the two by id order. */
export interface DuplicatePair {
  a: MemorySummary;
  b: MemorySummary;
  similarity: number;
}

/** Where candidates come from: the store (Store.similar). */
export interface SimilarSource {
  similar(terms: ReadonlySet<string>, min: number, limit: number): Promise<Array<StoredHit & { similarity: number }>>;
}

const round = (n: number) => Math.round(n * 100) / 100;
/** The least raw similarity that rounds to LIKELY_DUPLICATE. */
const LEAST = LIKELY_DUPLICATE - 0.005;

/** How alike two memories' descriptions and tags are: 0 (nothing shared) to 1 (the same terms). */
export function memorySimilarity(a: Described, b: Described): number {
  return round(jaccard(describedTerms(a), describedTerms(b)));
}

/** Live memories likely to duplicate `m` (not `except`), most similar first, at most `max`. */
export async function nearDuplicates(source: SimilarSource, m: Described, except: string | null = null, max = 5): Promise<SimilarMemory[]> {
  const mine = describedTerms(m);
  if (mine.size === 0) return [];
  const candidates = await source.similar(mine, LEAST, CANDIDATES + 1);
  return candidates
    .filter((h) => h.id !== except)
    .map((h) => ({ id: h.id, description: h.description, similarity: round(h.similarity) }))
    .filter((h) => h.similarity >= LIKELY_DUPLICATE)
    .sort((x, y) => y.similarity - x.similarity)
    .slice(0, max);
}

/**
 * Every pair of live memories that are likely duplicates, most similar first: each memory's
 * description and tags are checked once (Store.similar), and a pair is kept once whichever side found it.
 */
export async function duplicatePairs(source: SimilarSource, memories: MemorySummary[]): Promise<DuplicatePair[]> {
  const byId = new Map(memories.map((m) => [m.id, m]));
  const pairs = new Map<string, DuplicatePair>();
  for (const m of memories) {
    for (const d of await nearDuplicates(source, m, m.id, CANDIDATES)) {
      const other = byId.get(d.id);
      if (!other) continue;
      const [a, b] = m.id < other.id ? [m, other] : [other, m];
      pairs.set(`${a.id} ${b.id}`, { a, b, similarity: d.similarity });
    }
  }
  return [...pairs.values()].sort((x, y) => y.similarity - x.similarity || x.a.id.localeCompare(y.a.id));
}

/** Most tags a memory holds (the contract's tagsMax). */
const TAGS_MAX = 12;

/**
 * What the kept memory of a merge holds: its own description, its tags then the other's (at
 * most 12), and its content followed by the other's (unless it already contains it), so nothing
 * the other said is lost; the other is then deleted, and history keeps both as they were.
 */
export function mergedFields(
  keep: { tags: string[]; content: string },
  other: { description: string; tags: string[]; content: string },
): { tags: string[]; content: string } {
  const tags = [...new Set([...keep.tags, ...other.tags])].slice(0, Math.max(TAGS_MAX, keep.tags.length));
  const content = keep.content.includes(other.content.trim())
    ? keep.content
    : `${keep.content.trimEnd()}\n\n---\n\nMerged from "${other.description}":\n\n${other.content.trim()}\n`;
  return { tags, content };
}
