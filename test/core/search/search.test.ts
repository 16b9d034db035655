import { strict as assert } from 'node:assert';
import { analyzeMemory, CONTENT_TERMS } from '../../../src/core/search/analysis';
import { analyzeQuery } from '../../../src/core/search/query';
import { SearchIndex, type IndexedMemory, type MemoryToIndex } from '../../../src/core/search/searchIndex';
import { postingLists, throughFile } from '../../helpers/packed';

/** A timestamp `n` minutes after a fixed start: larger n is more recent. */
function at(n: number): string {
  return new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
}

function mem(id: string, description: string, tags: string[], minute = 0): IndexedMemory {
  return { id, description, tags, changedAt: at(minute) };
}

function indexOf(...memories: MemoryToIndex[]): SearchIndex {
  const index = new SearchIndex();
  for (const m of memories) index.put(m);
  return index;
}

function ids(index: SearchIndex, keywords: string[], options: { tags?: string[]; limit?: number } = {}): string[] {
  return index.search(analyzeQuery(keywords, options.tags ?? [], options.limit ?? 10)).map((h) => h.id);
}

/** Filler memories so IDF has a corpus to work with, none matching the test keywords. */
function filler(count: number): IndexedMemory[] {
  const topics = ['webpack bundle size', 'react state update', 'docker image playbook', 'npm peer conflict', 'git rebase conflict'];
  return Array.from({ length: count }, (_, i) => mem(`f${i}`, `Note ${i} about ${topics[i % topics.length]}`, ['misc'], i));
}

