import { strict as assert } from 'node:assert';
import { ConflictError } from '../../../src/core/errors';
import { MemoryService } from '../../../src/core/memoryService';
import { factProposalHandler } from '../../../src/core/playbook/factProposals';
import { FactService } from '../../../src/core/playbook/factService';
import { memoryProposalHandler, skillProposalHandler } from '../../../src/core/playbook/proposalHandlers';
import { APPROVAL_STALE_MS } from '../../../src/core/playbook/proposalDecisions';
import { ProposalService } from '../../../src/core/playbook/proposalService';
import type { ProposalTargetHandler } from '../../../src/core/playbook/proposalTargets';
import { SkillService } from '../../../src/core/playbook/skillService';
import type { RecordDecision } from '../../../src/core/ports/records';
import type { Store } from '../../../src/core/ports/store';
import { BACKENDS, memory, openService, prepareBackend } from '../../helpers/builders';
import { fact, testClock } from './playbookHelpers';
import { rejects, skill } from './skillHelpers';

/** The queue's view of a store whose n-th proposal write never happens: the process died just before it. */
function dyingAt(store: Store, n: number): Store {
  let count = 0;
  const records = new Proxy(store.records, {
    get(target, key) {
      if (key === 'write') {
        return (scope: string, decide: RecordDecision) =>
          scope.startsWith('proposal:') && ++count === n
            ? Promise.reject(new Error('simulated crash: the process died here'))
            : target.write(scope, decide);
      }
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { records } as unknown as Store;
}

/** A handler whose first apply fails: before writing anything, or after its write went through (a lost reply). */
function failingOnce(h: ProposalTargetHandler, when: 'before' | 'after'): ProposalTargetHandler {
  let failed = false;
  return {
    ...h,
    async apply(r) {
      if (failed) return h.apply(r);
      failed = true;
      if (when === 'after') await h.apply(r);
      throw new Error('connection lost');
    },
  };
}

type Target = 'memory' | 'memory edit' | 'skill' | 'fact';
const TARGETS: Target[] = ['memory', 'memory edit', 'skill', 'fact'];

for (const backend of BACKENDS)
  describe(`ProposalService [${backend}]: an interrupted approval is completed, never duplicated`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    async function open(target: Target) {
      const clock = testClock();
      const opened = await openService({ backend, author: 'agent', now: clock.now });
      const skills = new SkillService(opened.store, { author: 'agent', now: clock.now });
      const facts = (author: string) => new FactService(opened.store.records, { author, now: clock.now });
      const handlers: Record<'memory' | 'skill' | 'fact', ProposalTargetHandler> = {
        memory: memoryProposalHandler({
          service: opened.service,
          serviceFor: (author) => new MemoryService(opened.store, { author, now: clock.now }),
        }),
        skill: skillProposalHandler(skills),
        fact: factProposalHandler(facts, facts('agent')),
      };
      const queue = (over: Partial<typeof handlers> = {}, store: Store = opened.store) =>
        new ProposalService(store, { targets: { ...handlers, ...over }, now: clock.now });
      const kind = target === 'memory edit' ? 'memory' : target;
      let edited = '';
      if (target === 'memory edit') edited = (await opened.service.create(memory())).id;
      const input = {
        memory: { target: 'memory', payload: memory() },
        'memory edit': { target: 'memory', action: 'edit', targetId: edited, payload: { content: 'Pinned the runner image.' } },
        skill: { target: 'skill', payload: skill() },
        fact: { target: 'fact', payload: fact() },
      }[target];
      const { proposalId: id } = await queue().propose({ ...input, proposedBy: 'copilot' });
      /** The ids written for this proposal and how many versions they hold: one item, one version of it (two for the edited memory). */
      async function written(): Promise<{ ids: string[]; versions: number }> {
        if (target === 'skill') {
          const h = await skills.history('deploy-preview').catch(() => []);
          return { ids: [...new Set(h.map((v) => v.id))], versions: h.length };
        }
        if (target === 'fact') {
          const { items } = await facts('x').query({ subject: 'billing', includeInactive: true });
          const versions = (await Promise.all(items.map((f) => facts('x').history({ id: f.id })))).flat().length;
          return { ids: items.map((f) => f.id), versions };
        }
        const { items } = await opened.service.list({});
        const versions = (await Promise.all(items.map((m) => opened.service.history({ id: m.id })))).flat().length;
        return { ids: items.map((m) => m.id), versions };
      }
      const expectedVersions = target === 'memory edit' ? 2 : 1;
      return { ...opened, clock, id, kind, handlers, queue, written, expectedVersions };
    }

    for (const target of TARGETS) {
      it(`${target}: a crash between writing the item and recording it is completed by approving again, without a second write`, async () => {
        const { store, clock, id, queue, written, expectedVersions } = await open(target);
        await rejects(queue({}, dyingAt(store, 2)).approve({ id, by: 'ana' }), Error, /simulated crash/);
        const stuck = await queue().get(id);
        assert.deepEqual([stuck.state, stuck.decision?.by, stuck.decision?.resultId], ['approved', 'ana', null]);
        const before = await written();
        assert.equal(before.ids.length, 1, 'the item was written before the crash');
        await rejects(
          queue().approve({ id, by: 'bo' }),
          ConflictError,
          /being approved by ana since .* approve it again after 2026-03-01T12:01:00\.000Z to complete it/,
        );
        await rejects(
          queue().reject({ id, by: 'bo', reason: 'stuck' }),
          ConflictError,
          /its result is not recorded yet; if that approval was interrupted, approve it again/,
        );
        clock.advance(APPROVAL_STALE_MS);
        const done = await queue().approve({ id, by: 'bo' });
        assert.equal(done.resultId, before.ids[0]);
        assert.match(done.note ?? '', /completed an interrupted approval/);
        assert.deepEqual(await written(), { ids: before.ids, versions: expectedVersions }, 'nothing was written twice');
        assert.deepEqual((await queue().get(id)).decision, {
          state: 'approved',
          by: 'bo',
          at: done.at,
          reason: '',
          resultId: done.resultId,
        });
        await rejects(queue().approve({ id, by: 'bo' }), ConflictError, /already approved by bo .* a decision is final/);
        await store.close();
      });

      it(`${target}: an apply that fails after its write went through leaves the proposal pending; approving again finds the write`, async () => {
        const { store, id, kind, handlers, queue, written, expectedVersions } = await open(target);
        await rejects(queue({ [kind]: failingOnce(handlers[kind], 'after') }).approve({ id, by: 'ana' }), Error, /connection lost/);
        const back = await queue().get(id);
        assert.equal(back.state, 'pending');
        assert.match(back.validation.warnings.at(-1)!, /approval by ana .* failed: connection lost/);
        const done = await queue().approve({ id, by: 'ana' });
        assert.match(done.note ?? '', /completed an interrupted approval/);
        const after = await written();
        assert.deepEqual(after, { ids: [done.resultId], versions: expectedVersions }, 'one item, written once');
        await store.close();
      });
    }

    it('a crash after the claim, before anything was written, is completed by approving again, writing once', async () => {
      const { store, clock, id, handlers, queue, written } = await open('memory');
      // The apply fails before writing and the process dies before it can put the proposal back.
      await rejects(
        queue({ memory: failingOnce(handlers.memory, 'before') }, dyingAt(store, 2)).approve({ id, by: 'ana' }),
        Error,
        /simulated crash/,
      );
      assert.deepEqual([(await queue().get(id)).state, (await written()).ids], ['approved', []]);
      clock.advance(APPROVAL_STALE_MS);
      const done = await queue().approve({ id, by: 'ana' });
      assert.equal(done.note, undefined, 'nothing had been written: this approval wrote it');
      assert.deepEqual((await written()).ids, [done.resultId]);
      await store.close();
    });
  });
