import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { factColumns, type FactData } from '../../../src/core/playbook/kinds';
import { Lifecycle } from '../../../src/core/playbook/lifecycle';
import { Ontology } from '../../../src/core/playbook/ontology';
import type { StoredRecord } from '../../../src/core/ports/records';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { openPlaybook, testClock, ONTOLOGY } from './playbookHelpers';

const ontology = Ontology.parse(ONTOLOGY);

/** A fact row as another clone wrote it (what a git merge of the journals brings in). */
function cloneFact(subject: string, predicate: string, object: string, at: string, over: Partial<FactData> = {}): StoredRecord {
  const data: FactData = {
    subject,
    predicate,
    object,
    source: 'https://wiki',
    observedAt: at,
    confidence: 0.7,
    validUntil: null,
    status: 'active',
    verification: { state: 'unverified' },
    disputedWith: [],
    retraction: null,
    assertedBy: 'bo@example.com',
    ...over,
  };
  return {
    rowId: randomUUID(),
    kind: 'fact',
    id: randomUUID(),
    version: 1,
    op: 'create',
    ...factColumns(data),
    data: { ...data },
    changedAt: at,
    deletedAt: null,
    author: 'bo@example.com',
  };
}

for (const backend of BACKENDS)
  describe(`Lifecycle [${backend}] (contradictions that arrive through a git merge)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('marks two active facts of a single-valued relation disputed with each other, in one write per subject, and reports them', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock, ontology });
      const at = clock.iso();
      const ours = cloneFact('service:billing', 'owned_by', 'team:payments', at);
      const theirs = cloneFact('service:billing', 'owned_by', 'team:platform', at);
      const many = [
        cloneFact('service:billing', 'depends_on', 'database:pg', at),
        cloneFact('service:billing', 'depends_on', 'service:ledger', at),
      ];
      const keptA = cloneFact('service:auth', 'owned_by', 'team:a', at, { keptWith: ['team:b'] });
      const keptB = cloneFact('service:auth', 'owned_by', 'team:b', at, { keptWith: ['team:a'] });
      const single = cloneFact('service:ledger', 'owned_by', 'team:payments', at);
      await l.records.importRecords([ours, theirs, ...many, keptA, keptB, single]);
      clock.advance(60_000);
      const scopes: string[] = [];
      const write = l.records.write.bind(l.records);
      l.records.write = (scope, decide) => (scopes.push(scope), write(scope, decide));

      const report = await l.lifecycle.runForgetting({ trigger: 'schedule' });
      assert.deepEqual([...report.disputedOnMerge].sort(), [ours.id, theirs.id].sort());
      assert.equal(report.mergeCheckResume, null);
      assert.deepEqual(
        scopes.filter((s) => s.startsWith('fact:')),
        ['fact:service:billing'],
      );
      const a = await l.facts.show({ id: ours.id });
      const b = await l.facts.show({ id: theirs.id });
      assert.deepEqual([a.status, a.disputedWith, b.status, b.disputedWith], ['disputed', [theirs.id], 'disputed', [ours.id]]);
      // Many-valued relations, pairs a person kept together, and lone facts stay as they were.
      for (const f of [...many, keptA, keptB, single]) assert.equal((await l.facts.show({ id: f.id })).status, 'active');
      // Nothing more to do; a person's resolution holds.
      assert.deepEqual((await l.lifecycle.runForgetting({ trigger: 'schedule' })).disputedOnMerge, []);
      await l.facts.resolve({ ids: [ours.id, theirs.id], decision: 'keep-one', keep: ours.id });
      assert.deepEqual((await l.lifecycle.runForgetting({ trigger: 'schedule' })).disputedOnMerge, []);
      assert.equal((await l.facts.show({ id: ours.id })).status, 'active');
      await l.close();
    });

    it('joins a merged fact to a dispute already open, and does nothing without an ontology', async () => {
      const clock = testClock();
      const plain = await openPlaybook(backend, { clock });
      const at = clock.iso();
      const rows = [
        cloneFact('service:billing', 'owned_by', 'team:payments', at),
        cloneFact('service:billing', 'owned_by', 'team:platform', at),
      ];
      await plain.records.importRecords(rows);
      assert.deepEqual((await plain.lifecycle.runForgetting({ trigger: 'cli' })).disputedOnMerge, []);
      // A broken ontology file: the rest of the run is done and reported, then the run fails with the file's error.
      const broken = new Lifecycle(plain.records, {
        author: 'ana',
        now: clock.now,
        ontology: () => Ontology.parse('types: [service]\nrelations: nope\n'),
      });
      await assert.rejects(broken.runForgetting({ trigger: 'cli' }), /relations must be a list/);
      assert.equal((await plain.lifecycle.reports({})).length, 2);
      await plain.close();

      const l = await openPlaybook(backend, { clock, ontology });
      const a = await l.facts.assert({
        subject: 'service:billing',
        predicate: 'owned_by',
        object: 'team:payments',
        source: 's',
        confidence: 0.5,
      });
      const b = await l.facts.assert({
        subject: 'service:billing',
        predicate: 'owned_by',
        object: 'team:platform',
        source: 's',
        confidence: 0.5,
      });
      const merged = cloneFact('service:billing', 'owned_by', 'team:data', at);
      await l.records.importRecords([merged]);
      clock.advance(60_000);
      const report = await l.lifecycle.runForgetting({ trigger: 'cli' });
      assert.deepEqual([...report.disputedOnMerge].sort(), [a.id, b.id, merged.id].sort());
      assert.deepEqual(new Set((await l.facts.show({ id: merged.id })).disputedWith), new Set([a.id, b.id]));
      assert.deepEqual(new Set((await l.facts.show({ id: a.id })).disputedWith), new Set([b.id, merged.id]));
      await l.close();
    });

    it('is bounded per run and carries on where the last run stopped', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock, ontology });
      const at = clock.iso();
      const pairs = ['a', 'b', 'c'].map((s) => [
        cloneFact(`service:${s}`, 'owned_by', 'team:x', at),
        cloneFact(`service:${s}`, 'owned_by', 'team:y', at),
      ]);
      const values = [cloneFact('service:a', 'runs_version', '1.0', at), cloneFact('service:a', 'runs_version', '2.0', at)];
      await l.records.importRecords([...pairs.flat(), ...values]);
      const small = new Lifecycle(l.records, { author: 'ana', now: clock.now, ontology, maxPerRun: 4 });
      const run = async () => (clock.advance(60_000), small.runForgetting({ trigger: 'schedule' }));
      const status = async (facts: StoredRecord[]) => Promise.all(facts.map(async (f) => (await l.facts.show({ id: f.id })).status));
      // 8 live facts of two single-valued relations (owned_by, then runs_version), 4 paged per run.
      const first = await run();
      assert.equal(first.mergeCheckResume?.relation, 'owned_by');
      assert.notEqual(first.mergeCheckResume?.after, null);
      assert.deepEqual(await status(values), ['active', 'active'], 'not reached by the first run');
      // The second run carries on (starting over it would page the owned_by facts again and stop there).
      const second = await run();
      assert.deepEqual(await status([...pairs.flat(), ...values]), Array(8).fill('disputed'));
      assert.deepEqual(
        [...new Set([...first.disputedOnMerge, ...second.disputedOnMerge])].sort(),
        [...pairs.flat(), ...values].map((f) => f.id).sort(),
      );
      // Once every relation was checked to its end, the next run starts from the beginning.
      const later = [await run(), await run()];
      assert.ok([second, ...later].some((r) => r.mergeCheckResume === null));
      assert.deepEqual(
        later.flatMap((r) => r.disputedOnMerge),
        [],
      );
      await l.close();
    });
  });
