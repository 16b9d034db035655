import { strict as assert } from 'node:assert';
import { CONTENT_TERM_MAX, distinctiveTerms, isStopWord, onlyStopWords, stem, termUnits, terms, words } from '../../src/core/text';

describe('text analysis', () => {
  describe('words', () => {
    it('splits camelCase identifiers and keeps them whole', () => {
      assert.deepEqual(words('getByRole'), ['getbyrole', 'get', 'by', 'role']);
      assert.deepEqual(words('transformIgnorePatterns'), ['transformignorepatterns', 'transform', 'ignore', 'patterns']);
    });

    it('splits snake_case, kebab-case and dotted names and keeps them whole', () => {
      assert.deepEqual(words('node_modules'), ['nodemodules', 'node', 'modules']);
      assert.deepEqual(words('keep-alive'), ['keepalive', 'keep', 'alive']);
      assert.deepEqual(words('safe.directory'), ['safedirectory', 'safe', 'directory']);
      assert.deepEqual(words('ERR_UNKNOWN_FILE_EXTENSION'), ['errunknownfileextension', 'err', 'unknown', 'file', 'extension']);
    });

    it('splits an acronym from the word after it but keeps an acronym plural whole', () => {
      assert.deepEqual(words('HTMLParser'), ['htmlparser', 'html', 'parser']);
      assert.deepEqual(words('JWTs IDs'), ['jwts', 'ids']);
    });

    it('splits on punctuation and spaces, not inside a word', () => {
      assert.deepEqual(words('Error: "Cannot find module" (x)!'), ['error', 'cannot', 'find', 'module', 'x']);
      assert.deepEqual(words('end of sentence. Next'), ['end', 'of', 'sentence', 'next']);
    });
  });

  describe('stop words', () => {
    it('knows function words and contraction fragments, not content words', () => {
      for (const w of ['the', 'with', 'inside', 'doesn', 'not']) assert.ok(isStopWord(w), w);
      for (const w of ['error', 'cache', 'build', 'docker']) assert.ok(!isStopWord(w), w);
    });

    it('tells a text of stop words only', () => {
      assert.ok(onlyStopWords('the with it is'));
      assert.ok(onlyStopWords('--'));
      assert.ok(!onlyStopWords('the cache'));
      assert.ok(!onlyStopWords('n+1'));
    });
  });

  describe('stem', () => {
    it('gives inflections one stem', () => {
      assert.equal(stem('caching'), stem('cache'));
      assert.equal(stem('cached'), stem('caches'));
      assert.equal(stem('migrating'), stem('migration'));
      assert.equal(stem('indexes'), stem('index'));
    });

    it('gives British and American spellings one stem', () => {
      assert.equal(stem('normalised'), stem('normalizing'));
      assert.equal(stem('analyse'), stem('analyze'));
      assert.equal(stem('behaviour'), stem('behavior'));
      assert.notEqual(stem('hour'), stem('hor'));
    });

    it('leaves non-words alone', () => {
      assert.equal(stem('v1441'), 'v1441');
      assert.equal(stem('502'), '502');
    });
  });

  describe('terms', () => {
    it('drops stop words and one-character words, and stems the rest', () => {
      assert.deepEqual(terms('The caching of builds is not working'), ['cach', 'build', 'work']);
      assert.deepEqual(terms('n+1 at 502'), ['502']);
    });

    it('includes an identifier whole and in parts, once each', () => {
      assert.deepEqual(terms('getByRole get role'), [stem('getbyrole'), 'get', 'role']);
    });
  });

  describe('termUnits', () => {
    it('gives a compound its parts, which may stand for it', () => {
      assert.deepEqual(termUnits('keep-alive timeout'), [
        { term: stem('keepalive'), parts: ['keep', stem('alive')] },
        { term: 'timeout', parts: [] },
      ]);
    });

    it('drops stop-word parts, and treats a compound with one meaningful part as that word', () => {
      assert.deepEqual(termUnits('getByRole'), [{ term: stem('getbyrole'), parts: ['get', 'role'] }]);
      assert.deepEqual(termUnits('re-render'), [{ term: 'render', parts: [] }]);
    });

    it('is empty for stop words and too-short words', () => {
      assert.deepEqual(termUnits('the n+1 of it'), []);
    });

    it('keeps a compound of stop words whole, as the index files it (`for_each`)', () => {
      assert.deepEqual(termUnits('for_each'), [{ term: 'foreach', parts: [] }]);
      assert.ok(terms('use for_each here').includes('foreach'));
    });
  });

  describe('distinctiveTerms', () => {
    const content =
      'The build failed with TS2589 in `src/deep/typeHelpers.ts`. The build cache was cold; ' +
      'we cleared the cache and the cache warmed again. Then "Excessive stack depth" went away.';

    it('puts words written as code first, then the words the content repeats, at most max', () => {
      const all = distinctiveTerms(content, new Set(), 100);
      // A code, a quoted path's words and an identifier, a quoted message.
      const code = ['ts2589', 'src', 'deep', stem('typehelpersts'), stem('excessive'), 'stack', 'depth'];
      assert.deepEqual(new Set(all.slice(0, code.length)), new Set(code));
      assert.ok(all.indexOf('cach') < all.indexOf('warm'), 'a repeated word before a word said once');
      assert.deepEqual(distinctiveTerms(content, new Set(), 3), all.slice(0, 3));
    });

    it('leaves out stop words, one-letter words and the terms it is told to exclude', () => {
      const some = distinctiveTerms(content, new Set(['cach', 'build']), 100);
      assert.ok(!some.includes('cach') && !some.includes('build') && !some.includes('the') && !some.includes('s'));
      assert.deepEqual(distinctiveTerms('', new Set(), 10), []);
      assert.deepEqual(distinctiveTerms(content, new Set(), 0), []);
    });

    it('files no word longer than CONTENT_TERM_MAX (a hash or base64 run is no search key, and PostgreSQL refuses such a word)', () => {
      const long = 'a'.repeat(CONTENT_TERM_MAX + 1);
      const got = distinctiveTerms(`${long} and \`${long}\` then retry limit`, new Set(), 100);
      assert.ok(got.every((t) => t.length <= CONTENT_TERM_MAX));
      assert.ok(got.includes('retri'));
    });

    it("files a long compound's short parts, and its whole only when that is short", () => {
      const parts = Array.from({ length: 40 }, (_, i) => `part${String.fromCharCode(97 + (i % 26))}`);
      const joined = parts.join('-'); // over CONTENT_TERM_MAX as written and as a whole
      assert.ok(joined.length > CONTENT_TERM_MAX);
      const got = distinctiveTerms(`${joined} done`, new Set(), 100);
      assert.ok(!got.some((t) => t.length > CONTENT_TERM_MAX));
      assert.ok(got.includes('parta') && got.includes('partz'), got.join(' '));
      // Long as written, short once its joiners go: the whole is filed too, as code.
      const dotted = `${'a.'.repeat(60)}b`;
      assert.equal(distinctiveTerms(dotted, new Set(), 1)[0], `${'a'.repeat(60)}b`);
    });

    it('ranks a word by its quoting in each note, not by a note analysed before', () => {
      // Quoted in the first note (code, ranked first), plain in the second (once: ranked last).
      assert.equal(distinctiveTerms('zebra zebra `widget`', new Set(), 2)[0], 'widget');
      assert.deepEqual(distinctiveTerms('zebra zebra widget', new Set(), 2), ['zebra', 'widget']);
      assert.deepEqual(terms('Widget widget WIDGET'), ['widget']);
    });
  });
});
