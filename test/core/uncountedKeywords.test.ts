import { strict as assert } from 'node:assert';
import { analyzeMemory, type MemoryToIndex } from '../../src/core/search/analysis';
import { analyzeQuery, type SearchQuery } from '../../src/core/search/query';
import { DEFAULT_RANKING, type RankingOptions } from '../../src/core/search/ranking';
import { Held } from '../../src/core/search/signatures';
import { type KeptCounts, matchCountBounds, rankUncountedKeywords } from '../../src/core/search/uncountedKeywords';
import { corpusQueries, corpusRows, liveMemories, syntheticRows } from '../helpers/builders';
import { groupBySignature, indexOf, readGroups } from '../helpers/signatureGroups';

/** The counts a store keeps as it writes (termCounts.ts), computed from the memories. */
function keptCounts(memories: MemoryToIndex[]): KeptCounts {
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const text = new Map<string, number>();
  const content = new Map<string, number>();
  const tagged = new Map<string, number>();
  const stemmed = new Map<string, number>();
  for (const m of memories) {
    const a = analyzeMemory(m);
    a.terms.forEach((t) => bump(text, t));
    new Set(a.contentTerms).forEach((t) => bump(content, t));
    new Set(m.tags).forEach((t) => bump(tagged, t));
    a.tagStems.forEach((s) => bump(stemmed, s));
  }
  return {
    live: memories.length,
    text: (t) => text.get(t) ?? 0,
    content: (t) => content.get(t) ?? 0,
    tagged: (t) => tagged.get(t) ?? 0,
    stemmed: (s) => stemmed.get(s) ?? 0,
  };
}

/** Queries whose matches were only bounded (some keyword's other words or tags held by someone), and of those, the ones ranked. */
const bounded = { count: 0, ranked: 0 };

/**
 * A query of several keywords ranked without counting, read as a store reads it (readRanking),
 * over the memories grouped by signature; undefined when the counts do not give every keyword's
 * matches exactly, or the ranking declines.
 */
async function uncountedSearch(
  query: SearchQuery,
  memories: MemoryToIndex[],
  counts: KeptCounts,
  options: RankingOptions = DEFAULT_RANKING,
): Promise<string[] | undefined> {
  const prefixedTags = query.keywords.map((kw) => [
    ...new Set(memories.flatMap((m) => m.tags.filter((t) => t !== kw.tag && t.startsWith(kw.tag)))),
  ]);
  const bounds = query.keywords.map((_, k) => matchCountBounds(query, k, counts, prefixedTags[k]!, options));
  if (bounds.some((b) => b === undefined)) return undefined;
  if (bounds.some((b) => b!.lo !== b!.hi)) bounded.count++;
  const possible = (term: string, held: number) => (held === Held.Text ? counts.text(term) : counts.content(term)) > 0;
  const ranked = rankUncountedKeywords(
    query,
    prefixedTags.map((ts) => ts.length > 0),
    bounds as Array<{ lo: number; hi: number }>,
    counts.live,
    possible,
    () => true,
    options,
  );
  if (!ranked) return undefined;
  const ids = await readGroups(ranked, query, groupBySignature(query, memories));
  if (!ids) return undefined;
  if (bounds.some((b) => b!.lo !== b!.hi)) bounded.ranked++;
  return ids;
}

/** Fails unless the query, when ranked without counts, gives SearchIndex's ids; whether it was. */
async function sameAsIndex(
  q: SearchQuery,
  memories: MemoryToIndex[],
  counts: KeptCounts,
  index: ReturnType<typeof indexOf>,
): Promise<boolean> {
  const ids = await uncountedSearch(q, memories, counts);
  if (!ids) return false;
  assert.deepEqual(
    ids,
    index.search(q).map((h) => h.id),
    `${q.keywords.map((k) => k.raw).join(' + ')} limit ${q.limit} tags ${q.tags.join(',')}`,
  );
  return true;
}

