import { strict as assert } from 'node:assert';
import { describedTerms } from '../../../src/core/search/analysis';
import { SearchIndex } from '../../../src/core/search/searchIndex';
import { analyzeQuery } from '../../../src/core/search/query';
import { jaccard } from '../../../src/core/playbook/skillMatch';
import { corpusRows } from '../../helpers/builders';
import { throughFile } from '../../helpers/packed';
import { prng } from '../../../bench/generate';

// SearchIndex.similar reads only the postings of a query's rarer terms (prefix filtering); these
// tests hold it to a scan of every memory, on both evaluation corpora and a restored index.
describe('SearchIndex.similar: memories alike in description and tag terms', () => {
  // The two corpora number their ids alike: the second set's get another first group.
  const rows = [...corpusRows('eval'), ...corpusRows('eval2').map((r) => ({ ...r, id: r.id.replace(/^0{8}/, '20000000') }))];
  // Near-copies, so that high thresholds have something to find: a word dropped, a tag added.
  const copies = rows.slice(0, 40).map((r, i) => ({
    ...r,
    id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    description: r.description.split(' ').slice(1).join(' '),
    tags: [...r.tags, 'copy'],
  }));
  const all = [...rows, ...copies];
  const terms = new Map(all.map((r) => [r.id, describedTerms(r)]));
  const scan = (mine: ReadonlySet<string>, min: number) =>
    all
      .map((r) => ({ id: r.id, similarity: jaccard(mine, terms.get(r.id)!) }))
      .filter((r) => r.similarity >= min)
      .map((r) => r.id)
      .sort();

  const built = new SearchIndex();
  for (const r of all) built.put(r);
  const restored = SearchIndex.restore(throughFile(built.save()));

  for (const [name, index] of [
    ['built', built],
    ['restored from its saved form', restored],
  ] as const)
    it(`finds exactly what a scan of every memory finds, at thresholds 0.2 to 1, most alike first (${name})`, () => {
      let found = 0;
      for (const min of [0.2, 0.4, 0.595, 0.8, 1]) {
        for (const r of all.filter((_, i) => i % 3 === 0)) {
          const mine = terms.get(r.id)!;
          const hits = index.similar(mine, min, 10_000);
          assert.deepEqual(hits.map((h) => h.id).sort(), scan(mine, min), `${r.description} at ${min}`);
          for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.similarity >= hits[i]!.similarity);
          for (const h of hits) assert.equal(h.similarity, jaccard(mine, terms.get(h.id)!));
          found += hits.length;
        }
      }
      assert.ok(found > 400, `the thresholds find something (${found})`);
    });

  it("keeps each memory's term count through edits, removals and freed slots reused, saved and restored again", () => {
    // The similarity of a candidate comes from a count kept per slot (DocSlots.termCount), not
    // from reading the memory: a count left behind by a slot's previous memory would show here.
    const index = SearchIndex.restore(throughFile(built.save()));
    const now = new Map(all.map((r) => [r.id, r]));
    for (const [i, r] of all.entries()) {
      if (i % 7 === 0) {
        index.remove(r.id);
        now.delete(r.id);
      } else if (i % 7 === 1) {
        // A longer description: the count grows; the edited memory keeps or changes its slot.
        const edited = { ...r, description: `${r.description} with a much longer wording added afterwards` };
        index.put(edited);
        now.set(r.id, edited);
      }
    }
    // New memories take the freed slots: each a copy of a removed one's tags with a short description.
    for (const [i, r] of all.filter((_, i) => i % 7 === 0).entries()) {
      const added = { ...r, id: `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`, description: r.description.split(' ')[0]! };
      index.put(added);
      now.set(added.id, added);
    }
    const again = SearchIndex.restore(throughFile(index.save()));
    const nowTerms = new Map([...now].map(([id, r]) => [id, describedTerms(r)]));
    let found = 0;
    for (const ix of [index, again]) {
      for (const r of [...now.values()].filter((_, i) => i % 5 === 0)) {
        const mine = nowTerms.get(r.id)!;
        const expected = [...now.keys()].filter((id) => jaccard(mine, nowTerms.get(id)!) >= 0.4).sort();
        const hits = ix.similar(mine, 0.4, 10_000);
        assert.deepEqual(hits.map((h) => h.id).sort(), expected, r.description);
        for (const h of hits) assert.equal(h.similarity, jaccard(mine, nowTerms.get(h.id)!));
        found += hits.length;
      }
    }
    assert.ok(found > 100, `the check finds something (${found})`);
  });

  it('finds what a scan finds among thousands sharing common words (long lists: memories dropped as the terms go, the last few read)', () => {
    // A small vocabulary drawn unevenly: the common words' lists hold thousands of memories, so
    // the check drops memories term by term and reads the last few instead of walking those lists.
    const rnd = prng(23);
    const words = Array.from(
      { length: 80 },
      (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    );
    const pick = () => words[Math.floor(words.length * rnd() ** 2)]!;
    const many = Array.from({ length: 4000 }, (_, i) => ({
      id: `40000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      description: Array.from({ length: 5 + Math.floor(rnd() * 10) }, pick).join(' '),
      tags: rnd() < 0.5 ? [pick()] : [],
      changedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    const index = new SearchIndex();
    for (const r of many) index.put(r);
    const restoredMany = SearchIndex.restore(throughFile(index.save()));
    // A long-lived one, whose searches decoded the common words' lists into sets: those are
    // probed once per memory still in the running instead of walked or read (Postings.isSet).
    const searched = SearchIndex.restore(throughFile(index.save()));
    for (const w of words.slice(0, 40)) assert.ok(searched.search(analyzeQuery([w], [], 1)).length > 0, w);
    const manyTerms = many.map((r) => [r.id, describedTerms(r)] as const);
    let found = 0;
    for (const min of [0.3, 0.595, 0.8]) {
      for (const r of many.filter((_, i) => i % 40 === 0)) {
        const mine = describedTerms(r);
        const expected = manyTerms.filter(([, t]) => jaccard(mine, t) >= min).map(([id]) => id);
        for (const ix of [index, restoredMany, searched]) {
          const hits = ix.similar(mine, min, 100_000);
          assert.deepEqual(hits.map((h) => h.id).sort(), expected.sort(), `${r.description} at ${min}`);
        }
        found += expected.length;
      }
    }
    assert.ok(found > 300, `the thresholds find something (${found})`);
  });

  it('answers at most `limit`, the most alike; nothing for no terms or terms no memory holds', () => {
    const mine = terms.get(copies[0]!.id)!;
    const hits = built.similar(mine, 0.2, 3);
    assert.equal(hits.length, 3);
    assert.equal(hits[0]!.id, copies[0]!.id);
    assert.deepEqual(built.similar(new Set(), 0.1, 10), []);
    assert.deepEqual(built.similar(new Set(['zzzunknownterm']), 0.1, 10), []);
  });

  it('reads enough of the rarer terms: a memory holding none of the two rarest is still found', () => {
    // Query terms by how many memories hold them: alpha 1, bravo 1, charlie 2, delta 6, echo 6. At
    // 0.6 of five terms a memory must share three, so it holds one of the three rarest; X holds
    // only the third of them (charlie), with delta and echo: 3 / 5 = 0.6.
    const index = new SearchIndex();
    const put = (id: string, description: string) => index.put({ id, description, tags: [], changedAt: '2026-01-01T00:00:00.000Z' });
    put('x', 'charlie delta echo');
    put('a', 'alpha');
    put('b', 'bravo');
    put('c', 'charlie');
    for (let i = 0; i < 5; i++) put(`d${i}`, `delta echo filler${i}`);
    const mine = describedTerms({ description: 'alpha bravo charlie delta echo', tags: [] });
    assert.deepEqual(
      index.similar(mine, 0.6, 10).map((h) => [h.id, h.similarity]),
      [['x', 0.6]],
    );
  });
});
