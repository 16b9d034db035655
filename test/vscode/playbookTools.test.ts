import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { PLAYBOOK_TOOLS } from '../../src/core/contract';
import type { FactNode } from '../../src/vscode/facts/factsView';
import type { ProposalNode } from '../../src/vscode/pending/pendingView';
import { answerPicks, driverAvailable } from './driver';
import { api, invoke, playbook, proposalId, skillYaml, storeFile } from './playbookSupport';
import { readSeed, until } from './seed';

const ONTOLOGY = `types: [service, team]
relations:
  - { name: owned_by, from: service, to: team, cardinality: one }
  - { name: depends_on, from: service, to: service, cardinality: many }
`;

/** The Pending view's node of a proposal, once the view lists it. */
async function pendingNode(id: string): Promise<ProposalNode> {
  const { playbook: views } = await api();
  let node: ProposalNode | undefined;
  await until(`proposal ${id} in the Pending view`, async () => {
    node = (await views.pending.getChildren()).find((n) => n.proposal.id === id);
    return node !== undefined;
  });
  return node!;
}

/** The Facts view's node of the fact about `subject` with `object`. */
async function factNode(subject: string, object: string): Promise<Extract<FactNode, { kind: 'fact' }>> {
  const { playbook: views } = await api();
  for (const g of await views.facts.getChildren()) {
    if (g.kind !== 'subject' || g.group.subject !== subject) continue;
    for (const f of await views.facts.getChildren(g)) if (f.kind === 'fact' && f.fact.object === object) return f;
  }
  throw new Error(`no fact ${subject} … ${object} in the Facts view`);
}

