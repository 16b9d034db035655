import { strict as assert } from 'node:assert';
import { Postings } from '../../../src/core/search/postings';

describe('Postings (one field of the search index)', () => {
  it('saves each list ascending as gaps and restores the same slots', () => {
    const p = new Postings();
    for (const slot of [40, 3, 17, 4]) p.add('cach', slot);
    p.add('lone', 9);
    assert.deepEqual(p.save(), [
      ['cach', [3, 1, 13, 23]],
      ['lone', [9]],
    ]);
    const r = Postings.restore(JSON.parse(JSON.stringify(p.save())) as Array<[string, number[]]>);
    assert.equal(r.size('cach'), 4, 'counted without decoding');
    assert.deepEqual(
      [...r.get('cach')!].sort((a, b) => a - b),
      [3, 4, 17, 40],
    );
    assert.equal(r.get('missing'), undefined);
  });

  it('adds to and removes from restored lists, and forgets a term with no slot left', () => {
    const r = Postings.restore([
      ['a', [1, 1]],
      ['b', [5]],
    ]);
    r.add('a', 7);
    r.remove('b', 5);
    assert.deepEqual(r.save(), [['a', [1, 1, 5]]]);
    const seen: string[] = [];
    r.forEach((t, s) => seen.push(`${t}${s}`));
    assert.deepEqual(seen, ['a1', 'a2', 'a7']);
  });
});
