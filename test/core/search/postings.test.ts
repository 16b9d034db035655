import { strict as assert } from 'node:assert';
import { Postings } from '../../../src/core/search/postings';
import { postingLists } from '../../helpers/packed';

/** Postings holding these slots per term, saved and restored: lists not decoded yet, as a loaded index has them. */
function restored(slots: Record<string, number[]>): Postings {
  const p = new Postings();
  for (const [term, list] of Object.entries(slots)) for (const slot of list) p.add(term, slot);
  return Postings.restore(p.save());
}

const lists = (p: Postings) => postingLists(p.save());

describe('Postings (one field of the search index)', () => {
  it('saves each list ascending as gaps and restores the same slots', () => {
    const p = new Postings();
    for (const slot of [40, 3, 17, 4, 1000]) p.add('cach', slot);
    p.add('lone', 9);
    assert.deepEqual(lists(p), [
      ['cach', [3, 1, 13, 23, 960]],
      ['lone', [9]],
    ]);
    assert.equal(p.save().lists.length, 7, 'a gap below 128 takes one byte, 960 two');
    const r = Postings.restore(p.save());
    assert.equal(r.size('cach'), 5, 'counted without decoding');
    assert.deepEqual(
      [...r.get('cach')!].sort((a, b) => a - b),
      [3, 4, 17, 40, 1000],
    );
    assert.equal(r.get('missing'), undefined);
    assert.deepEqual(lists(Postings.restore(r.save())), lists(p), 'saved again, the same lists');
  });

  it('counts into an array the slots a term holds, in every form a list takes (a set, gaps, saved bytes with slots added and removed)', () => {
    const p = restored({ saved: [1, 5, 9, 300], edited: [2, 5, 7, 200], asSet: [3, 5] });
    p.add('edited', 11); // added after the saved list
    p.remove('edited', 5); // removed from it
    p.remove('edited', 11); // added, then removed again
    p.get('asSet'); // decoded into a set
    for (const slot of [4, 5, 6]) p.add('fresh', slot); // gaps this process made
    const counts = new Uint16Array(400);
    const reached = new Int32Array(400);
    let n = 0;
    for (const term of ['edited', 'saved', 'asSet', 'fresh', 'missing']) n = p.countInto(term, counts, reached, n);
    const expected = new Uint16Array(400);
    for (const term of ['saved', 'edited', 'asSet', 'fresh']) for (const slot of p.get(term)!) expected[slot]!++;
    assert.deepEqual(counts, expected);
    assert.equal(counts[5], 3, 'in saved, asSet and fresh; removed from edited');
    // Every slot counted is reached once, in the order first counted (5, removed from 'edited', first by 'saved').
    assert.deepEqual([...reached.subarray(0, n)], [2, 7, 200, 1, 5, 9, 300, 3, 4, 6]);
  });

  it('passes by every slot removed from a saved list, however many and wherever they are (random lists, 200 rounds)', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const slots = [...new Set(Array.from({ length: 1 + rnd(300) }, () => rnd(2000)))].sort((a, b) => a - b);
      const p = restored({ t: slots });
      const live = new Set(slots);
      // Removed: the first, the last, runs of neighbours, and random ones; some filed again, some new ones filed.
      const removed = [slots[0]!, slots[slots.length - 1]!, ...slots.slice(rnd(slots.length), rnd(slots.length) + 5)];
      for (let i = rnd(slots.length); i > 0; i--) removed.push(slots[rnd(slots.length)]!);
      for (const slot of new Set(removed)) {
        p.remove('t', slot);
        live.delete(slot);
      }
      for (let i = rnd(5); i > 0; i--) {
        const slot = rnd(2500);
        if (!live.has(slot)) {
          p.add('t', slot);
          live.add(slot);
        }
      }
      const counts = new Uint16Array(2500);
      const reached = new Int32Array(2500);
      const n = p.countInto('t', counts, reached, 0);
      const want = [...live].sort((a, b) => a - b);
      assert.deepEqual(
        [...reached.subarray(0, n)].sort((a, b) => a - b),
        want,
        `round ${round}: reached`,
      );
      assert.ok(want.every((slot) => counts[slot] === 1) && counts.reduce((a, b) => a + b, 0) === want.length, `round ${round}: counts`);
      const walked: number[] = [];
      p.forEach((_, slot) => walked.push(slot));
      assert.deepEqual(
        walked.sort((a, b) => a - b),
        want,
        `round ${round}: walked`,
      );
      assert.equal(p.size('t'), want.length);
    }
  });

  it('adds to the slots reached only, for a common term in every form its list takes', () => {
    // The same lists twice: once restored and not decoded (gaps walked), once decoded into sets,
    // large and small beside the reached slots (a set probed, a set walked).
    for (const decode of [false, true]) {
      const p = restored({ rare: [2, 5, 7], common: [1, 2, 3, 5, 6, 8, 9, 10], small: [5, 300], edited: [2, 5, 7, 9] });
      p.remove('edited', 5);
      p.add('edited', 3);
      p.add('fresh', 7);
      p.add('fresh', 9);
      if (decode) for (const t of ['common', 'small', 'edited']) p.get(t);
      const counts = new Uint16Array(400);
      const reached = new Int32Array(400);
      assert.equal(p.countInto('rare', counts, reached, 0), 3);
      assert.deepEqual([...reached.subarray(0, 3)], [2, 5, 7]);
      for (const term of ['common', 'small', 'edited', 'fresh', 'missing']) p.countReached(term, counts, reached, 3);
      const got = Object.fromEntries([...counts.entries()].filter(([, c]) => c > 0));
      assert.deepEqual(got, { 2: 3, 5: 3, 7: 3 }, `decoded: ${decode}`);
    }
  });

  it('keeps large slots and gaps whole (several bytes each)', () => {
    const slots = [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 300_000_000];
    const r = restored({ t: slots });
    assert.deepEqual([...r.get('t')!], slots);
  });

  it('refuses saved postings whose parts disagree', () => {
    const saved = new Postings();
    saved.add('a', 1);
    saved.add('b', 2);
    const good = saved.save();
    assert.throws(() => Postings.restore({ ...good, counts: good.counts.subarray(0, 1) }), /differ in length/);
    assert.throws(() => Postings.restore({ ...good, lists: Uint8Array.of(...good.lists, 5) }), /do not add up/);
  });

  it('adds to and removes from restored lists, and forgets a term with no slot left', () => {
    const r = restored({ a: [1, 2], b: [5] });
    r.add('a', 7);
    r.remove('b', 5);
    assert.deepEqual(lists(r), [['a', [1, 1, 5]]]);
    const seen: string[] = [];
    r.forEach((t, s) => seen.push(`${t}${s}`));
    assert.deepEqual(seen, ['a1', 'a2', 'a7']);
  });

  it('files into and removes from a saved list without decoding it, with the same sizes, slots and saved form as a set', () => {
    const lazy = restored({ t: [2, 5, 10] });
    const eager = restored({ t: [2, 5, 10] });
    eager.get('t'); // decoded at once
    const both = (f: (p: Postings) => void) => [lazy, eager].forEach(f);
    both((p) => p.remove('t', 5)); // an edit removes its slot …
    both((p) => p.add('t', 5)); // … and files it again
    both((p) => p.add('t', 12)); // a new memory
    both((p) => p.remove('t', 2)); // a deleted one
    both((p) => p.add('t', 7));
    both((p) => p.remove('t', 7)); // filed, then removed before any save
    assert.equal(lazy.size('t'), 3);
    assert.deepEqual(lists(lazy), lists(eager));
    assert.deepEqual(lists(lazy), [['t', [5, 5, 2]]]);
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
    assert.deepEqual(lists(lazy), []);
    const gone = restored({ u: [4] });
    gone.remove('u', 4);
    assert.equal(gone.get('u'), undefined, 'a saved list emptied without decoding forgets its term');
  });

  it('keeps slots filed in ascending order as a gap list, and any order after that as a set would', () => {
    const p = new Postings();
    for (const slot of [0, 1, 4, 9]) p.add('t', slot); // a fresh clone's build: slot order
    assert.deepEqual(lists(p), [['t', [0, 1, 3, 5]]]);
    p.add('t', 2); // a reused slot
    p.remove('t', 4);
    p.add('t', 12);
    assert.equal(p.size('t'), 5);
    assert.deepEqual(lists(p), [['t', [0, 1, 1, 7, 3]]]);
    assert.deepEqual(
      [...p.get('t')!].sort((a, b) => a - b),
      [0, 1, 2, 9, 12],
    );
  });
});
