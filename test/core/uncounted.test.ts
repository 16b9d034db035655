import { strict as assert } from 'node:assert';
import { analyzeMemory, type MemoryToIndex } from '../../src/core/search/analysis';
import { analyzeQuery, type SearchQuery } from '../../src/core/search/query';
import { DEFAULT_RANKING, type RankingOptions } from '../../src/core/search/ranking';
import { rankUncounted, type TermStats } from '../../src/core/search/uncounted';
import { corpusQueries, corpusRows, liveMemories, syntheticRows } from '../helpers/builders';
import { groupBySignature, indexOf, readGroups } from '../helpers/signatureGroups';

/** How many of `memories` hold each term in any field, as a store keeps it (TermStats), computed once per list. */
const statsCache = new WeakMap<MemoryToIndex[], TermStats>();
function statsOf(memories: MemoryToIndex[]): TermStats {
  let stats = statsCache.get(memories);
  if (stats) return stats;
  const df = new Map<string, number>();
  for (const m of memories) {
    const a = analyzeMemory(m);
    for (const t of new Set([...a.terms, ...a.contentTerms])) df.set(t, (df.get(t) ?? 0) + 1);
  }
  stats = { df: (t) => df.get(t) ?? 0, live: memories.length };
  statsCache.set(memories, stats);
  return stats;
}

/**
 * What a store does with an uncounted ranking: each block's returnable memories newest first,
 * blocks best first, up to the limit; the partial blocks (up to their limit) only when the
 * passing blocks return nothing. Undefined when the query needs counts.
 */
async function uncountedSearch(
  query: SearchQuery,
  memories: MemoryToIndex[],
  options: RankingOptions = DEFAULT_RANKING,
): Promise<string[] | undefined> {
  const groups = groupBySignature(query, memories);
  const prefixed = groups.some((g) => g.tagMatch[0] === 1);
  return readGroups(rankUncounted(query, prefixed, statsOf(memories), options), query, groups);
}

/** An evaluation corpus's live memories, their times on 200 distinct minutes (so blocks tie on time), and its queries' keywords. */
function evalMemories(set: string): { memories: MemoryToIndex[]; keywords: string[][] } {
  const memories = liveMemories(corpusRows(set)).map((m, i) => ({
    ...m,
    changedAt: new Date(Date.UTC(2025, 0, 1, 0, i % 200)).toISOString(),
  }));
  return { memories, keywords: corpusQueries(set).map((q) => q.keywords) };
}

describe('ranking a one-word query without counts (uncounted.ts)', () => {
  it('is given for one keyword of one plain word; for any other single keyword only with its terms’ document frequencies', () => {
    const stats: TermStats = { df: (t) => t.length, live: 100 };
    for (const keywords of [['cache'], ['caching'], ['Error'], ['c#'], ['n+1'], ['fix']])
      assert.ok(rankUncounted(analyzeQuery(keywords, [], 10), true), keywords.join(' '));
    for (const keywords of [['keep-alive'], ['getByRole'], ['docker compose']]) {
      assert.equal(rankUncounted(analyzeQuery(keywords, [], 10), true), undefined, `${keywords.join(' ')} without stats`);
      assert.ok(rankUncounted(analyzeQuery(keywords, [], 10), true, stats), `${keywords.join(' ')} with stats`);
      assert.equal(rankUncounted(analyzeQuery(keywords, [], 10), true, { ...stats, live: 0 }), undefined, 'no live memory');
    }
    for (const keywords of [['cache', 'build'], ['the'], [], ['one two three four five six seven eight nine']])
      assert.equal(rankUncounted(analyzeQuery(keywords, [], 10), true, stats), undefined, keywords.join(' '));
    assert.equal(rankUncounted(analyzeQuery(['cache'], [], 0), true), undefined, 'nothing to return');
  });

  it('gives SearchIndex’s ids for every word, tag and pair of words of a synthetic corpus, at every limit and under tag filters', async () => {
    const memories = liveMemories(syntheticRows(3000));
    const index = indexOf(memories);
    const words = new Set<string>();
    const pairs = new Set<string>();
    for (const m of memories) {
      const ws = m.description.split(/\s+/);
      for (const w of ws) words.add(w);
      for (let i = 0; i + 1 < ws.length; i += 3) pairs.add(`${ws[i]} ${ws[i + 1]}`);
      for (const t of m.tags) words.add(t);
    }
    let ranked = 0;
    let compound = 0;
    for (const word of [...words, ...[...pairs].slice(0, 60), 'type', 'unknownword', 'indexes', 'tested', 'cache-build', 'testIndexes']) {
      for (const limit of [1, 3, 10, 50, 5000]) {
        const q = analyzeQuery([word], [], limit);
        const ids = await uncountedSearch(q, memories);
        if (!ids) continue;
        ranked++;
        if (q.keywords[0]!.units.length > 1 || q.keywords[0]!.units.some((u) => u.parts.length > 0)) compound++;
        assert.deepEqual(
          ids,
          index.search(q).map((h) => h.id),
          `${word} limit ${limit}`,
        );
      }
      for (const tags of [['cache'], ['test', 'ci'], ['nowhere']]) {
        const q = analyzeQuery([word], tags, 10);
        const ids = await uncountedSearch(q, memories);
        if (ids)
          assert.deepEqual(
            ids,
            index.search(q).map((h) => h.id),
            `${word} tags ${tags.join(',')}`,
          );
      }
    }
    assert.ok(ranked >= 5 * 30, `most one-word queries are ranked without counts (${ranked})`);
    assert.ok(compound >= 5 * 50, `keywords of several words or a compound, ranked without counts: ${compound}`);
  });

  for (const set of ['eval', 'eval2'])
    it(`gives SearchIndex’s ids for every keyword and word of ${set}'s queries and every tag of its memories, with the fallback below the floor`, async () => {
      const { memories, keywords } = evalMemories(set);
      const words = new Set([...keywords.flat(), ...keywords.flat().flatMap((k) => k.split(/\s+/)), ...memories.flatMap((m) => m.tags)]);
      // With the floor above a description match of the word (0.75), only exact and inflected tags pass: the rest is the fallback.
      const strict = { ...DEFAULT_RANKING, minCoverage: 1.1 };
      for (const options of [DEFAULT_RANKING, strict]) {
        const index = indexOf(memories, options);
        let ranked = 0;
        let partial = 0;
        for (const word of words)
          for (const limit of [1, 3, 10]) {
            const q = analyzeQuery([word], [], limit);
            const ids = await uncountedSearch(q, memories, options);
            if (!ids) continue;
            ranked++;
            const hits = index.search(q);
            if (hits.length > 0 && hits.every((h) => h.coverage < options.minCoverage)) partial++;
            assert.deepEqual(
              ids,
              hits.map((h) => h.id),
              `${word} limit ${limit} minCoverage ${options.minCoverage}`,
            );
          }
        assert.ok(ranked > 300, `${ranked} ranked`);
        if (options === strict) assert.ok(partial > 10, `words answered only below the floor: ${partial}`);
      }
    });
});
