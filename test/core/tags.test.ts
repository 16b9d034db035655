import { strict as assert } from 'node:assert';
import { normalizeTag, suggestTags, tagParts, tagProblem } from '../../src/core/tags';

describe('tags', () => {
  it('normalises', () => {
    assert.equal(normalizeTag('  Build   System '), 'build-system');
    assert.equal(normalizeTag('TypeScript'), 'typescript');
  });

  it('splits a tag into stemmed parts, the same each time it is asked, and what it keeps cannot be changed by a caller', () => {
    assert.deepEqual(tagParts('build-systems'), ['build', 'system']);
    assert.deepEqual(tagParts('node_modules.cache'), ['node', 'modul', 'cach']);
    const kept = tagParts('build-systems');
    assert.throws(() => (kept as string[]).push('x'), TypeError);
    assert.deepEqual(tagParts('build-systems'), ['build', 'system']);
  });

  it('explains what is wrong with a tag', () => {
    assert.equal(tagProblem('ok-tag_1.2+#'), undefined);
    assert.match(tagProblem('a/b')!, /"\/"/);
    assert.match(tagProblem('-leading')!, /must start with/);
    assert.match(tagProblem('')!, /empty/);
  });

  it('suggests existing tags for other inflections, typos and compounds, closest first', () => {
    const vocab = [
      { tag: 'build', count: 12 },
      { tag: 'build-system', count: 3 },
      { tag: 'typescript', count: 9 },
      { tag: 'docker', count: 4 },
    ];
    assert.deepEqual(
      suggestTags('builds', vocab).map((s) => s.tag),
      ['build', 'build-system'],
    );
    assert.equal(suggestTags('typscript', vocab)[0]?.tag, 'typescript');
    assert.equal(suggestTags('build-systems', vocab)[0]?.tag, 'build-system');
    assert.deepEqual(suggestTags('kubernetes', vocab), []);
    assert.ok(!suggestTags('build', vocab).some((s) => s.tag === 'build'), 'an exact tag is not its own suggestion');
  });
});
