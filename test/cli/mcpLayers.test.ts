import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { CLI, call, errorText, ok, running, startServer, texts } from '../helpers/mcpClient';
import { tmpDir } from '../helpers/tmp';

/** A person at the CLI, on the same store. */
function person(store: string, args: string[]): unknown {
  const r = spawnSync(process.execPath, [CLI, '--store', store, '--json', ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'lead@example.com' },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const SKILL =
  'name: release-hotfix\ndescription: Ship a hotfix release from a tag\ntrigger: [ship a hotfix release]\npreconditions: []\ntools: [git]\nsteps:\n  - do: Tag the fix\n    tool: git\n    expect: the tag is pushed\nsuccess_checks: [the tag is on the remote]\nfailure_handling: [delete the tag]\n';

describe('MCP server: the playbook tools (dist/cli.js mcp in a child process)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.client.close()));
  });

  it('a proposed fact is pending (not saved) until a person approves it; then the model can query it', async () => {
    const store = tmpDir();
    const s = await startServer(store);
    const proposal = await ok<{ proposalId: string; status: string; note: string }>(s, 'agent-memory_assertFact', {
      subject: 'billing',
      predicate: 'depends_on',
      object: 'ledger',
      source: 'README.md',
      confidence: 0.9,
    });
    assert.equal(proposal.status, 'pending');
    assert.match(proposal.note, /NOT saved/);
    assert.deepEqual((await ok<{ items: unknown[] }>(s, 'agent-memory_queryFacts', { subject: 'billing' })).items, []);
    const pending = person(store, ['pending', 'list']) as { items: Array<{ id: string; proposedBy: string }> };
    assert.deepEqual(
      pending.items.map((p) => [p.id, p.proposedBy]),
      [[proposal.proposalId, 'mcp-test@example.com (via mcp-test)']],
    );
    person(store, ['pending', 'approve', proposal.proposalId]);
    const facts = await ok<{ items: Array<{ object: string; source: string; status: string }> }>(s, 'agent-memory_queryFacts', {
      subject: 'billing',
    });
    assert.deepEqual(
      facts.items.map((f) => [f.object, f.source, f.status]),
      [['ledger', 'README.md', 'active']],
    );
    // The model is told what is wrong with a bad proposal; nothing is queued.
    assert.match(
      errorText(await call(s, 'agent-memory_assertFact', { subject: 'billing', predicate: 'depends_on', object: 'ledger' })),
      /source: required.*confidence: required/,
    );
    assert.equal((person(store, ['pending', 'list']) as { items: unknown[] }).items.length, 0);
  });

  it('records an episode, proposes a skill (a broken one refused with its line), finds and reads it once approved, and packs a context', async () => {
    const store = tmpDir();
    const s = await startServer(store);
    const { id } = await ok<{ id: string }>(s, 'agent-memory_recordEpisode', {
      task: 'Shipped hotfix 1.2.1',
      outcome: 'success',
      source: { type: 'pull-request', ref: '#88' },
      tools: ['git'],
    });
    assert.equal((person(store, ['episode', 'show', id]) as { executor: string }).executor, 'mcp-test@example.com');
    assert.match(
      errorText(await call(s, 'agent-memory_proposeSkill', { yaml: SKILL.replace('    expect: the tag is pushed\n', '') })),
      /line \d+: steps\[0\]\.expect is missing/,
    );
    const p = await ok<{ proposalId: string; status: string }>(s, 'agent-memory_proposeSkill', { yaml: SKILL });
    assert.deepEqual(
      (await ok<{ results: unknown[] }>(s, 'agent-memory_findSkills', { task: 'ship a hotfix release' })).results,
      [],
      'pending, not saved',
    );
    person(store, ['pending', 'approve', p.proposalId]);
    const found = await ok<{ results: Array<{ name: string; version: number }> }>(s, 'agent-memory_findSkills', {
      task: 'we need to ship a hotfix release today',
    });
    assert.deepEqual(
      found.results.map((f) => [f.name, f.version]),
      [['release-hotfix', 1]],
    );
    const read = await ok<{ yaml: string; outcomes: { allTime: { total: number } } }>(s, 'agent-memory_readSkill', {
      name: 'release-hotfix',
    });
    assert.match(read.yaml, /^name: release-hotfix$/m);
    assert.equal(read.outcomes.allTime.total, 0);
    const ctx = await call(s, 'agent-memory_context', { task: 'ship a hotfix release', maxTokens: 500 });
    const packed = ctx.structuredContent as { usedTokens: number; items: Array<{ provenance: { kind: string; id: string } }> };
    assert.ok(packed.usedTokens <= 500);
    assert.deepEqual(
      packed.items.map((i) => [i.provenance.kind, i.provenance.id]),
      [
        ['skill', packed.items[0]!.provenance.id],
        ['episode', id],
      ],
      'the skill, then the episode that shipped a hotfix',
    );
    assert.deepEqual(JSON.parse(texts(ctx)[0]!), ctx.structuredContent);
  });

  it('retracts a fact, and a bad call is a tool error naming the field', async () => {
    const store = tmpDir();
    const fact = person(store, [
      'fact',
      'assert',
      '--subject',
      'api',
      '--predicate',
      'uses',
      '--object',
      'redis',
      '--source',
      'x',
      '--confidence',
      '1',
    ]) as { id: string };
    const s = await startServer(store);
    const retracted = await ok<{ status: string; retraction: { by: string; reason: string } }>(s, 'agent-memory_retractFact', {
      id: fact.id,
      reason: 'moved to memcached',
    });
    assert.deepEqual(
      [retracted.status, retracted.retraction.reason, retracted.retraction.by],
      ['retracted', 'moved to memcached', 'mcp-test@example.com'],
    );
    assert.match(errorText(await call(s, 'agent-memory_retractFact', { id: fact.id })), /^reason: /);
    // A fact a person verified is theirs to retract: the model is told so, and the person still can.
    const verified = person(store, [
      'fact',
      'assert',
      '--subject',
      'api',
      '--predicate',
      'uses',
      '--object',
      'postgres',
      '--source',
      'x',
      '--confidence',
      '1',
    ]) as { id: string };
    person(store, ['fact', 'verify', verified.id, '--evidence', 'https://wiki/api']);
    assert.match(
      errorText(await call(s, 'agent-memory_retractFact', { id: verified.id, reason: 'I think it moved' })),
      new RegExp(`fact ${verified.id} \\(status active\\) was verified by lead@example.com .*tell the user why you think it is wrong`),
    );
    assert.equal((person(store, ['fact', 'retract', verified.id, '--reason', 'moved']) as { status: string }).status, 'retracted');
    assert.match(errorText(await call(s, 'agent-memory_queryFacts', {})), /at least one of subject, predicate or object/);
  });

  it("finds a teammate's failed episode by its task and error words, and context packs it first with its resolution", async () => {
    const store = tmpDir();
    const failed = person(store, [
      'episode',
      'record',
      '--task',
      'Migrate the invoices table to the new ledger schema',
      '--outcome',
      'failure',
      '--error',
      'deadlock detected while migrating invoices',
      '--resolution',
      'Run the migration in batches of 1000 rows outside business hours',
      '--source',
      'issue:#311',
      '--tags',
      'ledger,migration',
    ]) as { id: string };
    const s = await startServer(store);
    const worked = await ok<{ id: string }>(s, 'agent-memory_recordEpisode', {
      task: 'Migrate the payments table to the new ledger schema',
      outcome: 'success',
      tags: ['ledger'],
      source: { type: 'pull-request', ref: '#312' },
    });
    type Found = {
      items: Array<{ id: string; outcome: string; errors: string[]; resolution: string; author: string; score: number }>;
      nextCursor: string | null;
      searchedAll: boolean;
    };
    const found = await ok<Found>(s, 'agent-memory_findEpisodes', { query: 'migrate invoices ledger schema' });
    assert.deepEqual(
      found.items.map((e) => [e.id, e.outcome, e.author]),
      [
        [failed.id, 'failure', 'lead@example.com'],
        [worked.id, 'success', 'mcp-test@example.com'],
      ],
    );
    assert.deepEqual(found.items[0]!.errors, ['deadlock detected while migrating invoices']);
    assert.equal(found.items[0]!.resolution, 'Run the migration in batches of 1000 rows outside business hours');
    assert.ok(found.items[0]!.score > found.items[1]!.score);
    assert.equal(found.searchedAll, true);
    const byError = await ok<Found>(s, 'agent-memory_findEpisodes', { query: 'deadlock detected', outcome: 'failure', tags: ['Ledger'] });
    assert.deepEqual(
      byError.items.map((e) => e.id),
      [failed.id],
    );
    assert.deepEqual((await ok<Found>(s, 'agent-memory_findEpisodes', { outcome: 'partial' })).items, []);
    assert.match(
      errorText(await call(s, 'agent-memory_findEpisodes', { outcome: 'failed', since: 'yesterday', limit: 500 })),
      /outcome: is one of success, failure, partial.*since: must be an ISO-8601 time.*limit: .*at most 50/s,
    );

    const ctx = await call(s, 'agent-memory_context', { task: 'migrate the invoices table to the ledger schema', maxTokens: 2000 });
    const packed = ctx.structuredContent as {
      items: Array<{ provenance: { kind: string; id: string; author: string }; resolution?: string }>;
      omitted: { episodes: number };
    };
    const episodes = packed.items.filter((i) => i.provenance.kind === 'episode');
    assert.deepEqual(
      episodes.map((e) => e.provenance.id),
      [failed.id, worked.id],
      'the failure first',
    );
    assert.equal(episodes[0]!.resolution, 'Run the migration in batches of 1000 rows outside business hours');
    assert.equal(episodes[0]!.provenance.author, 'lead@example.com');
    assert.equal(packed.omitted.episodes, 0);
  });
});
