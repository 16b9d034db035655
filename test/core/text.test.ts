import { strict as assert } from 'node:assert';
import { isStopWord, onlyStopWords, stem, termUnits, tokens, words } from '../../src/core/text';
import { CONTENT_TERM_MAX, distinctiveTerms, terms } from '../../src/core/wordTerms';
import { prng } from '../../bench/generate';

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

    it('chooses what a plain reading of its rules chooses, for 3,000 random notes analysed one after another', () => {
      // The rules of distinctiveTerms restated as simply as they read (every word matched by the
      // regular expression, its term and parts, a map of candidates, one sort): the index's
      // analysis keeps counts in shared objects between calls, and must agree with this for
      // every note whatever was analysed before it.
      const TOKEN = /[\p{L}\p{N}]+(?:[-._]+[\p{L}\p{N}]+)*/gu;
      const QUOTED = /`[^`\n]{1,200}`|"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d|'[^'\n\s][^'\n]{0,198}'/g;
      const termOf = (word: string) => (word.length >= 2 && !isStopWord(word) ? stem(word) : undefined);
      const isCode = (raw: string) =>
        /^[a-z0-9]+$/.test(raw)
          ? /[0-9]/.test(raw) && /[a-z]/.test(raw)
          : /[-._]|\p{Ll}\p{Lu}/u.test(raw) || /^(?=.*\p{N})(?=.*\p{L})|^\p{Lu}{3,}$/u.test(raw);
      const reference = (content: string, exclude: Set<string>, max: number): string[] => {
        const quoted = new Set<string>();
        for (const [q] of content.matchAll(QUOTED)) for (const t of tokens(q)) quoted.add(t.whole);
        const found = new Map<string, { term: string; code: boolean; count: number; first: number }>();
        const note = (term: string | undefined, code: boolean) => {
          if (term === undefined || exclude.has(term)) return;
          const c = found.get(term);
          if (c) {
            c.count++;
            c.code ||= code;
          } else found.set(term, { term, code, count: 1, first: found.size });
        };
        for (const [raw] of content.matchAll(TOKEN)) {
          const t = tokens(raw)[0]!;
          const long = raw.length > CONTENT_TERM_MAX;
          if (!long || t.whole.length <= CONTENT_TERM_MAX) note(termOf(t.whole), isCode(raw) || quoted.has(t.whole));
          if (t.parts.length > 1) for (const p of t.parts) if (!long || p.length <= CONTENT_TERM_MAX) note(termOf(p), false);
        }
        return [...found.values()]
          .sort((a, b) => Number(b.code) - Number(a.code) || b.count - a.count || b.term.length - a.term.length || a.first - b.first)
          .slice(0, max)
          .map((c) => c.term);
      };
      const rnd = prng(11);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const vocabulary = [
        ...'cache caching cached build builds the and with for retry timeout flaky config Config CONFIG'.split(' '),
        ...'keep-alive KeepAlive keepalive node_modules getByRole HTMLParser JWTs TS2589 E0308 sha256 EACCES'.split(' '),
        ...'safe.directory index.html v1.2.3 naïve Straße 中文 colour behaviour initialise'.split(' '),
        'a'.repeat(CONTENT_TERM_MAX + 3),
        `${'ab-'.repeat(40)}cd`,
      ];
      const quote = (w: string) => pick(['`', '"', "'", '\u201c']) + w + (rnd() < 0.5 ? ' ' + pick(vocabulary) : '');
      for (let i = 0; i < 3000; i++) {
        // A word seen in no note before, now and then: its term first appears in this call.
        const fresh = `zq${i.toString(36)}x`;
        const words = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => {
          const r = rnd();
          if (r < 0.1) {
            const q = quote(r < 0.05 ? fresh : pick(vocabulary));
            return q + (q.startsWith('\u201c') ? '\u201d' : q[0]);
          }
          return r < 0.15 ? fresh : pick(vocabulary);
        });
        const content = words.join(pick([' ', ', ', '. ', '\n']));
        // Terms to leave out, as the index gives them: a description's terms, and a tag's part stemmed
        // on its own (a term no word of any text analysed so far may have given).
        const exclude = new Set(terms(pick(vocabulary)));
        if (rnd() < 0.3) exclude.add(stem(fresh));
        const max = 1 + Math.floor(rnd() * 12);
        assert.deepEqual(
          distinctiveTerms(content, exclude, max),
          reference(content, exclude, max),
          `${JSON.stringify(content)} without ${[...exclude].join(',')}`,
        );
      }
    });

    it('gives every part of a compound longer than any kept word, however many parts it has', () => {
      const parts = Array.from({ length: 300 }, (_, i) => `part${i.toString(36)}x`);
      const got = terms(parts.join('-'));
      assert.ok(got.includes(stem(parts[299]!)) && got.includes(stem(parts[0]!)), 'the first and the 300th part');
      assert.equal(got.length, new Set(parts.map(stem)).size + 1, 'every part, and the whole');
      // Met again and again, such a word is analysed each time: the bound on listed parts drops them all now and then.
      for (let i = 0; i < 4000; i++) assert.equal(terms(parts.join('-')).length, got.length);
    });

    it('gives the same terms after its kept words and terms are dropped (past 200,000 terms)', () => {
      // Words kept across the drop (`cache`, seen in every note) and words first seen after it
      // (`caches`) must still share their term: one `cach`, counted three times.
      let n = 0;
      for (let note = 0; note < 110; note++) {
        const words = Array.from({ length: 2000 }, () => `u${(n++).toString(36)}q`);
        distinctiveTerms(`${words.join(' ')} cache caching`, new Set(), 24);
      }
      assert.deepEqual(distinctiveTerms('caches retry cache caches', new Set(), 10), ['cach', 'retri']);
    });
  });
});
