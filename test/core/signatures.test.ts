import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MemoryToIndex } from '../../src/core/search/analysis';
import { analyzeQuery, type SearchQuery } from '../../src/core/search/query';
import { Held, rankSignatures } from '../../src/core/search/signatures';
import { liveMemories, SYNTHETIC_QUERIES, syntheticRows } from '../helpers/builders';
import { groupBySignature, indexOf, newestFirst } from '../helpers/signatureGroups';

/** The ids the team store returns: blocks best first, each block's eligible memories newest first, then by id. */
function signatureSearch(query: SearchQuery, memories: MemoryToIndex[]): string[] {
  const groups = groupBySignature(query, memories).map((g) => ({
    ...g,
    eligible: g.members.filter((m) => query.tags.every((t) => m.tags.includes(t))).length,
  }));
  const { blocks, limit } = rankSignatures(query, groups, memories.length);
  const out: string[] = [];
  for (const b of blocks) {
    const members = b.signatures.flatMap((s) => s.members).filter((m) => query.tags.every((t) => m.tags.includes(t)));
    members.sort(newestFirst);
    out.push(...members.map((m) => m.id));
    if (out.length >= limit) break;
  }
  return out.slice(0, limit);
}

describe('ranking by match signature (signatures.ts)', () => {
  const memories = liveMemories(syntheticRows(3000));
  const index = indexOf(memories);

  it('gives SearchIndex’s ids in SearchIndex’s order for broad and narrow queries, at every limit', () => {
    for (const keywords of SYNTHETIC_QUERIES) {
      for (const limit of [1, 3, 10, 50, 5000]) {
        const q = analyzeQuery(keywords, [], limit);
        assert.deepEqual(
          signatureSearch(q, memories),
          index.search(q).map((h) => h.id),
          `${JSON.stringify(keywords)} limit ${limit}`,
        );
      }
    }
  });

  it('keeps the order under a required-tags filter', () => {
    for (const keywords of SYNTHETIC_QUERIES) {
      for (const tags of [['cache'], ['test', 'ci'], ['c#']]) {
        const q = analyzeQuery(keywords, tags, 10);
        assert.deepEqual(
          signatureSearch(q, memories),
          index.search(q).map((h) => h.id),
          `${JSON.stringify(keywords)} tags ${tags.join(',')}`,
        );
      }
    }
  });

  it('merges groups of exactly equal score into one block, ordered by time across them', () => {
    const at = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m)).toISOString();
    const mems: MemoryToIndex[] = [
      { id: 'a1', description: 'note about beta', tags: ['alpha'], changedAt: at(1) },
      { id: 'b1', description: 'note about alpha', tags: ['beta'], changedAt: at(2) },
      { id: 'a2', description: 'note about beta', tags: ['alpha'], changedAt: at(3) },
      { id: 'b2', description: 'note about alpha', tags: ['beta'], changedAt: at(3) },
      { id: 'x', description: 'unrelated gamma', tags: ['gamma'], changedAt: at(4) },
    ];
    const q = analyzeQuery(['alpha', 'beta'], [], 10);
    const { blocks } = rankSignatures(q, groupBySignature(q, mems), mems.length);
    assert.equal(blocks.length, 1, 'tag alpha + word beta scores exactly as tag beta + word alpha');
    assert.equal(blocks[0]!.signatures.length, 2);
    assert.deepEqual(signatureSearch(q, mems), ['a2', 'b2', 'b1', 'a1']);
    assert.deepEqual(
      indexOf(mems)
        .search(q)
        .map((h) => h.id),
      ['a2', 'b2', 'b1', 'a1'],
    );
  });

  it('returns nothing for no groups, no live memories, or a query of stop words only', () => {
    const q = analyzeQuery(['cache'], [], 10);
    const none = { blocks: [], limit: 0 };
    assert.deepEqual(rankSignatures(q, [], 10), none);
    assert.deepEqual(rankSignatures(q, [{ terms: [Held.Text], tagMatch: [3], count: 1 }], 0), none);
    const stop = analyzeQuery(['the'], [], 10);
    assert.deepEqual(rankSignatures(stop, [{ terms: [], tagMatch: [0], count: 1 }], 10), none);
  });

  it('ranks memories found by their content as SearchIndex does, and returns only the best one when none matches two keywords', () => {
    const at = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m)).toISOString();
    const mems: MemoryToIndex[] = [
      { id: 'desc', description: 'Helm release stuck in pending-upgrade', tags: ['helm'], changedAt: at(1), content: 'Rolled back.' },
      {
        id: 'content',
        description: 'Helm upgrade refused',
        tags: ['helm'],
        changedAt: at(2),
        content: 'The release was stuck: stuck for an hour.',
      },
      { id: 'other', description: 'Chart values note', tags: ['charts'], changedAt: at(3), content: 'Nothing stuck here.' },
    ];
    for (const keywords of [['stuck'], ['release', 'stuck'], ['helm', 'stuck'], ['kafka', 'stuck'], ['helm', 'unknownword']]) {
      const q = analyzeQuery(keywords, [], 10);
      assert.deepEqual(
        signatureSearch(q, mems),
        indexOf(mems)
          .search(q)
          .map((h) => h.id),
        keywords.join(' '),
      );
    }
    // The description outweighs the content; two content matches tie and the newer comes first.
    assert.deepEqual(signatureSearch(analyzeQuery(['stuck'], [], 10), mems), ['desc', 'other', 'content']);
    assert.equal(signatureSearch(analyzeQuery(['helm', 'unknownword'], [], 10), mems).length, 1);
  });

  for (const set of ['eval', 'eval2'])
    it(`ranks every query of ${set} as SearchIndex does, fallbacks and other words included, at every limit and under a tag filter`, () => {
      const read = (file: string) =>
        fs
          .readFileSync(path.join(__dirname, '..', 'data', set, file), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { keywords: string[]; description: string; tags: string[]; content: string });
      const mems: MemoryToIndex[] = read('memories.jsonl').map((m, i) => ({
        id: `m${String(i).padStart(4, '0')}`,
        description: m.description,
        tags: m.tags,
        content: m.content,
        changedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      }));
      const evalIndex = indexOf(mems);
      for (const { keywords } of read('queries.jsonl'))
        for (const limit of [1, 3, 10]) {
          const q = analyzeQuery(keywords, [], limit);
          const hits = evalIndex.search(q);
          assert.deepEqual(
            signatureSearch(q, mems),
            hits.map((h) => h.id),
            `${JSON.stringify(keywords)} limit ${limit}`,
          );
          const tag = hits[hits.length - 1]?.tags[0];
          if (!tag) continue;
          const filtered = analyzeQuery(keywords, [tag], limit);
          assert.deepEqual(
            signatureSearch(filtered, mems),
            evalIndex.search(filtered).map((h) => h.id),
            `${JSON.stringify(keywords)} tag ${tag}`,
          );
        }
    });
});
