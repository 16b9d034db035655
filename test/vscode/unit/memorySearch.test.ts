import { strict as assert } from 'node:assert';
import { searchAsTyped, typedKeywords, typedWords } from '../../../src/vscode/memories/memorySearch';
import { corpusRows, openService } from '../../helpers/builders';

describe('the search a person types (issue 14, item 8)', () => {
  it('reads the text as one phrase, commas separating keywords, and words one by one as the fallback', () => {
    assert.deepEqual(typedKeywords('  postgres connection pool '), ['postgres connection pool']);
    assert.deepEqual(typedKeywords('postgres, connection pool,'), ['postgres', 'connection pool']);
    assert.deepEqual(typedKeywords(' , '), []);
    assert.deepEqual(typedWords('postgres, connection  pool'), ['postgres', 'connection', 'pool']);
    assert.equal(typedWords(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')).length, 20, 'no more words than a search takes');
  });

  it('searches word by word only when the phrase finds nothing, with the same service call as the search tool', async () => {
    const calls: string[][] = [];
    const service = {
      search: async (input: { keywords: string[]; limit?: number }) => {
        calls.push(input.keywords);
        return input.keywords.length > 1 ? [{ id: 'x', description: 'found by words', tags: ['t'] }] : [];
      },
    } as unknown as Parameters<typeof searchAsTyped>[0];
    assert.deepEqual(
      (await searchAsTyped(service, 'kubernetes webview')).map((h) => h.id),
      ['x'],
    );
    assert.deepEqual(calls, [['kubernetes webview'], ['kubernetes', 'webview']]);
    calls.length = 0;
    assert.deepEqual(await searchAsTyped(service, 'webview'), []);
    assert.deepEqual(calls, [['webview']], 'one word: no second search');
    calls.length = 0;
    assert.deepEqual(await searchAsTyped(service, '   '), []);
    assert.deepEqual(calls, [], 'nothing typed: no search');
  });

  it('lists the connection-pool notes for "postgres connection pool", not every postgres note (the timezone ones)', async () => {
    const { service, upkeep } = await openService();
    await upkeep.importVersions(corpusRows('eval'));
    const hits = await searchAsTyped(service, 'postgres connection pool');
    assert.ok(hits.length >= 3, `${hits.length} hits`);
    assert.ok(
      hits.slice(0, 3).every((h) => h.tags.some((t) => /pool/.test(t)) || /pool/i.test(h.description)),
      hits.map((h) => h.description).join('\n'),
    );
    assert.deepEqual(
      hits.filter((h) => h.tags.includes('timezone')).map((h) => h.description),
      [],
      'timezone notes listed',
    );
    // Words that are no phrase still find what each names.
    const words = await searchAsTyped(service, 'kubernetes webview');
    assert.ok(words.length > 0 && words.every((h) => h.tags.includes('webview')), words.map((h) => h.description).join('\n'));
  });
});
