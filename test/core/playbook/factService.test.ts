import { strict as assert } from 'node:assert';
import { ConflictError, NotFoundError, SecretError, ValidationError } from '../../../src/core/errors';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { fact, openPlaybook, rejects, testClock } from './playbookHelpers';

const SLACK_TOKEN = `xoxb-${'1234567890'.repeat(2)}-abcdef`;

for (const backend of BACKENDS)
  describe(`FactService [${backend}] (facts with evidence, versioned)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('asserts a fact with its evidence, filling the record columns', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      const r = await l.facts.assert(fact({ subject: 'Billing', validUntil: '2026-06-01T00:00:00.000Z' }));
      assert.equal(r.outcome, 'created');
      assert.deepEqual(r.disputes, []);
      // PostgreSQL also names the role that wrote it (the workspace store has none).
      const { dbRole, ...view } = r.fact;
      if (backend === 'postgres') assert.ok(dbRole);
      else assert.equal(dbRole, undefined);
      assert.deepEqual(
        { ...view, id: undefined, changedAt: undefined },
        {
          id: undefined,
          changedAt: undefined,
          version: 1,
          subject: 'Billing',
          predicate: 'uses',
          object: 'postgres',
          source: 'docs/architecture.md',
          confidence: 0.8,
          observedAt: clock.iso(),
          validUntil: '2026-06-01T00:00:00.000Z',
          status: 'active',
          verification: { state: 'unverified' },
          disputedWith: [],
          retraction: null,
          assertedBy: 'ana@example.com',
        },
      );
      const stored = (await l.records.get('fact', r.id))!;
      assert.deepEqual(
        [stored.keys, stored.rank, stored.dueAt, stored.status],
        [['billing', 'uses', 'postgres'], 0.8, '2026-06-01T00:00:00.000Z', 'active'],
      );
      await l.close();
    });

    it('asserting the same triple again makes a new version with fresh evidence, not a duplicate', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      const first = await l.facts.assert(fact());
      clock.days(3);
      const again = await l
        .as('bo@example.com')
        .facts.assert(fact({ subject: ' BILLING ', object: 'Postgres', confidence: 0.95, source: 'https://wiki/billing' }));
      assert.equal(again.outcome, 'refreshed');
      assert.equal(again.id, first.id);
      assert.equal(again.version, 2);
      assert.deepEqual(
        [again.fact.confidence, again.fact.source, again.fact.observedAt, again.fact.assertedBy],
        [0.95, 'https://wiki/billing', clock.iso(), 'bo@example.com'],
      );
      assert.equal(again.fact.subject, 'billing'); // the fact keeps the words it was first written with
      assert.equal((await l.facts.query({ subject: 'billing' })).items.length, 1);
      const history = await l.facts.history({ id: first.id });
      assert.deepEqual(
        history.map((h) => [h.version, h.op, h.confidence, h.writtenBy]),
        [
          [1, 'create', 0.8, 'ana@example.com'],
          [2, 'edit', 0.95, 'bo@example.com'],
        ],
      );
      await l.close();
    });

    it('requires source and confidence by default, and not when the policy turns them off', async () => {
      const strict = await openPlaybook(backend);
      const e = await rejects(strict.facts.assert(fact({ source: undefined, confidence: undefined })), ValidationError);
      assert.match(
        e.message,
        /^source: required; .* the policy semantic.require_source is on; confidence: required; .* semantic.require_confidence is on$/,
      );
      await rejects(strict.facts.assert(fact({ confidence: null })), ValidationError, /^confidence: required/);
      assert.equal(await strict.rows(), 0);
      await strict.close();

      const lax = await openPlaybook(backend, { policy: { semantic: { require_source: false, require_confidence: false } } });
      const r = await lax.facts.assert({ subject: 'billing', predicate: 'uses', object: 'redis' });
      assert.deepEqual([r.fact.source, r.fact.confidence], [null, null]);
      await lax.close();
    });

    it('checks observedAt and validUntil', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      await rejects(
        l.facts.assert(fact({ observedAt: '2026-02-01T00:00:00.000Z', validUntil: '2026-01-01T00:00:00.000Z' })),
        ValidationError,
        /validUntil: \(2026-01-01T00:00:00.000Z\) must be later than observedAt \(2026-02-01T00:00:00.000Z\)/,
      );
      await rejects(
        l.facts.assert(fact({ observedAt: '2026-01-01T00:00:00.000Z', validUntil: '2026-02-01T00:00:00.000Z' })),
        ValidationError,
        /validUntil: .* has already passed/,
      );
      await rejects(l.facts.assert(fact({ observedAt: '2026-04-01T00:00:00.000Z' })), ValidationError, /observedAt: is in the future/);
      assert.equal(await l.rows(), 0);
      const old = await l.facts.assert(fact({ observedAt: '2026-01-01T00:00:00.000Z' }));
      assert.equal(old.fact.observedAt, '2026-01-01T00:00:00.000Z');
      await l.close();
    });

    it('refuses secrets in subject, predicate, object, source and reasons, writing nothing', async () => {
      const l = await openPlaybook(backend);
      for (const field of ['subject', 'predicate', 'object', 'source']) {
        await rejects(
          l.facts.assert(fact({ [field]: `token ${SLACK_TOKEN}` })),
          SecretError,
          new RegExp(`^${field}: line 1 contains what looks like a Slack token`),
        );
      }
      assert.equal(await l.rows(), 0);
      const { id } = await l.facts.assert(fact());
      await rejects(l.facts.retract({ id, reason: `leaked ${SLACK_TOKEN}` }), SecretError, /^reason: /);
      assert.equal(await l.rows(), 1);
      await l.close();
    });

    it('refuses NUL and unpaired surrogates in every text field, naming the field, writing nothing', async () => {
      const l = await openPlaybook(backend);
      for (const field of ['subject', 'predicate', 'object', 'source']) {
        await rejects(
          l.facts.assert(fact({ [field]: 'pg\u0000' })),
          ValidationError,
          new RegExp(`^${field}: line 1 contains a NUL character`),
        );
      }
      const { id } = await l.facts.assert(fact());
      await rejects(
        l.facts.retract({ id, reason: 'wrong \uD83D' }),
        ValidationError,
        /^reason: line 1 contains half of a UTF-16 surrogate pair/,
      );
      await rejects(l.facts.verify({ id, evidence: 'https://wiki/\u0000' }), ValidationError, /^evidence: /);
      await rejects(l.facts.verify({ id, by: 'ana\uDC00', evidence: 'https://wiki' }), ValidationError, /^by: /);
      assert.equal(await l.rows(), 1);
      await l.close();
    });

    it('queries by any of subject, predicate, object: live and valid only, by confidence then recency, paged', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      const id = async (over: Record<string, unknown>) => (clock.advance(1000), (await l.facts.assert(fact(over))).id);
      const pg = await id({ object: 'postgres', confidence: 0.6 });
      const redis = await id({ object: 'redis', confidence: 0.9 });
      const kafka = await id({ object: 'kafka', confidence: 0.6 });
      const expiring = await id({ object: 'memcached', confidence: 0.7, validUntil: '2026-03-02T00:00:00.000Z' });
      const retracted = await id({ object: 'mysql', confidence: 1 });
      const other = await id({ subject: 'search', object: 'redis', confidence: 0.5 });
      await l.facts.retract({ id: retracted, reason: 'migrated off MySQL in 2025' });
      const ids = (r: { items: Array<{ id: string }> }) => r.items.map((f) => f.id);

      assert.deepEqual(ids(await l.facts.query({ subject: 'billing' })), [redis, expiring, kafka, pg]);
      assert.deepEqual(ids(await l.facts.query({ object: 'REDIS' })), [redis, other]);
      assert.deepEqual(ids(await l.facts.query({ subject: 'billing', predicate: 'uses', object: 'kafka' })), [kafka]);
      const withInactive = await l.facts.query({ subject: 'billing', includeInactive: true });
      assert.deepEqual(ids(withInactive), [retracted, redis, expiring, kafka, pg]);
      assert.equal(withInactive.items[0]!.status, 'retracted');

      // Past valid_until it is hidden at once, before any forgetting run marks it.
      clock.set('2026-03-02T00:00:00.000Z');
      assert.deepEqual(ids(await l.facts.query({ subject: 'billing' })), [redis, kafka, pg]);
      assert.ok(ids(await l.facts.query({ subject: 'billing', includeInactive: true })).includes(expiring));

      const p1 = await l.facts.query({ predicate: 'uses', limit: 2 });
      const p2 = await l.facts.query({ predicate: 'uses', limit: 2, cursor: p1.nextCursor });
      assert.deepEqual([...ids(p1), ...ids(p2)], [redis, kafka, pg, other]);
      assert.equal(p2.nextCursor, null);
      await l.close();
    });

    it('retracts a fact as a new version that records who and why; history keeps every version', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      const { id } = await l.facts.assert(fact());
      clock.advance(5000);
      const r = await l.as('copilot').facts.retract({ id, reason: 'the service moved to CockroachDB' });
      assert.equal(r.status, 'retracted');
      assert.deepEqual(r.retraction, { by: 'copilot', at: clock.iso(), reason: 'the service moved to CockroachDB' });
      assert.equal(r.assertedBy, 'ana@example.com');
      await rejects(l.facts.retract({ id, reason: 'again' }), ConflictError, /already retracted by copilot/);
      assert.deepEqual(
        (await l.facts.history({ id })).map((h) => [h.version, h.status]),
        [
          [1, 'active'],
          [2, 'retracted'],
        ],
      );
      assert.deepEqual((await l.facts.query({ subject: 'billing' })).items, []);
      // Asserting a retracted triple again is a new fact; the retracted one keeps its history.
      const again = await l.facts.assert(fact());
      assert.notEqual(again.id, id);
      assert.equal(again.outcome, 'created');
      await rejects(l.facts.history({ id: '0b6c5f1e-8f0e-4d7a-9a51-5f1d2f0c9a11' }), NotFoundError, /does not exist/);
      await l.close();
    });

    it('verification is set by a person with evidence, on a new version', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      const { id } = await l.facts.assert(fact());
      const v = await l.as('lead@example.com').facts.verify({ id, evidence: 'https://grafana/d/billing-db' });
      assert.deepEqual(v.verification, {
        state: 'verified',
        by: 'lead@example.com',
        at: v.changedAt,
        evidence: 'https://grafana/d/billing-db',
      });
      assert.equal(v.version, 2);
      assert.equal((await l.facts.verify({ id, by: 'ops@example.com', evidence: 'runbook' })).verification.state, 'verified');
      // A refresh keeps the verification; a retracted fact cannot be verified.
      assert.equal((await l.facts.assert(fact({ confidence: 0.9 }))).fact.verification.state, 'verified');
      await l.facts.retract({ id, reason: 'wrong' });
      await rejects(l.facts.verify({ id, evidence: 'x' }), ConflictError, /was retracted/);
      await l.close();
    });

    it('a verified fact re-asserted from the same source stays verified; from another source (or none) it needs verifying again', async () => {
      const l = await openPlaybook(backend, { policy: { semantic: { require_source: false } } });
      const { id } = await l.facts.assert(fact());
      await l.as('lead@example.com').facts.verify({ id, evidence: 'https://grafana/d/billing-db' });
      const same = await l.facts.assert(fact({ confidence: 0.9 }));
      assert.deepEqual([same.outcome, same.fact.verification.state, same.verificationCleared], ['refreshed', 'verified', undefined]);
      const moved = await l.as('bo@example.com').facts.assert(fact({ source: 'https://chat/thread/42' }));
      assert.deepEqual([moved.id, moved.outcome, moved.fact.source], [id, 'refreshed', 'https://chat/thread/42']);
      assert.deepEqual(moved.fact.verification, { state: 'unverified' });
      assert.deepEqual(moved.verificationCleared, {
        by: 'lead@example.com',
        at: moved.verificationCleared!.at,
        evidence: 'https://grafana/d/billing-db',
      });
      assert.equal((await l.facts.show({ id })).verification.state, 'unverified', 'stored so');
      assert.equal(
        (await l.facts.history({ id })).filter((v) => v.verification.state === 'verified').length,
        2,
        'the history keeps who verified what',
      );
      await l.facts.verify({ id, by: 'ops@example.com', evidence: 'the chat thread' });
      const { source: _s, ...unsourced } = fact();
      assert.equal((await l.facts.assert(unsourced)).fact.verification.state, 'unverified', 'no source is not the verified source');
      await l.close();
    });
  });
