import { strict as assert } from 'node:assert';
import { probeClauses, probeFor } from '../../../src/core/search/similarProbe';
import { prng } from '../../../bench/generate';

/** Whether a memory holding `held` meets the probe: all terms of one of its clauses. */
function meets(clauses: string[][], held: ReadonlySet<string>): boolean {
  return clauses.some((clause) => clause.every((t) => held.has(t)));
}

// The likely-duplicate check on the team database reads only the memories a probe reaches
// (serverSimilar.ts); the answer is exact only if every memory holding `need` of the terms is
// reached, whatever the shares (estimates from column statistics, possibly wrong or missing).
describe('similarProbe: which memories to read to find those holding need of n terms', () => {
  it('reaches every subset of the terms holding at least `need` of them, for any shares (random probes)', () => {
    const rnd = prng(17);
    let checked = 0;
    const kinds = new Set<number>();
    for (let round = 0; round < 400; round++) {
      const n = 1 + Math.floor(rnd() * 14);
      const terms = Array.from({ length: n }, (_, i) => ({
        term: `t${i}`,
        // Common, rare and unknown terms alike; ties on purpose.
        share: [0.9, 0.5, 0.1, 0.01, 0.001][Math.floor(rnd() * 5)]! * (rnd() < 0.2 ? 1 : rnd()),
      }));
      const need = 1 + Math.floor(rnd() * n);
      const probe = probeFor(terms, need, rnd() < 0.5 ? 0 : 1e-4);
      kinds.add(probe.atLeast);
      const clauses = probeClauses(probe);
      assert.ok(clauses.length > 0 && clauses.length <= 64, `${clauses.length} clauses`);
      // Every subset of the terms (n ≤ 14: at most 16,384), as what a memory holds of them.
      for (let mask = 0; mask < 1 << n; mask++) {
        const held = new Set(terms.filter((_, i) => mask & (1 << i)).map((t) => t.term));
        if (held.size >= need) {
          assert.ok(meets(clauses, held), `n ${n}, need ${need}, probe ${JSON.stringify(probe)} misses {${[...held].join(',')}}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 10_000, `checked ${checked}`);
    assert.deepEqual([...kinds].sort(), [1, 2, 3], 'prefixes, pairs and triples were all chosen');
  });

  it('reads through a rare term when there is one, and through pairs of terms when every term is common', () => {
    const rare = probeFor(
      [
        { term: 'error', share: 0.8 },
        { term: 'quokka', share: 0.0001 },
        { term: 'test', share: 0.6 },
        { term: 'walrus', share: 0.0002 },
      ],
      3,
    );
    // Every clause holds a rare term: none reaches the memories that hold only common words.
    for (const clause of probeClauses(rare)) assert.ok(clause.includes('quokka') || clause.includes('walrus'), JSON.stringify(rare));
    assert.deepEqual(
      probeFor(
        [
          { term: 'error', share: 0.8 },
          { term: 'quokka', share: 0.0001 },
        ],
        1,
      ),
      { atLeast: 1, groups: [['quokka', 'error']] },
    );

    const common = Array.from({ length: 12 }, (_, i) => ({ term: `w${i}`, share: 0.1 + i * 0.05 }));
    const probe = probeFor(common, 8, 2e-5);
    assert.ok(probe.atLeast >= 2, JSON.stringify(probe));
    // Pairs or triples of common words reach fewer memories than any five of them alone would.
    const prefixReach = common.slice(0, 5).reduce((a, t) => a + t.share, 0);
    const reach = probeClauses(probe).reduce((a, clause) => a + clause.reduce((p, t) => p * common.find((c) => c.term === t)!.share, 1), 0);
    assert.ok(reach < prefixReach / 2, `${reach} vs ${prefixReach}`);
  });
});
