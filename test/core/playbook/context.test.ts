import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../../src/core/errors';
import { estimateTokens, packContext, type Candidate } from '../../../src/core/playbook/contextPacking';
import { ContextService } from '../../../src/core/playbook/contextService';
import { entityCandidates, typedEntityCandidates } from '../../../src/core/playbook/taskEntities';
import { factColumns, type FactData } from '../../../src/core/playbook/kinds';
import { EpisodeService } from '../../../src/core/playbook/episodeService';
import { Ontology } from '../../../src/core/playbook/ontology';
import { SkillService } from '../../../src/core/playbook/skillService';
import type { Store } from '../../../src/core/ports/store';
import { BACKENDS, memory, openService, prepareBackend } from '../../helpers/builders';
import { rejects, skill, SKILL_YAML } from './skillHelpers';

const prov = (kind: 'memory' | 'fact' | 'skill', i: number) => ({
  kind,
  id: `id-${i}`,
  version: 1,
  author: 'ana',
  changedAt: '2026-03-01T00:00:00.000Z',
});
function candidates(n: number): Candidate[] {
  return Array.from({ length: n }, (_, i) => {
    const summary = { provenance: prov(i % 3 === 0 ? 'skill' : 'memory', i), description: `item ${i} ${'d'.repeat(100)}` };
    return { summary, full: { ...summary, content: 'c'.repeat(400 + 37 * i) } };
  });
}

describe('context packing (pure)', () => {
  it('never exceeds the budget, whatever it is, and reports what it left out', () => {
    for (const budget of [200, 250, 333, 500, 1000, 2000, 5000, 32000]) {
      const r = packContext(candidates(30), budget);
      const real = estimateTokens(JSON.stringify(r));
      assert.ok(real <= budget, `budget ${budget}: ${real} tokens`);
      assert.ok(r.usedTokens >= real && r.usedTokens <= budget);
      const full = r.items.filter((i) => 'content' in i).length;
      const o = r.omitted;
      assert.equal(r.items.length + o.memories + o.skills, 30, 'every candidate is either in or counted out');
      assert.equal(full + o.memoryDetails + o.skillDetails, r.items.length);
    }
    const small = packContext(candidates(30), 200);
    assert.ok(small.omitted.memories > 0);
    const big = packContext(candidates(30), 32000);
    assert.deepEqual(big.omitted, { memories: 0, facts: 0, skills: 0, episodes: 0, memoryDetails: 0, skillDetails: 0, episodeDetails: 0 });
  });

  it('puts short forms of the most relevant first, then upgrades skills before memories', () => {
    const r = packContext(candidates(6), 700);
    assert.deepEqual(
      r.items.map((i) => i.provenance.id),
      ['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5'],
    );
    assert.ok('content' in r.items[0]! && 'content' in r.items[3]!, 'skills first');
    assert.match(r.tokenEstimate, /ceil\(characters \/ 4\)/);
  });

  it('names the entities a task mentions: identifiers, words and short phrases', () => {
    const c = entityCandidates('Why does the Payments Service call `service-a` from src/store/records.ts?');
    for (const k of ['payments service', 'service-a', 'src/store/records.ts', 'payments', 'service']) assert.ok(c.includes(k), k);
    assert.ok(!c.includes('the') && !c.includes('does the'));
  });

  it('types the names a task gives: by the word next to them, or by every type of the ontology', () => {
    const bare = typedEntityCandidates('Who owns the billing service and the payments-api?', null);
    assert.ok(bare.includes('service:billing'), JSON.stringify(bare));
    assert.ok(!bare.some((k) => k.endsWith(':payments-api')), 'nothing says what payments-api is');
    const typed = typedEntityCandidates('Who owns billing api and payments-api?', ['service', 'team']);
    for (const k of ['service:billing', 'team:billing', 'service:payments-api', 'service:billing api', 'service:billing-api'])
      assert.ok(typed.includes(k), k);
    assert.ok(!typed.some((k) => k.endsWith(':who') || k.endsWith(':and')), 'stop words are no names');
    assert.deepEqual(typedEntityCandidates('Look at service:billing', ['service']), ['service:look'], 'a typed entity is already a key');
  });
});

