import { strict as assert } from 'node:assert';
import { ValidationError } from '../../../src/core/errors';
import { Playbook } from '../../../src/core/playbook/playbook';
import { DEFAULT_POLICY, mergePolicy, type PolicyOverrides } from '../../../src/core/playbook/policy';
import { draftProposalId } from '../../../src/core/playbook/promotion';
import { BACKENDS, memory, openService, prepareBackend, type Opened } from '../../helpers/builders';
import { fact } from './playbookHelpers';
import { episode, rejects, skill, writeEpisodes } from './skillHelpers';

for (const backend of BACKENDS)
  describe(`Playbook [${backend}] (the services composed: approvers from the policy, promotion)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    /** A store as a second process sees it: the same folder, or the same PostgreSQL project. */
    async function secondProcess(first: Opened): Promise<Opened> {
      const shared = first as Opened & { dir?: string; project?: string };
      return backend === 'postgres' ? openService({ backend, project: shared.project! }) : openService({ dir: shared.dir! });
    }

    function playbookOver(opened: Opened, policy: PolicyOverrides = {}) {
      return new Playbook(opened.store, opened.service, { author: 'agent', policy: () => mergePolicy(DEFAULT_POLICY, policy) });
    }

    it('a tier’s owner always counts as an approver; naming only the owner lets only the owner decide', async () => {
      const opened = await openService({ backend });
      const { proposals } = playbookOver(opened, {
        procedural: { owner: 'lead@example.com' },
        semantic: { owner: 'facts@example.com', approvers: ['bo'] },
      });
      const s = await proposals.propose({ target: 'skill', payload: skill(), proposedBy: 'copilot' });
      await rejects(
        proposals.approve({ id: s.proposalId, by: 'anyone' }),
        ValidationError,
        /anyone( \(database role \w+\))? may not decide skill proposals; who may: lead@example\.com$/,
      );
      await rejects(proposals.reject({ id: s.proposalId, by: 'anyone', reason: 'no' }), ValidationError, /who may: lead@example\.com/);
      assert.equal((await proposals.approve({ id: s.proposalId, by: 'Lead@Example.com' })).state, 'approved');
      const f1 = await proposals.propose({ target: 'fact', payload: fact(), proposedBy: 'copilot' });
      const f2 = await proposals.propose({ target: 'fact', payload: fact({ object: 'redis' }), proposedBy: 'copilot' });
      await rejects(proposals.approve({ id: f1.proposalId, by: 'anyone' }), ValidationError, /who may: facts@example\.com, bo/);
      assert.equal(
        (await proposals.approve({ id: f1.proposalId, by: 'facts@example.com' })).state,
        'approved',
        'the owner, alongside the approvers',
      );
      assert.equal((await proposals.approve({ id: f2.proposalId, by: 'bo' })).state, 'approved');
      const m = await proposals.propose({ target: 'memory', payload: memory(), proposedBy: 'copilot' });
      assert.equal((await proposals.approve({ id: m.proposalId, by: 'anyone' })).state, 'approved', 'no owner, no approvers: anyone');
      await opened.store.close();
    });

    it('search counts of an unattended run that was not recorded wait for the next recorded run', async () => {
      const opened = await openService({ backend });
      const l = playbookOver(opened);
      l.searchReads.searched(['a', 'b']);
      l.searchReads.read('a');
      const idle = await l.runForgetting('activation');
      assert.equal(idle.id, null);
      l.searchReads.searched(['c']);
      const asked = await l.runForgetting('command');
      assert.deepEqual(asked.searchReads, { searches: 2, returned: 3, read: 1 });
      assert.deepEqual(
        (await l.lifecycle.reports({})).map((r) => r.id),
        [asked.id],
      );
      assert.deepEqual((await l.runForgetting('cli')).searchReads, { searches: 0, returned: 0, read: 0 }, 'a recorded run takes them');
      await opened.store.close();
    });

    it('two promotion runs at once (two processes) queue a draft once, under the id its evidence gives', async () => {
      const first = await openService({ backend });
      const second = await secondProcess(first);
      const ids = await writeEpisodes(first.store, [
        episode({ task: 'Fix the flaky login test in CI', executor: 'ana' }),
        episode({ task: 'Fix flaky checkout test on CI', executor: 'copilot' }),
        episode({ task: 'fix the flaky signup test in CI', executor: 'ana' }),
      ]);
      const runs = await Promise.all([playbookOver(first).promote(), playbookOver(second).promote(), playbookOver(first).promote()]);
      assert.deepEqual(runs.flat(), [draftProposalId(ids)], 'one run queued it; the others found it');
      assert.equal(await first.store.records.count({ kind: 'proposal' }), 1);
      assert.deepEqual(await playbookOver(second).promote(), [], 'a later run finds it pending');
      await second.store.close();
      await first.store.close();
    });
  });

describe('draftProposalId', () => {
  it('is a version-5 UUID of the evidence, whatever its order', () => {
    const id = draftProposalId(['b', 'a', 'c']);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(draftProposalId(['c', 'a', 'b']), id);
    assert.notEqual(draftProposalId(['a', 'b']), id);
  });
});