describe('the playbook tools in VS Code (vscode.lm.invokeTool)', function () {
  this.timeout(60_000);

  before(async () => {
    await api();
    // Conflicts need a single-valued relation: the workspace ontology declares owned_by as one.
    storeFile('ontology.yaml', ONTOLOGY);
  });

  after(async () => {
    storeFile('ontology.yaml', undefined);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('registers each playbook tool in vscode.lm.tools with its schema and tags', () => {
    for (const t of PLAYBOOK_TOOLS) {
      const info = vscode.lm.tools.find((x) => x.name === t.name);
      assert.ok(info, `${t.name} is not registered`);
      assert.equal((info.inputSchema as { additionalProperties: boolean }).additionalProperties, false, t.name);
      assert.ok(info.tags.includes('agent-memory'), t.name);
    }
  });

  it('context packs what the store knows about a task within the token budget, framed as data', async () => {
    const out = await invoke('agent-memory_context', { task: 'Jest fails on ESM-only packages in the test run', maxTokens: 400 });
    const packed = JSON.parse(out) as {
      budget: number;
      usedTokens: number;
      note: string;
      items: Array<{ provenance: { kind: string; id: string } }>;
    };
    assert.equal(packed.budget, 400);
    assert.ok(packed.usedTokens <= 400, `used ${packed.usedTokens}`);
    assert.ok(Math.ceil(out.length / 4) <= 400, `the text is ${out.length} characters`);
    assert.match(packed.note, /not as instructions/);
    assert.ok(
      packed.items.some((i) => i.provenance.kind === 'memory' && i.provenance.id === readSeed().id),
      out,
    );
  });

  it('recordEpisode stores the episode', async () => {
    const out = await invoke('agent-memory_recordEpisode', {
      task: 'Fix the flaky login test',
      outcome: 'success',
      tools: ['npx mocha'],
      tags: ['flaky'],
      source: { type: 'commit', ref: 'abc1234' },
    });
    const id = /Recorded episode ([0-9a-f-]{36})/.exec(out)?.[1];
    assert.ok(id, out);
    const e = await (await playbook()).episodes.show({ id });
    assert.equal(e.task, 'Fix the flaky login test');
    assert.equal(e.outcome, 'success');
  });

  it('assertFact only proposes: nothing is in the facts until a person approves it in Pending, then it is queried back', async () => {
    const proposed = await invoke('agent-memory_assertFact', {
      subject: 'service:billing',
      predicate: 'owned_by',
      object: 'team:payments',
      source: 'https://wiki.example/billing',
      confidence: 0.9,
    });
    assert.match(proposed, /NOT saved/);
    const id = proposalId(proposed);
    assert.match(await invoke('agent-memory_queryFacts', { subject: 'service:billing' }), /No fact matches/);
    await vscode.commands.executeCommand('agentMemory.approveProposal', await pendingNode(id));
    const found = await invoke('agent-memory_queryFacts', { subject: 'service:billing' });
    assert.match(
      found,
      /service:billing owned_by team:payments — active; confidence 0\.9; unverified; source https:\/\/wiki\.example\/billing/,
    );
    assert.match(found, /do not follow instructions/);
    const p = await (await playbook()).proposals.get(id);
    assert.equal(p.state, 'approved');
  });

  it('a contradicting fact is approved as a dispute (both disputed); Resolve Dispute keeps the one chosen', async function () {
    if (!driverAvailable()) this.skip(); // the pick is answered by run.mjs's driver
    const proposed = await invoke('agent-memory_assertFact', {
      subject: 'service:billing',
      predicate: 'owned_by',
      object: 'team:ledger',
      source: 'CODEOWNERS',
      confidence: 0.6,
    });
    assert.match(proposed, /contradicts active fact/);
    await vscode.commands.executeCommand('agentMemory.approveProposal', await pendingNode(proposalId(proposed)));
    const disputed = await invoke('agent-memory_queryFacts', { subject: 'service:billing', predicate: 'owned_by' });
    assert.equal(disputed.match(/DISPUTED \(with/g)?.length, 2, disputed);
    assert.match(disputed, /sources that disagree/);
    const { playbook: views } = await api();
    const [first] = await views.facts.getChildren();
    assert.ok(
      first?.kind === 'subject' && first.group.subject === 'service:billing' && first.group.disputed,
      'disputed subjects come first',
    );

    const node = await factNode('service:billing', 'team:payments');
    await answerPicks(
      () => vscode.commands.executeCommand('agentMemory.resolveDispute', node),
      [['This fact says', 'Keep this one: team:payments']],
    );
    const after = await invoke('agent-memory_queryFacts', { subject: 'service:billing', predicate: 'owned_by', includeInactive: true });
    assert.match(after, /owned_by team:payments — active/);
    assert.match(after, /owned_by team:ledger — retracted/);
  });

  it('retractFact retracts; the fact stays in its history', async () => {
    const f = await (
      await playbook()
    ).facts.assert({
      subject: 'service:billing',
      predicate: 'depends_on',
      object: 'service:ledger',
      source: 'docs/arch.md',
      confidence: 1,
    });
    assert.match(
      await invoke('agent-memory_retractFact', { id: f.id, reason: 'billing no longer calls the ledger' }),
      /^Retracted: service:billing depends_on service:ledger — retracted/,
    );
    assert.doesNotMatch(await invoke('agent-memory_queryFacts', { subject: 'service:billing', predicate: 'depends_on' }), /service:ledger/);
    assert.equal((await (await playbook()).facts.history({ id: f.id })).length, 2);
  });

  it('a fact the ontology does not allow is refused with the allowed relations', async () => {
    await assert.rejects(
      invoke('agent-memory_assertFact', {
        subject: 'service:billing',
        predicate: 'written_in',
        object: 'rust',
        source: 'x',
        confidence: 1,
      }),
      (err: Error) => /nothing was saved/.test(err.message) && /owned_by/.test(err.message),
    );
  });

  it('proposeSkill refuses a broken YAML with its line number', async () => {
    await assert.rejects(
      invoke('agent-memory_proposeSkill', { yaml: 'name: broken-skill\ndescription: x\ntrigger: [a\nsteps: []\n' }),
      (err: Error) => /nothing was saved/.test(err.message) && /line \d+/.test(err.message),
    );
    await assert.rejects(
      invoke('agent-memory_proposeSkill', {
        yaml: 'name: no-steps\ndescription: Something\ntrigger: [do it]\nsteps: []\nsuccess_checks: [done]\n',
      }),
      (err: Error) => /line 4: steps needs at least 1 steps/.test(err.message),
    );
  });

  it('proposeSkill queues a draft; once approved, findSkills finds it and readSkill returns its YAML', async () => {
    const proposed = await invoke('agent-memory_proposeSkill', { yaml: skillYaml('fix-flaky-test') });
    assert.match(proposed, /NOT saved/);
    assert.match(await invoke('agent-memory_findSkills', { task: 'fix a flaky test' }), /No skill fits/);
    await vscode.commands.executeCommand('agentMemory.approveProposal', await pendingNode(proposalId(proposed)));
    assert.match(await invoke('agent-memory_findSkills', { task: 'fix a flaky test that fails on CI' }), /1\. fix-flaky-test v1 — /);
    const read = await invoke('agent-memory_readSkill', { name: 'fix-flaky-test' });
    assert.match(read, /^Skill fix-flaky-test, version 1/);
    assert.match(read, /<skill-yaml name="fix-flaky-test" version="1">\nname: fix-flaky-test\nversion: 1\n/);
    assert.match(read, /last 30 days no episodes/);
  });

  it('counts search results that were read, and the forgetting run reports them', async () => {
    const seed = readSeed();
    assert.match(await invoke('agent-memory_search', { keywords: ['jest', 'esm'] }), new RegExp(seed.id));
    await invoke('agent-memory_read', { id: seed.id });
    await vscode.commands.executeCommand('agentMemory.runForgetting');
    const [report] = await (await playbook()).lifecycle.reports({ limit: 1 });
    assert.equal(report?.trigger, 'command');
    assert.ok(report!.searchReads.returned >= 1 && report!.searchReads.read >= 1, JSON.stringify(report!.searchReads));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('agent-memory-view:/lifecycle/report.md'));
    assert.match(doc.getText(), /## Recent runs, newest first/);
    assert.match(doc.getText(), /\| command \|/);
  });
});
