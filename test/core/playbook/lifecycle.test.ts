import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { proposalColumns, skillColumns, type ProposalData, type SkillData } from '../../../src/core/playbook/kinds';
import { Lifecycle } from '../../../src/core/playbook/lifecycle';
import { Ontology } from '../../../src/core/playbook/ontology';
import type { RecordKind, RecordStore } from '../../../src/core/ports/records';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { episode, fact, openPlaybook, testClock, ONTOLOGY } from './playbookHelpers';

/** A live skill record that keeps `episodes` as its evidence (the skills service writes these elsewhere). */
async function skillWithEvidence(records: RecordStore, episodes: string[], at: string): Promise<void> {
  const data: SkillData = {
    name: 'fix-flaky-test',
    description: 'Fix a flaky test',
    trigger: ['flaky test'],
    preconditions: [],
    tools: [],
    steps: [{ do: 'run it 10 times', expect: 'the failure rate' }],
    success_checks: [],
    failure_handling: [],
    evidence: { episodes, executors: ['ana', 'bo'] },
  };
  const id = randomUUID();
  await records.write(`skill:${id}`, () => [
    {
      rowId: randomUUID(),
      kind: 'skill',
      id,
      version: 1,
      op: 'create',
      ...skillColumns(data),
      data: { ...data },
      changedAt: at,
      deletedAt: null,
      author: 'ana',
    },
  ]);
}

/** A skill draft waiting for a person (as promotion proposes them) that cites `episodes`; returns a function that rejects it. */
async function pendingDraft(records: RecordStore, episodes: string[], at: string): Promise<(when: string) => Promise<void>> {
  const data: ProposalData = {
    target: 'skill',
    action: 'create',
    targetId: null,
    summary: 'skill: fix-flaky-test',
    proposedBy: 'promotion from episodes',
    proposedAt: at,
    payload: { name: 'fix-flaky-test', evidence: { episodes, executors: ['ana', 'bo'] } },
    validation: { duplicates: [], warnings: [] },
    decision: null,
  };
  const id = randomUUID();
  const row = (version: number, d: ProposalData, changedAt: string) => ({
    rowId: randomUUID(),
    kind: 'proposal' as const,
    id,
    version,
    op: 'create' as const,
    ...proposalColumns(d),
    data: { ...d },
    changedAt,
    deletedAt: null,
    author: 'ana',
  });
  await records.write(`proposal:${id}`, () => [row(1, data, at)]);
  return async (when) =>
    void (await records.write(`proposal:${id}`, () => [
      row(2, { ...data, decision: { state: 'rejected', by: 'ana', at: when, reason: 'not yet', resultId: null } }, when),
    ]));
}

/** Counts the store's purge calls by kind. */
function countPurges(records: RecordStore): Array<[RecordKind, string[]]> {
  const calls: Array<[RecordKind, string[]]> = [];
  const purge = records.purge.bind(records);
  records.purge = (kind, ids, author) => (calls.push([kind, [...ids]]), purge(kind, ids, author));
  return calls;
}

