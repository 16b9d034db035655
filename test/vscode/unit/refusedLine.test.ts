import { strict as assert } from 'node:assert';
import { refusedLine } from '../../../src/vscode/memories/refusedLine';

const DOC = [
  '---', // 0
  '# agent-memory 9cf5b438 · version 2 · 2026-12-01T10:00:00.000Z · alice',
  'description: Fixed the flaky build cache', // 2
  'tags:', // 3
  '  - build', // 4
  '  - cache', // 5
  'citations:', // 6
  '  - src/build/cache.ts:40-58', // 7
  '---', // 8
  '', // 9
  'Cleared the cache key.', // 10
  'token = sk-live-…', // 11
  '',
].join('\n');

describe('the line a refused memory save marks', () => {
  it('is the front-matter line of the field named', () => {
    assert.equal(refusedLine(DOC, { field: 'description', message: 'description: must not be empty' }), 2);
    assert.equal(refusedLine(DOC, { field: 'tags', message: 'tags: 13 tags given; the limit is 12' }), 3);
    assert.equal(refusedLine(DOC, { field: 'citations', message: 'citations: …' }), 6);
  });

  it("is a list item's own line for tags[1] or citations[0], and the key's line for a flow list", () => {
    assert.equal(refusedLine(DOC, { field: 'tags[1]', message: 'tags[1]: tag contains "!"' }), 5);
    assert.equal(refusedLine(DOC, { field: 'citations[0]', message: 'citations[0]: no such file' }), 7);
    const flow = DOC.replace('tags:\n  - build\n  - cache', 'tags: [build, cache]');
    assert.equal(refusedLine(flow, { field: 'tags[1]', message: 'tags[1]: …' }), 3);
  });

  it('is the line of the content a secret was found on, after the blank line that ends the front matter', () => {
    assert.equal(refusedLine(DOC, { field: 'content', message: 'content: line 2 contains …', line: 2 }), 11);
    assert.equal(refusedLine(DOC, { field: 'content', message: 'content: is too long' }), 10);
  });

  it('is the line a front-matter error names (counted from the opening fence), else the first line', () => {
    assert.equal(refusedLine(DOC, { field: 'document', message: 'front matter, line 4: bad indentation' }), 3);
    assert.equal(refusedLine(DOC, { field: 'document', message: 'line 1 must be "---"' }), 0);
    assert.equal(refusedLine(DOC, { field: '', message: 'something else' }), 0);
    assert.equal(refusedLine('no front matter at all', { field: 'tags', message: 'tags: …' }), 0);
  });
});
