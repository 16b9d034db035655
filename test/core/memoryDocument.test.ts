import { strict as assert } from 'node:assert';
import { ValidationError } from '../../src/core/errors';
import { formatMemoryDocument, parseMemoryDocument } from '../../src/core/memoryDocument';

function refused(text: string): ValidationError {
  try {
    parseMemoryDocument(text);
  } catch (err) {
    assert.ok(err instanceof ValidationError, `expected a ValidationError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the document to be refused');
}

describe('memory documents (front matter + Markdown)', () => {
  it('round-trips description, tags and content, with provenance comments ignored on the way back', () => {
    const fields = {
      description: 'Jest: "Cannot use import statement" — fix: transformIgnorePatterns # not a comment',
      tags: ['jest', 'esm', 'c#', '.net'],
      content: '# Heading\n\n---\n\nA rule line above is content, not front matter.\n- item: with colon',
    };
    const text = formatMemoryDocument(fields, ['version 3 · 2026-11-29T10:00:00.000Z · alice@example.com', 'Saving writes version 4.']);
    assert.match(text, /^---\n# version 3 · /);
    assert.match(text, /^tags: \[ jest, esm, c#, \.net \]$|^tags: \[jest, esm, "c#", \.net\]$|^tags: \[ jest, esm, "c#", \.net \]$/m);
    assert.deepEqual(parseMemoryDocument(text), fields);
  });

  it('round-trips citations as path[:start-end] lines; an empty citations field means none, a missing one says nothing', () => {
    const fields = { description: 'Retries', tags: ['http'], content: 'x', citations: ['src/http/client.ts:40-58', 'docs/notes.md'] };
    const text = formatMemoryDocument(fields);
    assert.match(text, /^citations:\n {2}- src\/http\/client\.ts:40-58\n {2}- docs\/notes\.md\n---$/m);
    assert.deepEqual(parseMemoryDocument(text), fields);
    assert.deepEqual(parseMemoryDocument('---\ndescription: d\ntags: [a]\ncitations:\n---\n\nc').citations, []);
    assert.equal('citations' in parseMemoryDocument('---\ndescription: d\ntags: [a]\n---\n\nc'), false);
    assert.match(
      refused('---\ndescription: d\ntags: [a]\ncitations: src/a.ts\n---\n\nc').message,
      /citations: must be a list in the front matter/,
    );
  });

  it('reads what a person typed: block-style tags, CRLF line ends, a BOM, trailing blank lines', () => {
    const text = '\uFEFF---\r\ndescription: Pin the Node version\r\ntags:\r\n  - node\r\n  - ci\r\n---\r\n\r\nUse .nvmrc.\r\n\r\n\r\n';
    assert.deepEqual(parseMemoryDocument(text), { description: 'Pin the Node version', tags: ['node', 'ci'], content: 'Use .nvmrc.' });
  });

  it('keeps a number-looking tag as text', () => {
    assert.deepEqual(parseMemoryDocument('---\ndescription: d\ntags: [2024, ci]\n---\nc').tags, ['2024', 'ci']);
  });

  it('refuses a document without front matter, saying what line 1 must be', () => {
    assert.match(refused('description: d\n').message, /line 1 must be "---"/);
  });

  it('refuses front matter that is never closed', () => {
    assert.match(refused('---\ndescription: d\ntags: [a]\n').message, /not closed/);
  });

  it('reports a YAML error with its line in the document', () => {
    const err = refused('---\ndescription: d\ntags: [a, b\n---\ncontent');
    assert.match(err.message, /front matter, line \d+:/);
  });

  it('refuses a duplicate key rather than keeping the last one silently', () => {
    assert.match(refused('---\ndescription: a\ndescription: b\ntags: [x]\n---\nc').message, /line 3/);
  });

  it('names unknown fields and says which fields can be set', () => {
    const err = refused('---\ndescription: d\ntags: [a]\nversion: 7\nauthor: me\n---\nc');
    assert.match(err.message, /"version", "author"/);
    assert.match(err.message, /only description, tags and citations/);
  });

  it('refuses tags that are not a list and a missing description', () => {
    assert.equal(refused('---\ndescription: d\ntags: a, b\n---\nc').field, 'tags');
    assert.equal(refused('---\ntags: [a]\n---\nc').field, 'description');
    assert.equal(refused('---\ndescription: d\ntags: [[a]]\n---\nc').field, 'tags');
  });
});
