import { strict as assert } from 'node:assert';
import { Ontology } from '../../../src/core/playbook/ontology';
import { factProposalHandler } from '../../../src/core/playbook/factProposals';
import { FactService } from '../../../src/core/playbook/factService';
import { ProposalService } from '../../../src/core/playbook/proposalService';
import { BACKENDS, openService, prepareBackend } from '../../helpers/builders';
import { fact, ONTOLOGY, openPlaybook, testClock } from './playbookHelpers';

const owner = (team: string, source: string) => fact({ subject: 'billing', predicate: 'owned_by', object: team, source });

for (const backend of BACKENDS)
  describe(`facts without an ontology [${backend}] (a possible contradiction is reported, nothing replaced)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('asserting another object for the same subject and predicate reports the live fact with its evidence; both stay active', async () => {
      const l = await openPlaybook(backend);
      const first = await l.facts.assert(owner('payments-team', 'wiki/teams'));
      assert.deepEqual(first.possibleContradictions, []);
      const second = await l.facts.assert(owner('platform-team', 'CODEOWNERS'));
      assert.equal(second.outcome, 'created');
      assert.deepEqual(
        second.possibleContradictions.map((f) => [f.id, f.object, f.source, f.status]),
        [[first.id, 'payments-team', 'wiki/teams', 'active']],
      );
      const { items } = await l.facts.query({ subject: 'billing', predicate: 'owned_by' });
      assert.deepEqual(items.map((f) => [f.object, f.status]).sort(), [
        ['payments-team', 'active'],
        ['platform-team', 'active'],
      ]);
      // The same triple again is a refresh, not a contradiction of itself.
      assert.deepEqual((await l.facts.assert(owner('platform-team', 'CODEOWNERS'))).possibleContradictions.length, 1);
      await l.close();
    });

    it("a proposal says what it may contradict, with both facts' evidence, for the person who decides", async () => {
      const clock = testClock();
      const { store } = await openService({ backend });
      const facts = (author: string) => new FactService(store.records, { author, now: clock.now });
      const proposals = new ProposalService(store, { targets: { fact: factProposalHandler(facts, facts('agent')) }, now: clock.now });
      const kept = await facts('ana@example.com').assert(owner('payments-team', 'wiki/teams'));
      const p = await proposals.propose({ target: 'fact', payload: owner('platform-team', 'CODEOWNERS'), proposedBy: 'copilot' });
      assert.equal(p.warnings.length, 1);
      assert.match(
        p.warnings[0]!,
        new RegExp(
          `^may contradict active fact ${kept.id}: billing owned_by payments-team \\(source wiki/teams, confidence 0.8, asserted by ana@example.com\\)`,
        ),
      );
      assert.match(p.summary, /platform-team.*source CODEOWNERS/);
      await store.close();
    });

    it('with an ontology, a many-valued relation reports nothing and a single-valued one disputes as before', async () => {
      const l = await openPlaybook(backend, { ontology: Ontology.parse(ONTOLOGY) });
      await l.facts.assert(fact({ subject: 'service:billing', predicate: 'depends_on', object: 'database:ledger' }));
      const many = await l.facts.assert(fact({ subject: 'service:billing', predicate: 'depends_on', object: 'service:auth' }));
      assert.deepEqual([many.outcome, many.possibleContradictions], ['created', []]);
      await l.facts.assert(fact({ subject: 'service:billing', predicate: 'owned_by', object: 'team:payments' }));
      const one = await l.facts.assert(fact({ subject: 'service:billing', predicate: 'owned_by', object: 'team:platform' }));
      assert.deepEqual([one.outcome, one.possibleContradictions], ['disputed', []]);
      await l.close();
    });
  });
