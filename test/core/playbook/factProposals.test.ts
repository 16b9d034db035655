import { strict as assert } from 'node:assert';
import { factProposalHandler } from '../../../src/core/playbook/factProposals';
import { FactService } from '../../../src/core/playbook/factService';
import { ProposalService } from '../../../src/core/playbook/proposalService';
import { BACKENDS, openService, prepareBackend } from '../../helpers/builders';
import { fact, testClock } from './playbookHelpers';

for (const backend of BACKENDS)
  describe(`fact proposals [${backend}] (what is queued is what was checked)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('queues the checked assertion with observedAt set when proposed: approved ten days later, it was still observed on the day proposed', async () => {
      const clock = testClock('2026-03-01T09:30:00.000Z');
      const { store } = await openService({ backend });
      const facts = (author: string) => new FactService(store.records, { author, now: clock.now });
      const proposals = new ProposalService(store, { targets: { fact: factProposalHandler(facts, facts('agent')) }, now: clock.now });
      const p = await proposals.propose({ target: 'fact', payload: fact({ subject: '  billing ' }), proposedBy: 'copilot' });
      const queued = await proposals.get(p.proposalId);
      assert.deepEqual(queued.payload, {
        subject: 'billing',
        predicate: 'uses',
        object: 'postgres',
        source: 'docs/architecture.md',
        confidence: 0.8,
        observedAt: '2026-03-01T09:30:00.000Z',
        validUntil: null,
      });
      clock.set('2026-03-11T16:00:00.000Z');
      const d = await proposals.approve({ id: p.proposalId, by: 'ana@example.com' });
      const written = await facts('x').show({ id: d.resultId });
      assert.deepEqual(
        [written.observedAt, written.assertedBy, written.changedAt],
        ['2026-03-01T09:30:00.000Z', 'ana@example.com', '2026-03-11T16:00:00.000Z'],
      );
      await store.close();
    });

    it('an observedAt the proposer gave is kept as given', async () => {
      const clock = testClock('2026-03-01T09:30:00.000Z');
      const { store } = await openService({ backend });
      const facts = (author: string) => new FactService(store.records, { author, now: clock.now });
      const proposals = new ProposalService(store, { targets: { fact: factProposalHandler(facts, facts('agent')) }, now: clock.now });
      const p = await proposals.propose({
        target: 'fact',
        payload: fact({ observedAt: '2026-02-20T08:00:00.000Z' }),
        proposedBy: 'copilot',
      });
      clock.days(3);
      const d = await proposals.approve({ id: p.proposalId, by: 'ana@example.com' });
      assert.equal((await facts('x').show({ id: d.resultId })).observedAt, '2026-02-20T08:00:00.000Z');
      await store.close();
    });
  });
