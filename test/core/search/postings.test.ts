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

  it('files into and removes from a saved list without decoding it, with the same sizes, slots and saved form as a set', () => {
    const saved: Array<[string, number[]]> = [['t', [2, 3, 5]]]; // slots 2, 5, 10
    const lazy = Postings.restore(saved.map(([t, l]) => [t, [...l]]));
    const eager = Postings.restore(saved.map(([t, l]) => [t, [...l]]));
    eager.get('t'); // decoded at once
    const both = (f: (p: Postings) => void) => [lazy, eager].forEach(f);
    both((p) => p.remove('t', 5)); // an edit removes its slot …
    both((p) => p.add('t', 5)); // … and files it again
    both((p) => p.add('t', 12)); // a new memory
    both((p) => p.remove('t', 2)); // a deleted one
    both((p) => p.add('t', 7));
    both((p) => p.remove('t', 7)); // filed, then removed before any save
    assert.equal(lazy.size('t'), 3);
    assert.deepEqual(lazy.save(), eager.save());
    assert.deepEqual(lazy.save(), [['t', [5, 5, 2]]]);
    const walked: number[] = [];
    lazy.forEach((_, slot) => walked.push(slot));
    assert.deepEqual(
      walked.sort((a, b) => a - b),
      [5, 10, 12],
    );
    assert.deepEqual(
      [...lazy.get('t')!].sort((a, b) => a - b),
      [5, 10, 12],
    );
    for (const slot of [5, 10, 12]) lazy.remove('t', slot);
    assert.equal(lazy.size('t'), 0);
    assert.deepEqual(lazy.save(), []);
    const gone = Postings.restore([['u', [4]]]);
    gone.remove('u', 4);
    assert.equal(gone.get('u'), undefined, 'a saved list emptied without decoding forgets its term');
  });

  it('keeps slots filed in ascending order as a gap list, and any order after that as a set would', () => {
    const p = new Postings();
    for (const slot of [0, 1, 4, 9]) p.add('t', slot); // a fresh clone's build: slot order
    assert.deepEqual(p.save(), [['t', [0, 1, 3, 5]]]);
    p.add('t', 2); // a reused slot
    p.remove('t', 4);
    p.add('t', 12);
    assert.equal(p.size('t'), 5);
    assert.deepEqual(p.save(), [['t', [0, 1, 1, 7, 3]]]);
    assert.deepEqual(
      [...p.get('t')!].sort((a, b) => a - b),
      [0, 1, 2, 9, 12],
    );
  });
});
