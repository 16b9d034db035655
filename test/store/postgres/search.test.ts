import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Client, type PoolClient } from 'pg';
import type { IndexedMemory } from '../../../src/core/search/analysis';
import { analyzeQuery } from '../../../src/core/search/query';
import { SearchIndex } from '../../../src/core/search/searchIndex';
import { SEARCH_TRANSACTION, searchOnServer } from '../../../src/store/postgres/serverSearch';
import { createdRow, liveMemories, openPg, SYNTHETIC_QUERIES, syntheticRows } from '../../helpers/builders';
import { requirePostgres } from '../../helpers/postgres';

type Pg = Awaited<ReturnType<typeof openPg>>;

const minute = (m: number) => new Date(Date.UTC(2025, 5, 1, 0, m)).toISOString();

/** The server's answer (localIndex off) and SearchIndex's over the same live memories. */
async function both(pg: Pg, index: SearchIndex, keywords: string[], tags: string[] = [], limit = 10): Promise<[string[], string[]]> {
  const q = analyzeQuery(keywords, tags, limit);
  return [(await pg.store.search(q)).map((h) => h.id), index.search(q).map((h) => h.id)];
}

/** `client`, recording the text of every statement it runs in `texts`. */
function recording(client: Client, texts: string[]): PoolClient {
  return {
    query: (...args: Parameters<Client['query']>) => {
      texts.push(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text);
      return (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  } as unknown as PoolClient;
}

function indexOf(memories: IndexedMemory[]): SearchIndex {
  const index = new SearchIndex();
  for (const m of memories) index.put(m);
  return index;
}

/**
 * The server-side search (serverSearch.ts): the reached memories counted per match signature,
 * the signatures ranked by core, only the best groups' rows read. It must return exactly what
 * SearchIndex returns over the same memories, in the same order, whatever the query's breadth.
 */
describe('PostgreSQL search on the server: ranked by match signature', function () {
  this.timeout(180_000);
  before(async function () {
    await requirePostgres(this);
  });

  it('returns SearchIndex’s top k over thousands of memories sharing words, with and without a tag filter', async () => {
    const rows = syntheticRows(3000);
    const pg = await openPg({ localIndex: 'off' });
    await pg.store.importVersions(rows);
    const index = indexOf(liveMemories(rows));
    for (const keywords of SYNTHETIC_QUERIES) {
      for (const limit of [1, 3, 10, 50, 400]) {
        const [server, local] = await both(pg, index, keywords, [], limit);
        assert.deepEqual(server, local, `${JSON.stringify(keywords)} limit ${limit}`);
      }
      for (const tags of [['cache'], ['test', 'ci'], ['c#'], ['nowhere']]) {
        const [server, local] = await both(pg, index, keywords, tags);
        assert.deepEqual(server, local, `${JSON.stringify(keywords)} tags ${tags.join(',')}`);
      }
    }
    await pg.store.close();
  });

  it('reads a broad one-keyword query’s best blocks without counting what it reaches, as SearchIndex ranks them', async () => {
    const rows = syntheticRows(3000);
    const pg = await openPg({ localIndex: 'off' });
    await pg.store.importVersions(rows);
    const memories = liveMemories(rows);
    const index = indexOf(memories);
    const words = new Set(['type', 'indexes', 'tested', 'unknownword', 'c#']);
    for (const m of memories) for (const w of [...m.description.split(/\s+/), ...m.tags]) words.add(w);
    // Keywords of two words: weighed by the document frequencies the write path keeps (termCounts.ts).
    for (const m of memories.slice(0, 30)) words.add(m.description.split(/\s+/).slice(1, 3).join(' '));
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    const texts: string[] = [];
    const spy = recording(client, texts);
    // A reach above 20 makes every common word broad; every block likely not empty is walked (the
    // least yield); a walk over the 40 most recent memories rarely fills a block (then its index
    // is read), one over all of them always does.
    const walk = 'FROM (SELECT * FROM memory_heads h WHERE h.project = $1 AND NOT h.deleted ORDER BY';
    const fallbacks = new Map<number, number>();
    for (const tuning of [
      { narrow: 20, walkBudget: 40, walkYield: 1e-9 },
      { narrow: 20, walkBudget: 100_000, walkYield: 1e-9 },
    ]) {
      texts.length = 0;
      let weighed = 0;
      for (const word of words)
        for (const [limit, tags] of [
          [1, []],
          [10, []],
          [50, []],
          [10, ['cache']],
        ] as Array<[number, string[]]>) {
          const q = analyzeQuery([word], tags, limit);
          await client.query(SEARCH_TRANSACTION);
          const first = texts.length;
          const hits = await searchOnServer(spy, pg.project, q, tuning);
          await client.query('COMMIT');
          // A keyword of two words or a compound: its document frequencies read, then its blocks walked, nothing counted.
          const mine = texts.slice(first);
          const counts = mine.findIndex((t) => t.includes('memory_term_counts'));
          if (/[ -]/.test(word) && counts >= 0 && mine[counts + 1]!.includes(walk)) weighed++;
          assert.deepEqual(
            hits.map((h) => h.id),
            index.search(q).map((h) => h.id),
            `${word} limit ${limit} tags ${tags.join(',')} budget ${tuning.walkBudget}`,
          );
        }
      // Statements read right after a walk: a block read by index when the walk came up short.
      fallbacks.set(
        tuning.walkBudget,
        texts.filter(
          (t, i) => i > 0 && texts[i - 1]!.includes(walk) && !t.includes(walk) && !t.includes('UNION ALL') && !t.includes('DISTINCT'),
        ).length,
      );
      assert.ok(texts.filter((t) => t.includes(walk)).length > 100, 'blocks are read by a bounded walk');
      assert.ok(weighed > 20, `keywords of several words or a compound read without counts: ${weighed}`);
    }
    // The shipped rule: blocks batched by their estimated sizes, a block walked only when the walk
    // likely fills it; also queries of two and three keywords (their matches known from the kept counts).
    texts.length = 0;
    const list = [...words];
    const queries = [
      ...list.map((w) => [w]),
      ...list.map((w, i) => [w, list[(i * 7 + 3) % list.length]!]),
      ...list.slice(0, 60).map((w, i) => [w, list[(i * 5 + 1) % list.length]!, list[(i * 11 + 2) % list.length]!]),
    ];
    let several = 0;
    // With a required tag too: a block read through its rarest condition alone still returns only memories carrying it.
    for (const keywords of queries)
      for (const [limit, tags] of [
        [1, []],
        [10, []],
        [10, ['cache']],
      ] as Array<[number, string[]]>) {
        const q = analyzeQuery(keywords, tags, limit);
        const first = texts.length;
        await client.query(SEARCH_TRANSACTION);
        const hits = await searchOnServer(spy, pg.project, q, { narrow: 20, walkBudget: 300, walkYield: 2 });
        await client.query('COMMIT');
        assert.deepEqual(
          hits.map((h) => h.id),
          index.search(q).map((h) => h.id),
          `${keywords.join(' + ')} limit ${limit} tags ${tags.join(',')}, walked by estimate`,
        );
        // Ranked without counts: no statement grouped the reached memories.
        if (q.keywords.length > 1 && !texts.slice(first).some((t) => t.includes('GROUP BY c.key'))) several++;
      }
    assert.ok(texts.filter((t) => t.includes(walk)).length > 10, 'some blocks are walked');
    assert.ok(several > 50, `queries of several keywords ranked without counts: ${several}`);
    await client.end();
    // (The count also holds statements of trailing blocks read by index anyway, alike in both runs.)
    assert.ok(
      fallbacks.get(40)! > fallbacks.get(100_000)! + 20,
      `a short walk is followed by an index read: ${fallbacks.get(40)} with 40, ${fallbacks.get(100_000)} with every memory`,
    );
    await pg.store.close();
  });

  it('walks deeper when the most recent memories hold fewer of a block than its share, instead of reading the whole block', async () => {
    // 600 older memories hold "zebrafish"; the 100 most recent (a burst of other notes) do not.
    const older = Array.from({ length: 600 }, (_, i) => createdRow(randomUUID(), `zebrafish tank note ${i}`, ['lab'], minute(i)));
    const burst = Array.from({ length: 100 }, (_, i) => createdRow(randomUUID(), `standup summary ${i}`, ['meeting'], minute(1000 + i)));
    const pg = await openPg({ localIndex: 'off' });
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      await pg.store.importVersions([...older, ...burst]);
      const index = indexOf(liveMemories([...older, ...burst]));
      const texts: string[] = [];
      const spy = recording(client, texts);
      const q = analyzeQuery(['zebrafish'], [], 10);
      await client.query(SEARCH_TRANSACTION);
      // A walk over the 40 most recent finds none; 8 times deeper (320) finds the 10 newest of the 600.
      const hits = await searchOnServer(spy, pg.project, q, { narrow: 20, walkBudget: 40, walkYield: 1e-9 });
      await client.query('COMMIT');
      assert.deepEqual(
        hits.map((h) => h.id),
        index.search(q).map((h) => h.id),
      );
      const walk = 'FROM (SELECT * FROM memory_heads h WHERE h.project = $1 AND NOT h.deleted ORDER BY';
      const reads = texts.filter((t) => t.includes('AS block'));
      assert.equal(reads.length, 2, 'the first walk, then one deeper');
      assert.ok(
        reads.every((t) => t.includes(walk)),
        'both are walks: the block (600 rows) is not read by index',
      );
    } finally {
      await client.end();
      await pg.store.close();
    }
  });

  it('reads a block through its rarest condition alone when the kept counts say it reaches little more, still keeping the required tags', async () => {
    // The compound tag alpha-beta (150 memories) reaches little more than its block; its words
    // reach 450. The 30 most recent tagged ones lack the required tag "team", carried by the rest.
    const tagged = Array.from({ length: 120 }, (_, i) =>
      createdRow(randomUUID(), `alpha beta fix ${i}`, ['alpha-beta', 'team'], minute(i)),
    );
    const words = Array.from({ length: 300 }, (_, i) => createdRow(randomUUID(), `alpha beta other ${i}`, ['team'], minute(200 + i)));
    const untagged = Array.from({ length: 30 }, (_, i) =>
      createdRow(randomUUID(), `alpha beta fix late ${i}`, ['alpha-beta'], minute(600 + i)),
    );
    const rows = [...tagged, ...words, ...untagged];
    const pg = await openPg({ localIndex: 'off' });
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      await pg.store.importVersions(rows);
      const index = indexOf(liveMemories(rows));
      const texts: string[] = [];
      const q = analyzeQuery(['alpha-beta'], ['team'], 10);
      await client.query(SEARCH_TRANSACTION);
      const hits = await searchOnServer(recording(client, texts), pg.project, q, { narrow: 20, walkBudget: 40, walkYield: 2 });
      await client.query('COMMIT');
      assert.deepEqual(
        hits.map((h) => h.id),
        index.search(q).map((h) => h.id),
      );
      assert.deepEqual(
        hits.map((h) => h.id),
        tagged
          .slice(-10)
          .reverse()
          .map((r) => r.id),
      );
      const reads = texts.filter((t) => t.includes('AS block'));
      assert.equal(reads.length, 1);
      assert.ok(!reads[0]!.includes(' AND h.search_vector @@ '), 'the words are checked on the rows, not walked in the index');
    } finally {
      await client.end();
      await pg.store.close();
    }
  });

  it('breaks ties at the limit by time, then id, within a group and across groups of equal score', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const ids = Array.from({ length: 30 }, () => randomUUID());
    const rows = [
      // One signature, one time: only the id orders them.
      ...ids.map((id) => createdRow(id, 'Quokka sighting logged', ['wildlife'], minute(5))),
      // Tag alpha + word beta scores exactly as tag beta + word alpha: one block, ordered by time across both.
      createdRow('00000000-0000-4000-8000-00000000000a', 'note about beta', ['alpha'], minute(1)),
      createdRow('00000000-0000-4000-8000-00000000000b', 'note about alpha', ['beta'], minute(2)),
      createdRow('00000000-0000-4000-8000-00000000000c', 'note about beta', ['alpha'], minute(3)),
      createdRow('00000000-0000-4000-8000-00000000000d', 'note about alpha', ['beta'], minute(3)),
      createdRow(randomUUID(), 'unrelated gamma', ['gamma'], minute(4)),
    ];
    await pg.store.importVersions(rows);
    const index = indexOf(liveMemories(rows));
    const [quokka] = await both(pg, index, ['quokka'], [], 10);
    assert.deepEqual(quokka, [...ids].sort().slice(0, 10));
    for (const limit of [1, 2, 3, 4]) {
      const [server, local] = await both(pg, index, ['alpha', 'beta'], [], limit);
      assert.deepEqual(server, ['c', 'd', 'b', 'a'].map((x) => `00000000-0000-4000-8000-00000000000${x}`).slice(0, limit));
      assert.deepEqual(server, local);
    }
    await pg.store.close();
  });

  it('skips the best groups when none of their memories carries the required tags', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const rows = [
      ...Array.from({ length: 20 }, (_, i) => createdRow(randomUUID(), `Walrus tusk ${i}`, ['walrus'], minute(i))),
      ...Array.from({ length: 5 }, (_, i) => createdRow(randomUUID(), 'walrus colony counted', ['arctic'], minute(30 + i))),
      createdRow(randomUUID(), 'a walrus mentioned in passing', ['arctic', 'survey'], minute(40)),
    ];
    await pg.store.importVersions(rows);
    const index = indexOf(liveMemories(rows));
    for (const tags of [['arctic'], ['survey'], ['arctic', 'survey'], ['walrus', 'arctic']]) {
      const [server, local] = await both(pg, index, ['walrus'], tags, 3);
      assert.deepEqual(server, local, tags.join(','));
    }
    assert.equal((await both(pg, index, ['walrus'], ['arctic'], 10))[0].length, 6);
    await pg.store.close();
  });

  it('never returns or counts deleted memories', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const made: string[] = [];
    for (let i = 0; i < 12; i++)
      made.push((await pg.service.create({ description: `Narwhal tracking note ${i}`, tags: ['narwhal'], content: 'x' })).id);
    for (let i = 0; i < 4; i++) await pg.service.create({ description: `Ice shelf note ${i}`, tags: ['ice'], content: 'x' });
    for (const id of made.slice(0, 9)) await pg.service.delete({ id });
    const hits = await pg.store.search(analyzeQuery(['narwhal', 'note'], [], 50));
    assert.deepEqual(
      hits
        .map((h) => h.id)
        .filter((id) => made.includes(id))
        .sort(),
      made.slice(9).sort(),
    );
    const live = await Promise.all(
      (await pg.store.list({ deleted: false, limit: 100 })).map(async (m) => ({
        id: m.id,
        description: m.description,
        tags: m.tags,
        changedAt: m.changedAt,
      })),
    );
    const [server, local] = await both(pg, indexOf(live), ['narwhal', 'note'], [], 50);
    assert.deepEqual(server, local, 'the IDF counts only live memories');
    await pg.store.close();
  });

  it('counts and reads in one snapshot: a delete committed between the two is not half seen', async () => {
    const pg = await openPg({ localIndex: 'off' });
    const rows = Array.from({ length: 6 }, (_, i) => createdRow(randomUUID(), `Puffin colony note ${i}`, ['puffin'], minute(i)));
    await pg.store.importVersions(rows);
    const before = indexOf(liveMemories(rows))
      .search(analyzeQuery(['puffin'], [], 3))
      .map((h) => h.id);
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    // The newest memory is deleted by another client right after the counts were read.
    const spy = {
      query: async (...args: Parameters<Client['query']>) => {
        const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        if (text.includes('AS eligible')) await pg.service.delete({ id: before[0]! });
        return result;
      },
    } as unknown as PoolClient;
    await client.query(SEARCH_TRANSACTION);
    const hits = await searchOnServer(spy, pg.project, analyzeQuery(['puffin'], [], 3));
    await client.query('COMMIT');
    await client.end();
    assert.deepEqual(
      hits.map((h) => h.id),
      before,
      'the rows of the snapshot the counts came from',
    );
    assert.ok(!(await pg.store.search(analyzeQuery(['puffin'], [], 3))).some((h) => h.id === before[0]), 'the next search does not see it');
    await pg.store.close();
  });

  it('ranks a query of more terms than one signature digit holds', async () => {
    const words = Array.from(
      { length: 90 },
      (_, i) => `zeta${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}word`,
    );
    const keywordWords = (k: number) => words.slice(k * 5, k * 5 + 5);
    // Each memory holds five keywords whole and two words of a sixth: many signatures, most above the floor.
    const rows = Array.from({ length: 200 }, (_, i) => {
      const held = [0, 3, 7, 11, 13].flatMap((d) => keywordWords((i + d) % 18));
      return createdRow(
        randomUUID(),
        `Log ${[...held, ...keywordWords((i + 5) % 18).slice(0, 2)].join(' ')}`,
        [`t${i % 7}`],
        minute(i % 50),
      );
    });
    const pg = await openPg({ localIndex: 'off' });
    await pg.store.importVersions(rows);
    const index = indexOf(liveMemories(rows));
    const keywords = Array.from({ length: 18 }, (_, k) => keywordWords(k).join(' '));
    for (const limit of [5, 50]) {
      const [server, local] = await both(pg, index, keywords, [], limit);
      assert.ok(local.length > 0);
      assert.deepEqual(server, local, `limit ${limit}`);
    }
    await pg.store.close();
  });
});
