import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { invoke, playbook, storeFile } from './playbookSupport';

const settings = () => vscode.workspace.getConfiguration('agentMemory');
const SET = ['working.maxTokens', 'semantic.requireSource', 'procedural.promotionMinSuccesses'];

describe("the lifecycle policy from the settings and the store folder's policy.yaml", function () {
  this.timeout(30_000);

  after(async () => {
    storeFile('policy.yaml', undefined);
    for (const key of SET) await settings().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('maps the settings onto the policy; policy.yaml wins over them, key by key', async () => {
    const l = await playbook();
    assert.equal(l.policy().working.max_tokens, 4000);
    await settings().update('working.maxTokens', 1000, vscode.ConfigurationTarget.Workspace);
    await settings().update('procedural.promotionMinSuccesses', 5, vscode.ConfigurationTarget.Workspace);
    assert.equal(l.policy().working.max_tokens, 1000);
    assert.equal(l.policy().procedural.promotion_min_successes, 5);
    const packed = JSON.parse(await invoke('agent-memory_context', { task: 'jest esm' })) as { budget: number };
    assert.equal(packed.budget, 1000, "the context tool's default budget is the setting");

    storeFile('policy.yaml', 'working:\n  max_tokens: 2000\n');
    assert.equal(l.policy().working.max_tokens, 2000);
    assert.equal(l.policy().procedural.promotion_min_successes, 5, 'a key the file does not set keeps the setting');
  });

  it('semantic.requireSource off lets a fact without a source through', async () => {
    const l = await playbook();
    await assert.rejects(
      l.facts.assert({ subject: 'docs site', predicate: 'hosted_on', object: 'GitHub Pages', confidence: 1 }),
      /semantic\.require_source/,
    );
    await settings().update('semantic.requireSource', false, vscode.ConfigurationTarget.Workspace);
    assert.equal(
      (await l.facts.assert({ subject: 'docs site', predicate: 'hosted_on', object: 'GitHub Pages', confidence: 1 })).outcome,
      'created',
    );
  });

  it('a broken policy.yaml is reported with its line to whoever needs the policy', async () => {
    storeFile('policy.yaml', 'episodic:\n  ttl_days: forever\n');
    await assert.rejects(invoke('agent-memory_context', { task: 'jest esm' }), /policy\.yaml.*line 2/);
  });
});
