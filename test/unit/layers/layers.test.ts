import { strict as assert } from 'node:assert';
import { ValidationError } from '../../../src/core/errors';
import { Layers } from '../../../src/core/layers/layers';
import { DEFAULT_POLICY, mergePolicy, type PolicyOverrides } from '../../../src/core/layers/policy';
import { BACKENDS, memory, openService, prepareBackend, type Opened } from '../../helpers/builders';
import { fact } from './layerHelpers';
import { rejects, skill } from './skillHelpers';

for (const backend of BACKENDS) describe(`Layers [${backend}] (the services composed: approvers from the policy)`, function () {
  before(async function () {
    await prepareBackend(backend, this);
  });

  function layersOver(opened: Opened, policy: PolicyOverrides = {}) {
    return new Layers(opened.store, opened.service, { author: 'agent', policy: () => mergePolicy(DEFAULT_POLICY, policy) });
  }

  it('a layer’s owner always counts as an approver; naming only the owner lets only the owner decide', async () => {
    const opened = await openService({ backend });
    const { proposals } = layersOver(opened, { procedural: { owner: 'lead@example.com' }, semantic: { owner: 'facts@example.com', approvers: ['bo'] } });
    const s = await proposals.propose({ target: 'skill', payload: skill(), proposedBy: 'copilot' });
    await rejects(proposals.approve({ id: s.proposalId, by: 'anyone' }), ValidationError, /anyone may not decide skill proposals; who may: lead@example\.com$/);
    await rejects(proposals.reject({ id: s.proposalId, by: 'anyone', reason: 'no' }), ValidationError, /who may: lead@example\.com/);
    assert.equal((await proposals.approve({ id: s.proposalId, by: 'Lead@Example.com' })).state, 'approved');
    const f1 = await proposals.propose({ target: 'fact', payload: fact(), proposedBy: 'copilot' });
    const f2 = await proposals.propose({ target: 'fact', payload: fact({ object: 'redis' }), proposedBy: 'copilot' });
    await rejects(proposals.approve({ id: f1.proposalId, by: 'anyone' }), ValidationError, /who may: facts@example\.com, bo/);
    assert.equal((await proposals.approve({ id: f1.proposalId, by: 'facts@example.com' })).state, 'approved', 'the owner, alongside the approvers');
    assert.equal((await proposals.approve({ id: f2.proposalId, by: 'bo' })).state, 'approved');
    const m = await proposals.propose({ target: 'memory', payload: memory(), proposedBy: 'copilot' });
    assert.equal((await proposals.approve({ id: m.proposalId, by: 'anyone' })).state, 'approved', 'no owner, no approvers: anyone');
    await opened.store.close();
  });
});
