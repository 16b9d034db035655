import { strict as assert } from 'node:assert';
import { ConflictError, SecretError, ValidationError } from '../../../src/core/errors';
import { Playbook } from '../../../src/core/playbook/playbook';
import { Ontology } from '../../../src/core/playbook/ontology';
import { retractFactTool } from '../../../src/core/contract';
import { runTool } from '../../../src/core/tools/runner';
import { BACKENDS, openService, prepareBackend } from '../../helpers/builders';
import { openPlaybook, rejects, testClock, ONTOLOGY } from './playbookHelpers';

const ontology = Ontology.parse(ONTOLOGY);
const owner = (team: string, over: Record<string, unknown> = {}) => ({
  subject: 'service:billing',
  predicate: 'owned_by',
  object: `team:${team}`,
  source: `https://wiki/${team}`,
  confidence: 0.7,
  ...over,
});

for (const backend of BACKENDS)
  describe(`FactService [${backend}] with an ontology: checks, conflicts and their resolution`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('refuses an unknown relation with the allowed ones, and a reversed direction, writing nothing', async () => {
      const l = await openPlaybook(backend, { ontology });
      await rejects(
        l.facts.assert(owner('payments', { predicate: 'maintained_by' })),
        ValidationError,
        /^predicate: relation "maintained_by" is not in the ontology; allowed relations: owned_by \(service → team, one object\); depends_on/,
      );
      await rejects(
        l.facts.assert(owner('payments', { subject: 'team:payments', object: 'service:billing' })),
        ValidationError,
        /did you mean "service:billing owned_by team:payments"/,
      );
      await rejects(l.facts.assert(owner('payments', { subject: 'billing' })), ValidationError, /write entities as type:name/);
      assert.equal(await l.rows(), 0);
      // Entities are stored canonically, so queries find them however they are written.
      const r = await l.facts.assert(owner('payments', { subject: 'Service: billing', object: 'TEAM:payments' }));
      assert.deepEqual([r.fact.subject, r.fact.object], ['service:billing', 'team:payments']);
      assert.equal((await l.facts.query({ subject: 'service: Billing' })).items.length, 1);
      await l.close();
    });

    it('a contradiction of a single-valued relation disputes both in one write and returns both with their evidence', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock, ontology });
      const first = await l.facts.assert(owner('payments'));
      clock.advance(60_000);
      const rowsBefore = await l.rows();
      const write = l.records.write.bind(l.records);
      const scopes: string[] = [];
      l.records.write = (scope, decide) => (scopes.push(scope), write(scope, decide));
      const second = await l.as('bo@example.com').facts.assert(owner('platform', { confidence: 0.9 }));
      assert.deepEqual(scopes, ['fact:service:billing']); // one atomic write for both facts
      assert.equal(second.outcome, 'disputed');
      assert.equal(second.fact.status, 'disputed');
      assert.equal(await l.rows(), rowsBefore + 2); // the new fact and a new version of the old one
      const byId = new Map(second.disputes.map((f) => [f.id, f]));
      assert.deepEqual([...byId.keys()].sort(), [first.id, second.id].sort());
      const a = byId.get(first.id)!;
      const b = byId.get(second.id)!;
      assert.deepEqual(
        [a.status, a.disputedWith, a.source, a.confidence, a.assertedBy, a.observedAt],
        ['disputed', [second.id], 'https://wiki/payments', 0.7, 'ana@example.com', '2026-03-01T12:00:00.000Z'],
      );
      assert.deepEqual(
        [b.status, b.disputedWith, b.source, b.confidence, b.assertedBy],
        ['disputed', [first.id], 'https://wiki/platform', 0.9, 'bo@example.com'],
      );
      // Both stay visible to agents, flagged.
      assert.deepEqual(
        (await l.facts.query({ subject: 'service:billing' })).items.map((f) => [f.id, f.status]),
        [
          [second.id, 'disputed'],
          [first.id, 'disputed'],
        ],
      );
      // A third claim joins the dispute with both; a refresh of a disputed fact keeps it disputed.
      const third = await l.facts.assert(owner('data'));
      assert.deepEqual(new Set(third.fact.disputedWith), new Set([first.id, second.id]));
      const refreshed = await l.facts.assert(owner('payments', { confidence: 0.8 }));
      assert.deepEqual(
        [refreshed.outcome, refreshed.fact.status, refreshed.fact.disputedWith],
        ['refreshed', 'disputed', [second.id, third.id]],
      );
      await l.close();
    });

    it('two contradicting writers at once: the later decision sees the first and both end disputed', async () => {
      const l = await openPlaybook(backend, { ontology });
      const [x, y] = await Promise.all([l.facts.assert(owner('payments')), l.as('bo').facts.assert(owner('platform'))]);
      assert.deepEqual([x.outcome, y.outcome].sort(), ['created', 'disputed']);
      const now = (await l.facts.query({ subject: 'service:billing' })).items;
      assert.deepEqual(
        now.map((f) => f.status),
        ['disputed', 'disputed'],
      );
      await l.close();
    });

    it('many-valued relations and facts without an ontology never conflict', async () => {
      const l = await openPlaybook(backend, { ontology });
      await l.facts.assert(owner('x', { predicate: 'depends_on', object: 'database:pg' }));
      assert.equal((await l.facts.assert(owner('x', { predicate: 'depends_on', object: 'service:auth' }))).outcome, 'created');
      await l.close();
      const plain = await openPlaybook(backend);
      await plain.facts.assert(owner('payments'));
      assert.equal((await plain.facts.assert(owner('platform'))).outcome, 'created');
      await plain.close();
    });

    it('a fact past valid_until does not dispute a new one', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock, ontology });
      await l.facts.assert(owner('payments', { validUntil: '2026-03-02T00:00:00.000Z' }));
      clock.days(2);
      assert.equal((await l.facts.assert(owner('platform'))).outcome, 'created');
      await l.close();
    });

    it('resolve keep-one retracts the others and returns the kept one to active', async () => {
      const l = await openPlaybook(backend, { ontology });
      const a = await l.facts.assert(owner('payments'));
      const b = await l.facts.assert(owner('platform'));
      const out = await l.as('lead@example.com').facts.resolve({ ids: [a.id, b.id], decision: 'keep-one', keep: b.id });
      const byId = new Map(out.map((f) => [f.id, f]));
      assert.deepEqual([byId.get(b.id)!.status, byId.get(b.id)!.disputedWith], ['active', []]);
      assert.equal(byId.get(a.id)!.status, 'retracted');
      assert.deepEqual(byId.get(a.id)!.retraction!.by, 'lead@example.com');
      assert.match(byId.get(a.id)!.retraction!.reason, new RegExp(`kept fact ${b.id}`));
      assert.deepEqual(
        (await l.facts.query({ subject: 'service:billing' })).items.map((f) => f.id),
        [b.id],
      );
      await rejects(l.facts.resolve({ ids: [a.id, b.id], decision: 'keep-both' }), ConflictError, /is retracted, not disputed/);
      await l.close();
    });

    it('resolve keep-both keeps both active and never disputes that pair again', async () => {
      const l = await openPlaybook(backend, { ontology });
      const a = await l.facts.assert(owner('payments'));
      const b = await l.facts.assert(owner('platform'));
      const out = await l.facts.resolve({ ids: [a.id, b.id], decision: 'keep-both', reason: 'co-owned since the split' });
      assert.deepEqual(
        out.map((f) => [f.status, f.disputedWith]),
        [
          ['active', []],
          ['active', []],
        ],
      );
      // The same pair again: asserting either triple anew (even as a new fact after a retraction) raises no dispute.
      assert.equal((await l.facts.assert(owner('platform', { confidence: 0.9 }))).outcome, 'refreshed');
      await l.facts.retract({ id: a.id, reason: 'checking' });
      const again = await l.facts.assert(owner('payments'));
      assert.equal(again.outcome, 'created');
      assert.equal(again.fact.status, 'active');
      // A third owner still disputes both.
      const c = await l.facts.assert(owner('data'));
      assert.deepEqual(new Set(c.fact.disputedWith), new Set([again.id, b.id]));
      await l.close();
    });

    it('resolve retract-all retracts every side; facts outside the set keep their own dispute', async () => {
      const l = await openPlaybook(backend, { ontology });
      const a = await l.facts.assert(owner('payments'));
      const b = await l.facts.assert(owner('platform'));
      const c = await l.facts.assert(owner('data')); // disputed with a and b
      const out = await l.facts.resolve({ ids: [a.id, c.id], decision: 'retract-all' });
      assert.deepEqual(
        out.filter((f) => f.id !== b.id).map((f) => f.status),
        ['retracted', 'retracted'],
      );
      // b was disputed with a and c, both gone: active again.
      const bNow = await l.facts.show({ id: b.id });
      assert.deepEqual([bNow.status, bNow.disputedWith], ['active', []]);
      await l.close();
    });

    it('retracting one side of a dispute releases the other; resolve checks what it is given', async () => {
      const l = await openPlaybook(backend, { ontology });
      const a = await l.facts.assert(owner('payments'));
      const b = await l.facts.assert(owner('platform'));
      const other = await l.facts.assert({ subject: 'service:auth', predicate: 'owned_by', object: 'team:x', source: 's', confidence: 1 });
      const dep = await l.facts.assert(owner('x', { predicate: 'depends_on', object: 'database:pg' }));
      await rejects(l.facts.resolve({ ids: [a.id, other.id], decision: 'keep-both' }), ValidationError, /resolve one dispute at a time/);
      await rejects(l.facts.resolve({ ids: [a.id, dep.id], decision: 'keep-both' }), ValidationError, /resolve one dispute at a time/);
      const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
      await rejects(l.facts.resolve({ ids: [a.id, b.id], decision: 'keep-both', reason: `see ${token}` }), SecretError, /^reason: /);
      await rejects(l.facts.verify({ id: a.id, evidence: `checked with ${token}` }), SecretError, /^evidence: /);
      const before = await l.rows();
      await rejects(
        l.facts.resolve({ ids: [a.id, b.id], decision: 'keep-one', keep: '0b6c5f1e-8f0e-4d7a-9a51-5f1d2f0c9a11' }),
        ValidationError,
        /keep: keep-one needs keep/,
      );
      assert.equal(await l.rows(), before);
      await l.facts.retract({ id: b.id, reason: 'platform never owned it' });
      assert.equal(await l.rows(), before + 2);
      const aNow = await l.facts.show({ id: a.id });
      assert.deepEqual([aNow.status, aNow.disputedWith], ['active', []]);
      await l.close();
    });

    it('the model-facing retract refuses a disputed fact and a verified one (a person decides those); people still retract them', async () => {
      const { store, service } = await openService({ backend });
      const playbook = new Playbook(store, service, { author: 'ana@example.com', ontology: () => ontology });
      const retract = (id: string) =>
        runTool(retractFactTool, { memories: service, playbook, caller: () => 'copilot' }, { id, reason: 'I think it is wrong' });
      const a = await playbook.facts.assert(owner('payments'));
      const b = await playbook.facts.assert(owner('platform'));
      for (const [id, version] of [
        [a.id, 2],
        [b.id, 1],
      ] as const) {
        const err = await rejects(
          retract(id),
          ConflictError,
          new RegExp(
            `^fact ${id} \\(status disputed, with .*a person resolves disputes in the Facts view \\(keep one, keep both, retract all\\)\\. Do not retract it; tell the user why`,
          ),
        );
        assert.equal(err.currentVersion, version);
      }
      const verified = await playbook.facts.assert({
        subject: 'service:auth',
        predicate: 'depends_on',
        object: 'database:pg',
        source: 's',
        confidence: 1,
      });
      await playbook.facts.verify({ id: verified.id, evidence: 'https://wiki/auth' });
      await rejects(
        retract(verified.id),
        ConflictError,
        new RegExp(
          `^fact ${verified.id} \\(status active\\) was verified by ana@example.com at .*; only a person retracts a verified fact`,
        ),
      );
      assert.deepEqual(
        [(await playbook.facts.show({ id: a.id })).status, (await playbook.facts.show({ id: verified.id })).status],
        ['disputed', 'active'],
      );
      // An active, unverified fact the model may retract; a person may retract the others.
      const plain = await playbook.facts.assert({
        subject: 'service:auth',
        predicate: 'depends_on',
        object: 'service:ledger',
        source: 's',
        confidence: 1,
      });
      assert.equal(((await retract(plain.id)) as { status: string }).status, 'retracted');
      assert.equal((await playbook.facts.retract({ id: verified.id, reason: 'moved off pg' })).status, 'retracted');
      await playbook.facts.retract({ id: b.id, reason: 'platform never owned it' });
      assert.equal((await playbook.facts.show({ id: a.id })).status, 'active');
      await store.close();
    });
  });