async function writeFact(store: Store, over: Partial<FactData>): Promise<string> {
  const d: FactData = {
    subject: 'service-a',
    predicate: 'depends_on',
    object: 'postgres',
    source: 'docs/ARCHITECTURE.md',
    observedAt: '2026-03-01T00:00:00.000Z',
    confidence: 0.9,
    validUntil: null,
    status: 'active',
    verification: { state: 'unverified' },
    disputedWith: [],
    retraction: null,
    ...over,
  };
  const id = randomUUID();
  await store.records.write(`fact:${d.subject}`, () => [
    {
      rowId: randomUUID(),
      kind: 'fact',
      id,
      version: 1,
      op: 'create',
      ...factColumns(d),
      data: d as unknown as Record<string, unknown>,
      changedAt: '2026-03-01T00:00:00.000Z',
      deletedAt: null,
      author: 'bo@example.com',
    },
  ]);
  return id;
}

for (const backend of BACKENDS)
  describe(`ContextService [${backend}] (working memory within a budget)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });
    const now = () => new Date('2026-03-31T00:00:00.000Z');

    async function seeded(ontology: Ontology | null = null) {
      const opened = await openService({ backend, author: 'ana@example.com' });
      const skills = new SkillService(opened.store, { author: 'lead@example.com', now });
      const episodes = new EpisodeService(opened.store.records, { author: 'cy@example.com', now });
      const { service, store } = opened;
      const m1 = await service.create(
        memory({ description: 'Flaky login test in CI: await the login promise', tags: ['testing', 'ci'], content: 'x'.repeat(3000) }),
      );
      const m2 = await service.create(
        memory({ description: 'CI runners cache node_modules between login test runs', tags: ['ci'], content: 'short' }),
      );
      await service.create(memory({ description: 'Release notes template', tags: ['docs'] }));
      const active = await writeFact(store, { subject: 'login-service', predicate: 'owned_by', object: 'team-auth', confidence: 0.8 });
      await writeFact(store, { subject: 'login-service', predicate: 'runs_on', object: 'k8s', validUntil: '2026-03-01T00:00:00.000Z' });
      await writeFact(store, { subject: 'login-service', predicate: 'written_in', object: 'go', status: 'retracted' });
      const untyped = await writeFact(store, { subject: 'billing', predicate: 'owned_by', object: 'team-money' });
      const typed = await writeFact(store, { subject: 'service:billing', predicate: 'owned_by', object: 'team:payments' });
      const s = await skills.save(SKILL_YAML);
      await skills.save(skill());
      const source = { type: 'commit', ref: 'abc1234' };
      const worked = await episodes.record({ task: 'Fixed the flaky login test in CI', outcome: 'success', tags: ['ci'], source });
      const failed = await episodes.record({
        task: 'Tried to fix the flaky login test with retries',
        outcome: 'failure',
        errors: ['AssertionError: expected 200, got 401', 'retry 3 of 3 failed', 'gave up'],
        resolution: 'Retries hide the race; wait for the session cookie instead.',
        tools: ['npx mocha --repeat 20'],
        source,
      });
      await episodes.record({ task: 'Wrote the release notes for 1.4', outcome: 'success', source });
      const contexts = new ContextService(store, {
        memories: service,
        skills,
        episodes,
        ontology: () => ontology,
        defaultMaxTokens: 4000,
        now,
      });
      return {
        ...opened,
        contexts,
        ids: { m1: m1.id, m2: m2.id, active, typed, untyped, skill: s.id, worked: worked.id, failed: failed.id },
      };
    }
    const task = 'Fix the flaky login test that fails only in CI; it calls login-service';

    it('returns relevant memories, active unexpired facts about named entities and matching skills, with provenance', async () => {
      const { store, contexts, ids } = await seeded();
      const r = await contexts.context({ task });
      const byKind = (k: string) => r.items.filter((i) => i.provenance.kind === k);
      assert.deepEqual(
        byKind('memory')
          .map((i) => i.provenance.id)
          .sort(),
        [ids.m1, ids.m2].sort(),
      );
      assert.deepEqual(
        byKind('fact').map((i) => i.provenance.id),
        [ids.active],
        'expired and retracted facts are left out; billing is not named',
      );
      assert.deepEqual(
        byKind('skill').map((i) => i.name),
        ['fix-flaky-test'],
      );
      for (const i of r.items) {
        assert.ok(
          i.provenance.id && i.provenance.version >= 1 && i.provenance.author && i.provenance.changedAt,
          JSON.stringify(i.provenance),
        );
      }
      assert.equal(byKind('fact')[0]!.provenance.author, 'bo@example.com');
      const episodes = byKind('episode');
      assert.deepEqual(
        episodes.map((i) => i.provenance.id),
        [ids.failed, ids.worked],
        'the failure first; the release notes are unrelated',
      );
      assert.deepEqual(
        [episodes[0]!.outcome, episodes[0]!.resolution, episodes[0]!.provenance.author],
        ['failure', 'Retries hide the race; wait for the session cookie instead.', 'cy@example.com'],
      );
      assert.deepEqual(episodes[0]!.errors, ['AssertionError: expected 200, got 401', 'retry 3 of 3 failed', 'gave up'], 'in full');
      assert.deepEqual(episodes[0]!.tools, ['npx mocha --repeat 20']);
      assert.ok(
        'steps' in byKind('skill')[0]! && byKind('memory').every((m) => 'content' in m) && episodes.every((e) => 'source' in e),
        'a 4000-token budget holds everything',
      );
      assert.equal(r.budget, 4000);
      assert.ok(estimateTokens(JSON.stringify(r)) <= r.usedTokens && r.usedTokens <= 4000);
      await store.close();
    });

    it('never exceeds the budget and says what it left out', async () => {
      const { store, contexts } = await seeded();
      for (const maxTokens of [200, 300, 600, 1000, 32000]) {
        const r = await contexts.context({ task, maxTokens });
        assert.ok(estimateTokens(JSON.stringify(r)) <= maxTokens, `budget ${maxTokens}`);
        const o = r.omitted;
        assert.equal(
          r.items.length + o.memories + o.facts + o.skills + o.episodes,
          6,
          `budget ${maxTokens}: every candidate accounted for`,
        );
      }
      const tight = await contexts.context({ task, maxTokens: 300 });
      assert.ok(tight.omitted.memoryDetails + tight.omitted.memories > 0);
      await rejects(contexts.context({ task, maxTokens: 100 }), ValidationError, /maxTokens: is at least 200/);
      await rejects(contexts.context({ task, maxTokens: 50_000 }), ValidationError, /at most 32000/);
      await rejects(contexts.context({ task: ' ' }), ValidationError, /task: is empty — describe the task/);
      await store.close();
    });

    it('packs an episode short (its first errors and resolution) when the budget is tight, and counts what it left out', async () => {
      const { store, contexts, ids } = await seeded();
      const r = await contexts.context({ task: 'Tried to fix the flaky login test with retries', maxTokens: 600 });
      const failure = r.items.find((i) => i.provenance.id === ids.failed)!;
      assert.ok(failure && !('source' in failure) && !('tools' in failure), JSON.stringify(r.items));
      assert.deepEqual(failure.errors, ['AssertionError: expected 200, got 401', 'retry 3 of 3 failed']);
      assert.match(String(failure.resolution), /session cookie/);
      const worked = r.items.find((i) => i.provenance.id === ids.worked)!;
      assert.ok(!('resolution' in worked) && !('errors' in worked), 'a success is summarised by its task and outcome');
      assert.equal(r.omitted.episodeDetails, 2);
      assert.ok(estimateTokens(JSON.stringify(r)) <= 600);
      await store.close();
    });

    it('finds facts about a typed entity the task names without its type, and with an ontology by its name alone', async () => {
      const { store, contexts, ids } = await seeded();
      const factIds = async (task: string) =>
        (await contexts.context({ task })).items
          .filter((i) => i.provenance.kind === 'fact')
          .map((i) => i.provenance.id)
          .sort();
      // The free-text subject "billing" is named too.
      assert.deepEqual(await factIds('who owns the billing service'), [ids.typed, ids.untyped].sort());
      assert.deepEqual(await factIds('who owns service:billing'), [ids.typed, ids.untyped].sort());
      assert.deepEqual(await factIds('who owns billing'), [ids.untyped], 'without an ontology nothing says billing is a service');
      await store.close();
      const withOntology = await seeded(
        Ontology.parse('types: [service, team]\nrelations:\n  - { name: owned_by, from: service, to: team }\n'),
      );
      const r = await withOntology.contexts.context({ task: 'who owns billing now' });
      assert.deepEqual(
        r.items
          .filter((i) => i.provenance.kind === 'fact')
          .map((i) => String(i.subject))
          .sort(),
        ['billing', 'service:billing'],
      );
      await withOntology.store.close();
    });

    it('gives nothing for a task unrelated to everything', async () => {
      const { store, contexts } = await seeded();
      const r = await contexts.context({ task: 'Order pizza for the offsite' });
      assert.deepEqual(r.items, []);
      await store.close();
    });
  });
