import { strict as assert } from 'node:assert';
import { groupFacts, stateOf, type ViewFact } from '../../../src/vscode/facts/factGrouping';

const NOW = '2026-11-29T12:00:00.000Z';

function fact(id: string, subject: string, status: ViewFact['status'], confidence: number | null, extra: Partial<ViewFact> = {}): ViewFact {
  const f = {
    id,
    version: 1,
    subject,
    predicate: 'p',
    object: id,
    source: 's',
    observedAt: NOW,
    confidence,
    validUntil: null,
    status,
    verification: { state: 'unverified' as const },
    disputedWith: [],
    retraction: null,
    assertedBy: 'a',
    changedAt: NOW,
    ...extra,
  };
  return { ...f, state: stateOf(f, NOW) };
}

describe('Facts view grouping', () => {
  it('reads a live fact past its valid-until as expired, and leaves other statuses alone', () => {
    assert.equal(fact('a', 's', 'active', 1, { validUntil: '2026-11-29T11:00:00.000Z' }).state, 'expired');
    assert.equal(fact('b', 's', 'disputed', 1, { validUntil: '2026-11-29T13:00:00.000Z' }).state, 'disputed');
    assert.equal(fact('c', 's', 'retracted', 1, { validUntil: '2026-11-29T11:00:00.000Z' }).state, 'retracted');
  });

  it('groups by subject case-insensitively, disputed subjects first, then by name', () => {
    const groups = groupFacts(
      [
        fact('1', 'zeta', 'active', 1),
        fact('2', 'Alpha', 'active', 1),
        fact('3', 'mid', 'disputed', 0.5),
        fact('4', 'alpha', 'active', 0.2),
      ],
      false,
    );
    assert.deepEqual(
      groups.map((g) => [g.subject, g.disputed, g.facts.map((f) => f.id)]),
      [
        ['mid', true, ['3']],
        ['Alpha', false, ['2', '4']],
        ['zeta', false, ['1']],
      ],
    );
  });

  it("orders a subject's facts disputed, active, expired, retracted, each by confidence, and hides inactive ones unless asked", () => {
    const facts = [
      fact('r', 's', 'retracted', 1),
      fact('lo', 's', 'active', 0.2),
      fact('none', 's', 'active', null),
      fact('x', 's', 'expired', 1),
      fact('d', 's', 'disputed', 0.1),
      fact('hi', 's', 'active', 0.9),
    ];
    assert.deepEqual(
      groupFacts(facts, false)[0]!.facts.map((f) => f.id),
      ['d', 'hi', 'lo', 'none'],
    );
    assert.deepEqual(
      groupFacts(facts, true)[0]!.facts.map((f) => f.id),
      ['d', 'hi', 'lo', 'none', 'x', 'r'],
    );
    assert.deepEqual(groupFacts([fact('r', 'gone', 'retracted', 1)], false), []);
  });
});
