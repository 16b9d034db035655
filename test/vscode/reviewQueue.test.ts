import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { api, invoke, playbook, proposalId } from './playbookSupport';
import { until } from './seed';

const settings = () => vscode.workspace.getConfiguration('agentMemory');

describe('agentMemory.reviewWrites = queue', function () {
  this.timeout(30_000);

  before(async () => {
    await api();
    await settings().update('reviewWrites', 'queue', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await settings().update('reviewWrites', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('a create becomes a pending proposal (nothing saved); approving it writes the memory as the approver', async () => {
    const out = await invoke('agent-memory_create', {
      description: 'Queued memory: cache the pnpm store in CI',
      tags: ['ci', 'pnpm'],
      content: 'Key the cache on pnpm-lock.yaml.',
    });
    assert.match(out, /NOT saved/);
    const id = proposalId(out);
    const l = await playbook();
    assert.equal((await l.memories.search({ keywords: ['queued', 'pnpm', 'cache'] })).length, 0, 'nothing was saved');
    const { playbook: views } = await api();
    let node;
    await until('the proposal in Pending', async () => {
      node = (await views.pending.getChildren()).find((n) => n.proposal.id === id);
      return node !== undefined;
    });
    assert.equal(views.pending.getTreeItem(node!).contextValue, 'proposal.memory.create');
    await vscode.commands.executeCommand('agentMemory.approveProposal', node);
    const p = await l.proposals.get(id);
    assert.equal(p.state, 'approved');
    const m = await l.memories.read({ id: p.decision!.resultId! });
    assert.equal(m.description, 'Queued memory: cache the pnpm store in CI');
    assert.equal(m.author, await (await api()).session.getAuthor());
    // The agent proposed on the person's behalf, as itself; the person approved: both recorded, through VS Code.
    const [v1] = await l.memories.history({ id: m.id });
    assert.deepEqual([v1!.channel, v1!.proposedBy], ['vscode', `${m.author} (agent)`]);
  });

  it('an edit becomes a proposal pinned to the current version, previewed field by field', async () => {
    const l = await playbook();
    const { id } = await l.memories.create({ description: 'Queued edit target', tags: ['queue'], content: 'before' });
    const out = await invoke('agent-memory_edit', { id, content: 'after' });
    const pid = proposalId(out);
    assert.equal((await l.memories.read({ id })).version, 1, 'nothing was saved');
    const p = await l.proposals.get(pid);
    assert.deepEqual(
      { action: p.action, targetId: p.targetId, expectedVersion: p.payload.expectedVersion },
      { action: 'edit', targetId: id, expectedVersion: 1 },
    );
    const preview = (await vscode.workspace.openTextDocument(vscode.Uri.parse(`agent-memory-view:/proposal/${pid}.md`))).getText();
    assert.match(preview, /\*\*New content:\*\*\n\n```+markdown\nafter\n/);
    assert.match(preview, /\*\*Replaces:\*\*\n\n```+markdown\nbefore\n/);
    await vscode.commands.executeCommand('agentMemory.compareProposal', { id: pid });
    await until(
      'a diff of the version against the proposal',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
    );
    const diff = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputTextDiff;
    assert.equal(diff.original.path, `/memories/${id}/queued-edit-target.v1.md`, 'named after the description');
    assert.match((await vscode.workspace.openTextDocument(diff.modified)).getText(), /\n---\n\nafter\n$/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