for (const backend of BACKENDS)
  describe(`Lifecycle [${backend}] (the forgetting run and its reports)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('forgets episodes older than episodic.ttl_days, except the evidence of a live skill', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      const old = (await l.episodes.record(episode())).id;
      const evidence = (await l.episodes.record(episode())).id;
      clock.days(30);
      const recent = (await l.episodes.record(episode())).id;
      await skillWithEvidence(l.records, [evidence], clock.iso());
      clock.days(61); // old and evidence are 91 days old, recent 61

      const report = await l.lifecycle.runForgetting({ trigger: 'schedule' });
      assert.deepEqual([report.forgottenEpisodes, report.archivedEpisodes, report.ranAt], [1, 0, clock.iso()]);
      assert.equal(await l.records.get('episode', old), undefined); // purged: no version left
      assert.deepEqual((await l.episodes.list({})).items.map((e) => e.id).sort(), [evidence, recent].sort());
      // A second run finds nothing more to do.
      assert.equal((await l.lifecycle.runForgetting({ trigger: 'command' })).forgottenEpisodes, 0);
      await l.close();
    });

    it('archives instead when the policy says so: kept, hidden from lists, still shown by id', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock, policy: { episodic: { ttl_days: 7, expired: 'archive' } } });
      const { id } = await l.episodes.record(episode());
      clock.days(8);
      const report = await l.lifecycle.runForgetting({ trigger: 'activation' });
      assert.deepEqual([report.forgottenEpisodes, report.archivedEpisodes], [0, 1]);
      assert.deepEqual((await l.episodes.list({})).items, []);
      const shown = await l.episodes.show({ id });
      assert.equal(shown.archivedAt, clock.iso());
      assert.equal(shown.task, episode().task);
      assert.equal((await l.lifecycle.runForgetting({ trigger: 'activation' })).archivedEpisodes, 0);
      await l.close();
    });

    it('expires facts past valid_until (archived: a hidden version) and releases their disputes', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock, ontology: Ontology.parse(ONTOLOGY) });
      const owner = (team: string, validUntil: string | null) => ({
        subject: 'service:billing',
        predicate: 'owned_by',
        object: `team:${team}`,
        source: 's',
        confidence: 0.5,
        validUntil,
      });
      const a = await l.facts.assert(owner('payments', '2026-01-10T00:00:00.000Z'));
      const b = await l.facts.assert(owner('platform', null));
      assert.equal(b.outcome, 'disputed');
      const lasting = await l.facts.assert(
        fact({ subject: 'service:billing', predicate: 'depends_on', object: 'database:pg', validUntil: '2027-01-01T00:00:00.000Z' }),
      );
      clock.days(10);

      const report = await l.lifecycle.runForgetting({ trigger: 'schedule' });
      assert.deepEqual(report.expiredFacts, [a.id]);
      const aNow = await l.facts.show({ id: a.id });
      assert.deepEqual([aNow.status, aNow.disputedWith], ['expired', []]);
      const bNow = await l.facts.show({ id: b.id });
      assert.deepEqual([bNow.status, bNow.disputedWith], ['active', []]);
      assert.deepEqual((await l.facts.query({ subject: 'service:billing' })).items.map((f) => f.id).sort(), [b.id, lasting.id].sort());
      assert.equal((await l.facts.query({ subject: 'service:billing', includeInactive: true })).items.length, 3);
      assert.deepEqual((await l.lifecycle.runForgetting({ trigger: 'schedule' })).expiredFacts, []);
      await l.close();
    });

    it('purges expired facts when semantic.expired is forget', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock, policy: { semantic: { expired: 'forget' } } });
      const { id } = await l.facts.assert(fact({ validUntil: '2026-01-02T00:00:00.000Z' }));
      clock.days(2);
      assert.deepEqual((await l.lifecycle.runForgetting({ trigger: 'cli' })).expiredFacts, [id]);
      assert.deepEqual(await l.records.history('fact', id), []);
      await l.close();
    });

    it('keeps the episodes a pending skill draft cites as evidence, until the draft is decided', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      const cited = (await l.episodes.record(episode())).id;
      const other = (await l.episodes.record(episode())).id;
      const reject = await pendingDraft(l.records, [cited], clock.iso());
      clock.days(91);
      assert.equal((await l.lifecycle.runForgetting({ trigger: 'schedule' })).forgottenEpisodes, 1);
      assert.equal(await l.records.get('episode', other), undefined);
      assert.equal((await l.episodes.show({ id: cited })).id, cited);
      await reject(clock.iso());
      assert.equal((await l.lifecycle.runForgetting({ trigger: 'schedule' })).forgottenEpisodes, 1);
      assert.equal(await l.records.get('episode', cited), undefined);
      await l.close();
    });

    it('forget mode purges once per kind per run, and not a fact refreshed after the run decided', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock, policy: { semantic: { expired: 'forget' } } });
      const soon = { validUntil: '2026-01-02T00:00:00.000Z' };
      const ids = [];
      for (const subject of ['billing', 'auth', 'ledger']) ids.push((await l.facts.assert(fact({ subject, ...soon }))).id);
      for (let i = 0; i < 3; i++) await l.episodes.record(episode());
      clock.days(100);
      const purges = countPurges(l.records);
      // Someone refreshes billing's fact right after the run decided to expire it (before the purge).
      const write = l.records.write.bind(l.records);
      let refreshed: Promise<string> | undefined;
      l.records.write = async (scope, decide) => {
        const rows = await write(scope, decide);
        if (scope === 'fact:billing' && !refreshed) {
          refreshed = l.facts.assert(fact({ subject: 'billing', validUntil: '2027-01-01T00:00:00.000Z' })).then((r) => r.id);
          await refreshed;
        }
        return rows;
      };
      const report = await l.lifecycle.runForgetting({ trigger: 'schedule' });
      assert.deepEqual([...report.expiredFacts].sort(), [...ids].sort());
      assert.deepEqual(
        purges.map(([kind, purged]) => [kind, purged.length]),
        [
          ['fact', 3],
          ['episode', 3],
        ],
      );
      for (const id of ids) assert.deepEqual(await l.records.history('fact', id), []);
      const billing = await l.facts.query({ subject: 'billing' });
      assert.deepEqual(
        billing.items.map((f) => [f.id, f.validUntil]),
        [[await refreshed, '2027-01-01T00:00:00.000Z']],
      );
      await l.close();
    });

    it('forget mode leaves a fact whose expired version was superseded before the purge', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock, policy: { semantic: { expired: 'forget' } } });
      const { id } = await l.facts.assert(fact({ validUntil: '2026-01-02T00:00:00.000Z' }));
      clock.days(2);
      const write = l.records.write.bind(l.records);
      let once = false;
      l.records.write = async (scope, decide) => {
        const rows = await write(scope, decide);
        if (scope === 'fact:billing' && !once) {
          once = true;
          await l.facts.verify({ id, evidence: 'https://wiki/billing' }); // a person wrote a version meanwhile
        }
        return rows;
      };
      assert.deepEqual((await l.lifecycle.runForgetting({ trigger: 'cli' })).expiredFacts, [id]);
      const kept = await l.facts.show({ id });
      assert.deepEqual([kept.status, kept.verification.state], ['expired', 'verified']);
      await l.close();
    });

    it('writes a report with promotions and search counters; reports lists them newest first; isDue follows run_every_hours', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock, promote: async () => ['proposal-1'] });
      assert.equal(await l.lifecycle.isDue(), true);
      const first = await l.lifecycle.runForgetting({ trigger: 'activation', searchReads: { searches: 12, returned: 40, read: 9 } });
      assert.deepEqual(first.promotions, ['proposal-1']);
      assert.deepEqual(first.searchReads, { searches: 12, returned: 40, read: 9 });
      clock.advance(3600_000);
      assert.equal(await l.lifecycle.isDue(), false);
      const second = await l.lifecycle.runForgetting({ trigger: 'command' });
      assert.deepEqual(second.searchReads, { searches: 0, returned: 0, read: 0 });
      const reports = await l.lifecycle.reports({ limit: 5 });
      assert.deepEqual(
        reports.map((r) => [r.id, r.trigger]),
        [
          [second.id, 'command'],
          [first.id, 'activation'],
        ],
      );
      assert.deepEqual(reports[1], first);
      clock.advance(24 * 3600_000);
      assert.equal(await l.lifecycle.isDue(), true);
      await l.close();
    });

    it('a failing promotion callback still leaves the report of a run a person asked for, then fails the run', async () => {
      const l = await openPlaybook(backend, {
        promote: async () => {
          throw new Error('promotion broke');
        },
      });
      // Unattended and nothing changed: failed, and nothing written (the failure goes to the caller's log).
      await assert.rejects(l.lifecycle.runForgetting({ trigger: 'schedule' }), /promotion broke/);
      assert.equal(await l.rows(), 0);
      await assert.rejects(l.lifecycle.runForgetting({ trigger: 'command' }), /promotion broke/);
      assert.deepEqual(
        (await l.lifecycle.reports({})).map((r) => r.promotions),
        [[]],
      );
      await l.close();
    });

    it('an unattended run that changes nothing writes nothing (the journal is tracked by git); isDue counts it by the time given', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      for (const trigger of ['activation', 'schedule'] as const) {
        const r = await l.lifecycle.runForgetting({ trigger, searchReads: { searches: 3, returned: 5, read: 1 } });
        assert.equal(r.id, null, `${trigger}: not recorded`);
        assert.deepEqual([r.trigger, r.ranAt, r.expiredFacts, r.forgottenEpisodes], [trigger, clock.iso(), [], 0]);
      }
      assert.equal(await l.rows(), 0, 'no record of any kind was written');
      assert.deepEqual(await l.lifecycle.reports({}), []);
      // The caller keeps the run's time elsewhere (VS Code: workspaceState) and passes it.
      const ranAt = clock.iso();
      clock.advance(3600_000);
      assert.equal(await l.lifecycle.isDue(), true);
      assert.equal(await l.lifecycle.isDue(clock.now(), ranAt), false);
      clock.advance(24 * 3600_000);
      assert.equal(await l.lifecycle.isDue(clock.now(), ranAt), true);
      // A run a person asks for is always recorded; an unattended one that changed something too.
      const asked = await l.lifecycle.runForgetting({ trigger: 'cli' });
      assert.equal(typeof asked.id, 'string');
      await l.episodes.record(episode());
      clock.days(100);
      const changed = await l.lifecycle.runForgetting({ trigger: 'schedule' });
      assert.equal(changed.forgottenEpisodes, 1);
      assert.deepEqual(
        (await l.lifecycle.reports({})).map((r) => [r.id, r.trigger]),
        [
          [changed.id, 'schedule'],
          [asked.id, 'cli'],
        ],
      );
      await l.close();
    });

    it('bounds the work of one run; the next run carries on', async () => {
      const clock = testClock('2026-01-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      for (let i = 0; i < 5; i++) await l.episodes.record(episode());
      clock.days(100);
      const small = new Lifecycle(l.records, { author: 'ana', now: clock.now, maxPerRun: 3 });
      assert.equal((await small.runForgetting({ trigger: 'schedule' })).forgottenEpisodes, 3);
      assert.equal((await small.runForgetting({ trigger: 'schedule' })).forgottenEpisodes, 2);
      assert.equal((await l.episodes.list({})).items.length, 0);
      await l.close();
    });
  });
