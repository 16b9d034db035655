import { analyzeMemory, type MemoryToIndex } from '../../src/core/search/analysis';
import type { SearchQuery } from '../../src/core/search/query';
import type { RankingOptions } from '../../src/core/search/ranking';
import { SearchIndex } from '../../src/core/search/searchIndex';
import { Held, mayPrefixTag, queryTerms, type Signature } from '../../src/core/search/signatures';
import { readRanking, type Shape, UncertainOrder, type UncountedRanking } from '../../src/core/search/uncounted';

// What the team store's server does, done in memory: how each memory meets a query (its match
// signature), for the tests of the signature rankings (signatures.ts, uncounted.ts).

/** Each memory's analysis, made once (the server keeps it in search_vector). */
const analyses = new WeakMap<MemoryToIndex, ReturnType<typeof analyzeMemory>>();
function analysisOf(m: MemoryToIndex): ReturnType<typeof analyzeMemory> {
  let a = analyses.get(m);
  if (!a) analyses.set(m, (a = analyzeMemory(m)));
  return a;
}

/** What the team store's server does, done here in memory: group the reached memories by signature. */
export function groupBySignature(query: SearchQuery, memories: MemoryToIndex[]): Array<Signature & { members: MemoryToIndex[] }> {
  const terms = queryTerms(query);
  const groups = new Map<string, Signature & { members: MemoryToIndex[] }>();
  for (const m of memories) {
    const a = analysisOf(m);
    const held = terms.map((t) => (a.terms.includes(t) ? Held.Text : a.contentTerms.includes(t) ? Held.Content : Held.No));
    const tagMatch = query.keywords.map((kw, k) => {
      if (m.tags.includes(kw.tag)) return 3;
      if (kw.units.length > 0 && a.tagStems.includes(kw.tagStem)) return 2;
      if (mayPrefixTag(query, k) && m.tags.some((t) => t !== kw.tag && t.startsWith(kw.tag))) return 1;
      return 0;
    });
    if (held.every((h) => h === Held.No) && tagMatch.every((x) => x === 0)) continue;
    const key = JSON.stringify([held, tagMatch]);
    const g = groups.get(key) ?? { terms: held, tagMatch, count: 0, members: [] };
    g.count++;
    g.members.push(m);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** SearchIndex's order within a block: most recently changed first, then by id. */
export function newestFirst(x: MemoryToIndex, y: MemoryToIndex): number {
  return x.changedAt !== y.changedAt ? (x.changedAt > y.changedAt ? -1 : 1) : x.id < y.id ? -1 : 1;
}

/** SearchIndex over `memories`: the order the signature rankings must give. */
export function indexOf(memories: MemoryToIndex[], options: Partial<RankingOptions> = {}): SearchIndex {
  const index = new SearchIndex(options);
  for (const m of memories) index.put(m);
  return index;
}

/**
 * What a store does with an uncounted ranking (readRanking), over the memories' groups: each
 * block's members carrying the required tags, newest first. Undefined when there is no ranking,
 * or when answering needs blocks past those in a sure order (a store then counts the query).
 */
export async function readGroups(
  ranked: UncountedRanking | undefined,
  query: SearchQuery,
  groups: ReturnType<typeof groupBySignature>,
): Promise<string[] | undefined> {
  if (!ranked) return undefined;
  const key = (s: Pick<Shape, 'terms' | 'tagMatch'>) => JSON.stringify([s.terms, s.tagMatch]);
  try {
    const hits = await readRanking<{ id: string }>(ranked, query.limit, (blocks, want) => {
      const out: Array<{ id: string; block: number }> = [];
      blocks.forEach((block, b) => {
        if (out.length >= want) return;
        const keys = new Set(block.map(key));
        const members = groups
          .filter((g) => keys.has(key(g)))
          .flatMap((g) => g.members)
          .filter((m) => query.tags.every((t) => m.tags.includes(t)))
          .sort(newestFirst);
        out.push(...members.slice(0, want - out.length).map((m) => ({ id: m.id, block: b })));
      });
      return Promise.resolve(out);
    });
    return hits.map((h) => h.id);
  } catch (err) {
    if (err instanceof UncertainOrder) return undefined;
    throw err;
  }
}