describe('SearchIndex ranking', () => {
  it('ranks an exact tag match above a description match, even when the description match is newer', () => {
    const index = indexOf(
      mem('tagged', 'Slow builds after upgrading the toolchain', ['redis', 'builds'], 1),
      mem('described', 'Redis connections leaked under load', ['networking'], 2),
    );
    assert.deepEqual(ids(index, ['redis']), ['tagged', 'described']);
  });

  it('ranks a memory matching two keywords above one matching one, even by exact tag, newer and with a higher score', () => {
    const index = indexOf(
      mem('both', 'Docker compose starts the api before the database', ['startup'], 1),
      mem('one', 'Healthcheck reports healthy too early', ['healthcheck'], 9),
      ...Array.from({ length: 6 }, (_, i) => mem(`dc${i}`, `Docker compose volume note ${i}`, ['volumes'], 2 + i)),
    );
    const hits = index.search(analyzeQuery(['docker', 'compose', 'healthcheck'], [], 10));
    const both = hits.find((h) => h.id === 'both')!;
    const one = hits.find((h) => h.id === 'one')!;
    assert.equal(both.matchedKeywords, 2);
    assert.equal(one.matchedKeywords, 1);
    assert.ok(one.score > both.score, 'the rare exact tag outscores two common words');
    assert.equal(hits[hits.length - 1]!.id, 'one');
  });

  it('matches inflections: `caching` finds a memory described with `cache`', () => {
    const index = indexOf(mem('m', 'Cleared the build cache key', ['build']), ...filler(5));
    assert.deepEqual(ids(index, ['caching']), ['m']);
    assert.deepEqual(ids(index, ['caches']), ['m']);
  });

  it('matches British and American spellings alike', () => {
    const index = indexOf(mem('m', 'Line endings normalised to LF', ['git']), ...filler(5));
    assert.deepEqual(ids(index, ['normalizing']), ['m']);
  });

  it('lets a keyword match a tag by prefix: `type` finds tag `typescript`', () => {
    const index = indexOf(mem('ts', 'Path aliases fail at runtime', ['typescript']), ...filler(5));
    assert.deepEqual(ids(index, ['type']), ['ts']);
    // Too short a prefix is no match.
    assert.deepEqual(ids(index, ['ty']), []);
  });

  it('ranks an inflected tag (`indexes` ~ `index`) above a description mention', () => {
    const index = indexOf(
      mem('tag', 'Migration locks the table', ['index'], 1),
      mem('text', 'Rebuilt the indexes overnight', ['maintenance'], 2),
    );
    assert.deepEqual(ids(index, ['indexes']), ['tag', 'text']);
  });

  it('ranks the word itself in a description above a tag it merely starts', () => {
    const index = indexOf(
      mem('prefix', 'Workflow permissions for releases', ['github-actions'], 2),
      mem('word', 'git refuses the repository: dubious ownership', ['ci'], 1),
    );
    assert.deepEqual(ids(index, ['git']), ['word', 'prefix']);
  });

  it('breaks ties by the most recently changed, whatever the insertion order', () => {
    const older = mem('older', 'Flaky cache in CI', ['ci'], 1);
    const newer = mem('newer', 'Flaky cache in CI', ['ci'], 5);
    assert.deepEqual(ids(indexOf(older, newer), ['cache']), ['newer', 'older']);
    assert.deepEqual(ids(indexOf(newer, older), ['cache']), ['newer', 'older']);
  });

  it('weighs a rare keyword above a common one when both match one keyword', () => {
    const common = Array.from({ length: 8 }, (_, i) => mem(`docker${i}`, `Docker note ${i}`, ['misc'], 10 + i));
    const index = indexOf(mem('rare', 'Healthcheck reports healthy too early', ['misc'], 0), ...common);
    // `rare` is the oldest; it wins on the weight of `healthcheck`, which only it matches.
    assert.equal(ids(index, ['docker', 'healthcheck'])[0], 'rare');
  });

  it('finds a compound however it is written: keepalive, keep-alive, keep alive', () => {
    const index = indexOf(
      mem('hyphen', 'Node keep-alive timeout shorter than the load balancer', ['node']),
      mem('joined', 'Disabled keepalive on the proxy', ['proxy']),
      ...filler(5),
    );
    assert.deepEqual(ids(index, ['keepalive']).sort(), ['hyphen', 'joined']);
    assert.deepEqual(ids(index, ['keep-alive']).sort(), ['hyphen', 'joined']);
    assert.deepEqual(ids(index, ['keep alive']), ['hyphen']);
  });

  it('matches a pasted error message on most of its distinctive words', () => {
    const index = indexOf(
      mem('hit', 'Migration failed: CREATE INDEX CONCURRENTLY is not allowed in a transaction', ['postgres']),
      mem('miss', 'Transaction retries on serialization failure', ['postgres']),
      ...filler(6),
    );
    assert.deepEqual(ids(index, ['ERROR: CREATE INDEX CONCURRENTLY cannot run inside a transaction block']), ['hit']);
  });

  it('applies the tag filter: a result must carry every given tag', () => {
    const index = indexOf(mem('both', 'Cache misses in CI', ['ci', 'cache'], 1), mem('one', 'Cache misses locally', ['cache'], 2));
    assert.deepEqual(ids(index, ['cache'], { tags: ['ci', 'cache'] }), ['both']);
    assert.deepEqual(ids(index, ['cache'], { tags: ['cache'] }), ['one', 'both']);
    assert.deepEqual(ids(index, ['cache'], { tags: ['nonexistent'] }), []);
  });

  it('does not return removed memories, nor the old text of replaced ones', () => {
    const index = indexOf(mem('a', 'Webpack polyfills for buffer', ['webpack'], 1), mem('b', 'Vite env prefix', ['vite'], 2));
    index.remove('a');
    assert.deepEqual(ids(index, ['webpack', 'buffer']), []);
    index.put(mem('b', 'Esbuild top-level await target', ['esbuild'], 3));
    assert.deepEqual(ids(index, ['vite']), []);
    assert.deepEqual(ids(index, ['esbuild']), ['b']);
    assert.equal(index.size, 1);
    assert.deepEqual(index.tagCounts(), [{ tag: 'esbuild', count: 1 }]);
    index.remove('unknown'); // ignored
  });

  it('saves and restores to an index that answers the same and can still remove and replace', () => {
    const original = indexOf(
      ...filler(30),
      mem('a', 'Webpack polyfills for buffer', ['webpack', 'node-polyfills'], 40),
      mem('b', 'Vite env prefix', ['vite'], 41),
      mem('c', 'Caching the pnpm store in CI', ['ci', 'pnpm'], 42),
    );
    original.remove('f3');
    const restored = SearchIndex.restore(throughFile(original.save()));
    for (const q of [['webpack'], ['buffer', 'polyfill'], ['cache', 'ci'], ['note', 'docker'], ['vit']]) {
      assert.deepEqual(ids(restored, q), ids(original, q), q.join(' '));
    }
    assert.deepEqual(restored.tagCounts(), original.tagCounts());
    restored.remove('a');
    restored.put(mem('b', 'Esbuild top-level await target', ['esbuild'], 43));
    assert.ok(!ids(restored, ['webpack', 'polyfills']).includes('a'), 'a removed memory is not found');
    assert.deepEqual(ids(restored, ['vite']), []);
    assert.deepEqual(ids(restored, ['esbuild']), ['b']);
    restored.put(mem('d', 'Docker layer caching', ['docker'], 44));
    assert.equal(ids(restored, ['docker', 'layer'])[0], 'd');
    assert.equal(restored.size, original.size);
  });

  it('answers the same when memories come with their analysis (putAnalyzed), and removes and replaces them', () => {
    const memories = [
      ...filler(30),
      mem('a', 'Webpack polyfills for buffer', ['webpack', 'node-polyfills'], 40),
      mem('b', 'Vite env prefix', ['vite'], 41),
    ];
    const analysed = new SearchIndex();
    for (const m of memories) analysed.putAnalyzed(m, analyzeMemory(m));
    const plain = indexOf(...memories);
    for (const q of [['webpack'], ['buffer', 'polyfill'], ['note', 'docker'], ['vit']])
      assert.deepEqual(ids(analysed, q), ids(plain, q), q.join(' '));
    analysed.remove('a');
    analysed.putAnalyzed(
      mem('b', 'Esbuild top-level await target', ['esbuild'], 43),
      analyzeMemory({ description: 'Esbuild top-level await target', tags: ['esbuild'] }),
    );
    assert.ok(!ids(analysed, ['webpack', 'polyfills']).includes('a'), 'a removed memory is not found');
    assert.deepEqual(ids(analysed, ['vite']), []);
    assert.deepEqual(ids(analysed, ['esbuild']), ['b']);
    assert.equal(analysed.size, 31);
  });

  it('honours the limit and returns the same best hits as a full sort would', () => {
    const memories = Array.from({ length: 60 }, (_, i) =>
      mem(
        `m${i}`,
        `Build ${i % 3 === 0 ? 'cache' : 'log'} ${i % 4 === 0 ? 'flaky' : 'slow'} on CI`,
        i % 5 === 0 ? ['cache'] : ['ci'],
        (i * 37) % 60,
      ),
    );
    const index = indexOf(...memories);
    const all = index.search(analyzeQuery(['cache', 'flaky'], [], 50));
    assert.ok(all.length > 5);
    for (const limit of [1, 3, 5]) {
      const top = index.search(analyzeQuery(['cache', 'flaky'], [], limit));
      assert.equal(top.length, limit);
      assert.deepEqual(
        top.map((h) => h.id),
        all.slice(0, limit).map((h) => h.id),
      );
    }
    // The full list is in rank order.
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1]!;
      const b = all[i]!;
      assert.ok(
        a.matchedKeywords > b.matchedKeywords ||
          (a.matchedKeywords === b.matchedKeywords && (a.score > b.score || (a.score === b.score && a.changedAt >= b.changedAt))),
      );
    }
  });

  it('returns nothing for a query of stop words only', () => {
    const index = indexOf(mem('m', 'What to do when the build is slow and it is not the cache', ['build']));
    assert.deepEqual(ids(index, ['the', 'with', 'it is']), []);
  });

  it('does not let a repeated keyword count twice', () => {
    assert.equal(analyzeQuery(['Cache', 'cache', ' cache '], [], 10).keywords.length, 1);
  });

  it('drops memories that match too small a share of the query (relevance floor)', () => {
    const index = indexOf(
      mem('one-word', 'Index rebuilt after the migration', ['postgres'], 1),
      mem('two-words', 'Slow query fixed with a partial index', ['postgres'], 2),
      ...filler(8),
    );
    // `mongodb` and `n+1` are unknown here: a memory sharing only `index` covers too little.
    assert.deepEqual(ids(index, ['mongodb', 'index', 'n+1']), []);
    // A memory matching two of the three keywords is still returned.
    assert.deepEqual(ids(index, ['mongodb', 'index', 'slow query']), ['two-words']);
    // A single keyword matched in full is always enough.
    assert.deepEqual(ids(index, ['index']), ['two-words', 'one-word']);
  });

  it('finds a memory by the distinctive words of its content, below one whose description holds them', () => {
    const index = indexOf(
      {
        ...mem('content', 'Build broke after the toolchain bump', ['rust'], 3),
        content: 'rustc said error[E0308]: mismatched types in the macro.',
      },
      mem('described', 'E0308 mismatched types from a macro', ['rust'], 1),
      ...filler(10),
    );
    assert.deepEqual(ids(index, ['E0308']), ['described', 'content']);
    assert.deepEqual(ids(index, ['error[E0308]: mismatched types']), ['described', 'content']);
    const hit = index.search(analyzeQuery(['E0308'], [], 10));
    assert.ok(hit[1]!.score < hit[0]!.score && hit[1]!.matchedKeywords === 1, 'a content match counts, for less');
  });

  it('files at most CONTENT_TERMS content terms per memory, the code-like ones first', () => {
    const prose = Array.from(
      { length: 60 },
      (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`,
    ).join(' ');
    const a = analyzeMemory({ description: 'Long note', tags: [], content: `${prose} ERR_OSSL_EVP_UNSUPPORTED` });
    assert.equal(a.contentTerms.length, CONTENT_TERMS);
    assert.equal(a.contentTerms[0], 'errosslevpunsupport');
    assert.ok(!a.contentTerms.includes('note'), 'a description term is not filed again as content');
  });

  it('returns only the best hit when no memory matches two keywords of a query, and all hits when one does', () => {
    const index = indexOf(
      mem('consumers', 'Shared config broke its consumers on the new major', ['eslint'], 1),
      mem('consumer-too', 'Consumer lag note', ['metrics'], 2),
      ...filler(10),
    );
    // `rebalance` matches nothing: one shared word is a guess, shown alone.
    assert.deepEqual(ids(index, ['consumer', 'rebalance']), ['consumer-too']);
    index.put(mem('both', 'Kafka consumer group stuck in a rebalance loop', ['kafka'], 0));
    assert.deepEqual(ids(index, ['consumer', 'rebalance']), ['both', 'consumer-too', 'consumers']);
    // A one-keyword query is not held to two.
    assert.deepEqual(ids(index, ['consumer']).length, 3);
  });

  it('falls back to the hits that match one keyword and hold words of another, when no hit matches two', () => {
    const index = indexOf(
      mem('stuck-a', 'Release stuck after a killed upgrade', ['helm'], 1),
      mem('stuck-b', 'Release stuck on a pending install', ['helm'], 2),
      mem('values', 'Values are merged in order', ['helm'], 3),
      mem('unrelated', 'Consumer lag note', ['kafka'], 4),
      ...filler(10),
    );
    // `helm` is matched by all three; only two also hold a word of `release deploy rollback plan`.
    assert.deepEqual(ids(index, ['helm', 'release deploy rollback plan']), ['stuck-b', 'stuck-a']);
    // No hit holds words of a second keyword: the best guess alone, as before.
    assert.deepEqual(ids(index, ['helm', 'websocket']), ['values']);
  });

  it('returns memories holding words of two keywords when none passes, and nothing for words of one keyword only', () => {
    const index = indexOf(
      mem('proxy', 'Python requests fails behind the corporate proxy: point it at the root certificate', ['python', 'tls'], 1),
      mem('pip', 'pip downloads fail on one mirror', ['python', 'pip'], 2),
      ...filler(10),
    );
    // No keyword is held whole; `proxy` holds words of two of them.
    assert.deepEqual(ids(index, ['corporate firewall appliance', 'trusted root bundle']), ['proxy']);
    // Words of one keyword only: a query the memories cannot answer stays empty.
    assert.deepEqual(ids(index, ['corporate firewall appliance', 'websocket']), []);
  });

  it('finds a memory by another word for a query word, below one holding the word itself', () => {
    const index = indexOf(
      mem('error', 'A typo error in the config broke the release', ['config'], 2),
      mem('mistake', 'A mistake in the config broke the release', ['config'], 1),
      ...filler(10),
    );
    // `mistake` and `error` are one WordNet synset; the word itself ranks first, even when older.
    assert.deepEqual(ids(index, ['mistake']), ['mistake', 'error']);
    assert.deepEqual(ids(index, ['error']), ['error', 'mistake']);
  });

  it('matches a compound of stop words (`for_each`) as the word it is', () => {
    const index = indexOf(mem('m', 'Terraform for_each over a map of unknown values', ['terraform']), ...filler(5));
    assert.deepEqual(ids(index, ['for_each']), ['m']);
  });

  it('restores content postings, and removes a restored memory from them', () => {
    const original = indexOf(
      ...filler(10),
      { ...mem('a', 'Release stuck', ['helm'], 20), content: 'Status pending-upgrade after a killed job.' },
      { ...mem('b', 'Chart values', ['helm'], 21), content: 'Values are merged, pending nothing.' },
    );
    const restored = SearchIndex.restore(throughFile(original.save()));
    for (const q of [['pending-upgrade'], ['pending'], ['killed', 'helm']])
      assert.deepEqual(ids(restored, q), ids(original, q), q.join(' '));
    restored.remove('a');
    assert.deepEqual(ids(restored, ['pending-upgrade']), []);
    assert.deepEqual(ids(restored, ['pending']), ['b']);
    restored.put({ ...mem('b', 'Chart values', ['helm'], 22), content: 'Nothing here.' });
    assert.deepEqual(ids(restored, ['pending']), []);
    const saved = restored.save();
    assert.deepEqual(postingLists(saved.content), [['noth', [saved.ids.all().indexOf('b')]]]);
  });

  it('a restored index gives a freed slot to another memory, and files the first one again elsewhere', () => {
    const built = indexOf(...filler(10), mem('a', 'Kafka consumer lag alert', ['kafka'], 20));
    const restored = SearchIndex.restore(throughFile(built.save()));
    restored.remove('a');
    // 'c' takes the slot 'a' left (the only free one); 'a' filed again must not take it back from 'c'.
    restored.put(mem('c', 'Kafka partition rebalance storm', ['kafka'], 21));
    restored.put(mem('a', 'Kafka consumer lag alert, tuned', ['kafka'], 22));
    assert.deepEqual(ids(restored, ['kafka']).sort(), ['a', 'c']);
    restored.remove('a');
    assert.deepEqual(ids(restored, ['kafka']), ['c']);
    assert.equal(restored.size, 11);
  });

  it('a restored index read in part (searched, changed) saves and restores to what was built', () => {
    const memories = [
      ...filler(40),
      { ...mem('a', 'Release stuck in pending-upgrade', ['helm', 'release'], 50), content: 'kubectl rollout undo' },
      { ...mem('b', 'Chart values merged', ['helm'], 51), content: 'Values are merged, pending nothing.' },
      mem('c', 'Naïve café: UTF-8 descriptions 漢字 🙂', ['unicode'], 52),
    ];
    const built = indexOf(...memories);
    const restored = SearchIndex.restore(throughFile(built.save()));
    const queries = [['helm'], ['pending'], ['café'], ['rollout'], ['release', 'helm'], ['unicode']];
    for (const q of queries) assert.deepEqual(ids(restored, q), ids(built, q), q.join(' ')); // some memories read
    // Saved with most memories still unread (a new memory added, nothing removed), then restored.
    for (const index of [built, restored]) index.put(mem('e', 'Brand new entry', ['fresh'], 60));
    const partly = SearchIndex.restore(throughFile(restored.save()));
    assert.equal(partly.size, built.size);
    for (const q of [...queries, ['fresh'], ['webpack'], ['misc'], ['docker', 'playbook']])
      assert.deepEqual(ids(partly, q, { limit: 50 }), ids(built, q, { limit: 50 }), `partly: ${q.join(' ')}`);
    // Then changes that remove restored memories (which reads every memory's content terms).
    for (const index of [built, restored]) {
      index.remove('b');
      index.put({ ...mem('d', 'Helm diff before upgrade', ['helm'], 53), content: 'helm diff upgrade' });
      index.put(mem('a', 'Release stuck, fixed by rollback', ['helm', 'release'], 54));
    }
    const again = SearchIndex.restore(throughFile(restored.save()));
    assert.equal(again.size, built.size);
    assert.equal(restored.save().live.length, built.save().live.length, 'freed slots reused alike');
    for (const q of [...queries, ['rollback'], ['diff'], ['merged']])
      assert.deepEqual(ids(again, q, { limit: 50 }), ids(built, q, { limit: 50 }), `again: ${q.join(' ')}`);
    assert.deepEqual(ids(again, ['unicode']), ['c']);
    // A saved index with a free slot: the next memory filed after a restore takes it.
    again.remove('d');
    const reused = SearchIndex.restore(throughFile(again.save()));
    reused.put(mem('g', 'Goes into the free slot', ['free'], 70));
    assert.equal(reused.save().live.length, again.save().live.length);
    assert.deepEqual(ids(reused, ['free']), ['g']);
  });

  it('returns nothing from an empty index or for an empty query', () => {
    assert.deepEqual(ids(new SearchIndex(), ['cache']), []);
    assert.deepEqual(indexOf(mem('m', 'x cache', ['a'])).search(analyzeQuery([], [], 10)), []);
  });
});