describe('ranking a query of several keywords without counts (uncountedKeywords.ts)', function () {
  this.timeout(120_000);

  it('bounds a plain keyword’s matches: the word’s holders, at most also those of its other words and of tags without the word', () => {
    const memories = liveMemories(syntheticRows(3000));
    const counts = keptCounts(memories);
    const index = indexOf(memories);
    let exact = 0;
    for (const word of ['cache', 'build', 'test', 'flaky', 'webpack', 'index', 'error', 'server', 'type', 'nowhere']) {
      const q = analyzeQuery([word, 'zzz'], [], 10);
      const prefixed = [
        ...new Set(memories.flatMap((m) => m.tags.filter((t) => t !== q.keywords[0]!.tag && t.startsWith(q.keywords[0]!.tag)))),
      ];
      const b = matchCountBounds(q, 0, counts, prefixed)!;
      // What SearchIndex counts: the memories the keyword matches (its hits for the word alone, at any limit).
      const matching = index.search(analyzeQuery([word], [], 100_000)).filter((h) => h.matchedKeywords > 0).length;
      assert.ok(b.lo <= matching && matching <= b.hi, `${word}: ${b.lo} <= ${matching} <= ${b.hi}`);
      if (b.lo === b.hi) exact++;
    }
    assert.ok(exact >= 4, `${exact} exact`);
    assert.equal(matchCountBounds(analyzeQuery(['keep-alive', 'x'], [], 10), 0, counts, []), undefined, 'a compound');
    assert.equal(matchCountBounds(analyzeQuery(['docker compose', 'x'], [], 10), 0, counts, []), undefined, 'two words');
    const withSynonym = { ...counts, text: (t: string) => (t === 'mistak' ? 7 : counts.text(t)) };
    const b = matchCountBounds(analyzeQuery(['error', 'x'], [], 10), 0, withSynonym, [])!;
    assert.equal(b.hi - b.lo, 7, 'another word for it, held by 7, may add them');
  });

  it('gives SearchIndex’s ids for pairs and triples of words and tags of a synthetic corpus, at every limit and under tag filters', async () => {
    const memories = liveMemories(syntheticRows(3000));
    const counts = keptCounts(memories);
    const index = indexOf(memories);
    const words = new Set<string>();
    for (const m of memories.slice(0, 200)) {
      for (const w of m.description.split(/\s+/)) words.add(w);
      for (const t of m.tags) words.add(t);
    }
    const list = [...words, 'unknownword', 'type'];
    const queries: string[][] = [];
    for (let i = 0; i < list.length; i++)
      queries.push(
        [list[i]!, list[(i * 7 + 3) % list.length]!],
        [list[i]!, list[(i * 5 + 1) % list.length]!, list[(i * 11 + 2) % list.length]!],
      );
    let ranked = 0;
    for (const keywords of queries)
      for (const [limit, tags] of [
        [1, []],
        [5, []],
        [50, []],
        [10, ['cache']],
      ] as Array<[number, string[]]>) {
        const q = analyzeQuery(keywords, tags, limit);
        if (q.keywords.length >= 2 && (await sameAsIndex(q, memories, counts, index))) ranked++;
      }
    assert.ok(ranked > 150, `${ranked} queries of several keywords ranked without counts`);
  });

  it('gives SearchIndex’s ids when a few memories hold other words for the keywords, so only bounds of the weights are known', async () => {
    // Other words for error, test, build, cache and fail (synonyms.ts) in a few memories each.
    const others = ['mistake', 'fault', 'trial', 'construct', 'hoard', 'miscarry'];
    const extra = others.flatMap((w, i) =>
      Array.from({ length: 3 + i }, (_, j) => ({
        id: `00000000-0000-4000-9000-${String(i * 100 + j).padStart(12, '0')}`,
        description: `A ${w} in the ${j % 2 ? 'deploy' : 'schema'} step`,
        tags: j % 3 ? ['lock'] : ['network'],
        content: `Seen ${w} ${j} times`,
        changedAt: new Date(Date.UTC(2025, 2, 1, 0, i * 10 + j)).toISOString(),
      })),
    );
    const memories = [...liveMemories(syntheticRows(3000)), ...extra];
    const counts = keptCounts(memories);
    const index = indexOf(memories);
    const words = ['error', 'test', 'build', 'cache', 'fail', 'deploy', 'schema', 'lock', 'network', 'flaky', 'retry', 'timeout'];
    const before = { ...bounded };
    let ranked = 0;
    for (const a of words)
      for (const b of words)
        for (const c of [undefined, 'slow', 'socket']) {
          if (a >= b) continue;
          for (const limit of [1, 5, 50]) {
            if (await sameAsIndex(analyzeQuery(c ? [a, b, c] : [a, b], [], limit), memories, counts, index)) ranked++;
          }
        }
    const boundedRanked = bounded.ranked - before.ranked;
    assert.ok(boundedRanked > 60, `ranked with bounded weights: ${boundedRanked} of ${bounded.count - before.count} (${ranked} in all)`);
  });

  for (const set of ['eval', 'eval2'])
    it(`gives SearchIndex’s ids for ${set}'s queries, also when only weak and partial hits are returned`, async () => {
      const memories = liveMemories(corpusRows(set));
      const counts = keptCounts(memories);
      const queries = corpusQueries(set).map((q) => q.keywords);
      // Pairs of the queries' words too: some match one keyword only, or none wholly.
      const words = [...new Set(queries.flat().flatMap((k) => k.split(/\s+/)))];
      for (let i = 0; i + 1 < words.length; i += 2) queries.push([words[i]!, words[i + 1]!]);
      const strict = { ...DEFAULT_RANKING, minCoverage: 0.9 };
      const paths = { all: 0, weak: 0, none: 0 };
      for (const options of [DEFAULT_RANKING, strict]) {
        const index = indexOf(memories, options);
        for (const keywords of queries)
          for (const limit of [1, 3, 10]) {
            const q = analyzeQuery(keywords, [], limit);
            if (q.keywords.length < 2) continue;
            const ids = await uncountedSearch(q, memories, counts, options);
            if (!ids) continue;
            const hits = index.search(q);
            if (hits.length === 0) paths.none++;
            else if (hits[0]!.matchedKeywords >= 2) paths.all++;
            else paths.weak++;
            assert.deepEqual(
              ids,
              hits.map((h) => h.id),
              `${keywords.join(' + ')} limit ${limit} minCoverage ${options.minCoverage}`,
            );
          }
      }
      assert.ok(
        paths.all > 20 && paths.weak > 20,
        `answered with hits matching enough keywords ${paths.all}, weak ones only ${paths.weak}`,
      );
    });
});
