import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../src/core/errors';
import { DEFAULT_POLICY, mergePolicy, parsePolicyFile } from '../../src/core/playbook/policy';
import { buildServices } from '../../src/core/services';
import { BACKENDS, memory, openService, prepareBackend } from '../helpers/builders';

const FACT = { subject: 'service:billing', predicate: 'owned_by', object: 'team:payments', source: 'CODEOWNERS', confidence: 0.9 };

for (const backend of BACKENDS)
  describe(`Who did what [${backend}] (channel, proposer and approver on every version)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('records the channel of every write, and reads a version without one as unknown', async () => {
      const { store, service } = await openService({ backend });
      const mcp = buildServices(store, { author: 'ana@example.com', channel: 'mcp' });
      const { id } = await mcp.memories.create(memory());
      await mcp.memories.edit({ id, content: 'Cleared the cache key, then rebuilt.' });
      const episode = await mcp.playbook.episodes.record({
        task: 'fix the build cache',
        outcome: 'success',
        tags: ['build'],
        source: { type: 'commit', ref: 'abc1234' },
      });
      // A service built without a channel stands for versions written before it was recorded.
      const { id: old } = await service.create(memory({ description: 'Written before channels were recorded' }));
      const history = await mcp.memories.history({ id });
      assert.deepEqual(
        history.map((v) => [v.version, v.author, v.channel]),
        [
          [1, 'ana@example.com', 'mcp'],
          [2, 'ana@example.com', 'mcp'],
        ],
      );
      assert.equal((await mcp.memories.history({ id: old }))[0]!.channel, 'unknown');
      assert.equal((await store.records.get('episode', episode.id))!.channel, 'mcp');
      if (store.dbRole)
        assert.ok(
          history.every((v) => v.dbRole === store.dbRole),
          'PostgreSQL records the role on every version',
        );
      else
        assert.ok(
          history.every((v) => v.dbRole === undefined),
          'the workspace store has no roles',
        );
      await store.close();
    });

    it('marks imported rows without a channel as imported, and keeps the channel a row has', async () => {
      const { store } = await openService({ backend });
      const importer = buildServices(store, { author: 'ana@example.com', channel: 'import' });
      const row = (channel?: 'cli') => ({
        rowId: randomUUID(),
        id: randomUUID(),
        version: 1,
        op: 'create',
        description: `Imported ${channel ?? 'bare'} row`,
        tags: ['import'],
        content: 'x',
        changedAt: '2026-01-02T03:04:05.000Z',
        deletedAt: null,
        author: 'bo@example.com',
        ...(channel ? { channel } : {}),
      });
      const bare = row();
      const cli = row('cli');
      assert.deepEqual(await importer.upkeep.importVersions([bare, cli]), { added: 2, skipped: 0 });
      assert.equal((await importer.memories.history({ id: bare.id }))[0]!.channel, 'import');
      assert.equal((await importer.memories.history({ id: cli.id }))[0]!.channel, 'cli');
      await store.close();
    });

    it("records both the proposer and the approver of an approved memory and fact; an agent's proposal is the person's to decide", async () => {
      const { store } = await openService({ backend });
      const ana = buildServices(store, { author: 'ana@example.com', channel: 'vscode' });
      // The agent in Ana's window proposes as itself, on her behalf (src/vscode/tools/toolSupport.ts).
      const agent = 'ana@example.com (agent)';
      const m = await ana.playbook.proposals.propose({ target: 'memory', payload: memory(), proposedBy: agent });
      const approved = await ana.playbook.proposals.approve({ id: m.proposalId, by: 'ana@example.com' });
      const [v1] = await ana.memories.history({ id: approved.resultId! });
      assert.deepEqual([v1!.author, v1!.proposedBy, v1!.channel], ['ana@example.com', agent, 'vscode']);

      const f = await ana.playbook.proposals.propose({ target: 'fact', payload: FACT, proposedBy: agent });
      const bo = buildServices(store, { author: 'bo@example.com', channel: 'cli' });
      const decided = await bo.playbook.proposals.approve({ id: f.proposalId, by: 'bo@example.com' });
      const fact = await bo.playbook.facts.show({ id: decided.resultId! });
      assert.deepEqual([fact.assertedBy, fact.proposedBy, fact.channel], ['bo@example.com', agent, 'cli']);
      // The proposal's own history keeps both, as the queue shows them.
      const p = await bo.playbook.proposals.get(f.proposalId);
      assert.deepEqual([p.proposedBy, p.decision?.by, p.decision?.state], [agent, 'bo@example.com', 'approved']);
      await store.close();
    });

    it('refuses a proposer deciding their own proposal, naming the policy key, unless the policy allows it', async () => {
      const { store } = await openService({ backend });
      let policy = DEFAULT_POLICY;
      const bo = buildServices(store, { author: 'bo@example.com', channel: 'cli', policy: () => policy });
      const p = await bo.playbook.proposals.propose({ target: 'memory', payload: memory(), proposedBy: 'bo@example.com' });
      for (const decide of [
        () => bo.playbook.proposals.approve({ id: p.proposalId, by: 'bo@example.com' }),
        () => bo.playbook.proposals.reject({ id: p.proposalId, by: ' BO@example.com ', reason: 'mine' }),
      ]) {
        await assert.rejects(decide(), (err: Error) => {
          assert.ok(err instanceof ValidationError);
          assert.match(
            err.message,
            /(?:bo|BO)@example\.com proposed .* may not decide their own proposal \(policy review\.self_approval: refused\)/,
          );
          return true;
        });
      }
      assert.equal((await bo.playbook.proposals.get(p.proposalId)).state, 'pending');
      assert.equal((await bo.memories.list({ limit: 10 })).items.length, 0);

      policy = mergePolicy(DEFAULT_POLICY, parsePolicyFile('review:\n  self_approval: allowed\n'));
      const approved = await bo.playbook.proposals.approve({ id: p.proposalId, by: 'bo@example.com' });
      assert.equal((await bo.memories.history({ id: approved.resultId! }))[0]!.proposedBy, 'bo@example.com');
      await store.close();
    });

    it("lets the policy's approvers name the store's database role", async () => {
      const { store } = await openService({ backend });
      // The workspace store has no role; stand one in to check the rule on both backends.
      const role = store.dbRole ?? 'ws_role';
      if (!store.dbRole) Object.assign(store, { dbRole: role });
      const policy = mergePolicy(DEFAULT_POLICY, parsePolicyFile(`semantic:\n  approvers: [${role}]\n`));
      const cy = buildServices(store, { author: 'cy@example.com', channel: 'cli', policy: () => policy });
      const f = await cy.playbook.proposals.propose({ target: 'fact', payload: FACT, proposedBy: 'agent:claude-code' });
      assert.equal((await cy.playbook.proposals.approve({ id: f.proposalId, by: 'cy@example.com' })).state, 'approved');
      Object.assign(store, { dbRole: `${role}_other` });
      const g = await cy.playbook.proposals.propose({ target: 'fact', payload: { ...FACT, object: 'team:platform' }, proposedBy: 'agent' });
      await assert.rejects(
        cy.playbook.proposals.approve({ id: g.proposalId, by: 'cy@example.com' }),
        /may not decide fact proposals; who may: /,
      );
      Object.assign(store, { dbRole: role === 'ws_role' ? null : role });
      await store.close();
    });
  });
