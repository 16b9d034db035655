import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { EpisodeService } from '../../src/core/playbook/episodeService';
import type { FactNode } from '../../src/vscode/facts/factsView';
import { api, invoke, markdownPreviewOpen, playbook, proposalId, skillYaml } from './playbookSupport';
import { until } from './seed';

type Subject = Extract<FactNode, { kind: 'subject' }>;

/** A tooltip's text as a person reads it (appendText writes spaces as &nbsp;). */
const plain = (tip: vscode.TreeItem['tooltip']) => (tip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');

/** The Facts view's group of `subject`, if listed. */
async function subjectGroup(subject: string): Promise<Subject | undefined> {
  const { playbook: views } = await api();
  return (await views.facts.getChildren()).find((n): n is Subject => n.kind === 'subject' && n.group.subject === subject);
}

describe('the Facts, Skills and Pending views', function () {
  this.timeout(30_000);

  after(async () => {
    const { playbook: views } = await api();
    await views.facts.setShowInactive(false);
  });

  it('Facts: grouped by subject, "predicate → object" with status, confidence and verification; inactive facts only when asked', async () => {
    const l = await playbook();
    const kept = await l.facts.assert({ subject: 'web-app', predicate: 'uses', object: 'pnpm', source: 'package.json', confidence: 0.8 });
    const gone = await l.facts.assert({ subject: 'web-app', predicate: 'uses', object: 'yarn', source: 'old README', confidence: 0.4 });
    await l.facts.verify({ id: kept.id, evidence: 'pnpm-lock.yaml is committed' });
    await l.facts.retract({ id: gone.id, reason: 'moved to pnpm' });
    const { playbook: views } = await api();
    views.facts.refresh();

    const group = await subjectGroup('web-app');
    assert.ok(group, 'the subject is listed');
    const facts = await views.facts.getChildren(group);
    assert.equal(facts.length, 1, 'the retracted fact is hidden');
    const item = views.facts.getTreeItem(facts[0]!);
    assert.equal(item.label, 'uses → pnpm');
    assert.equal(item.description, '0.8 · verified');
    assert.equal(item.contextValue, 'fact.active.verified');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass');
    const tip = plain(item.tooltip);
    for (const part of ['package.json', 'pnpm-lock.yaml is committed', 'Observed at', 'Asserted by'])
      assert.ok(tip.includes(part), `${part} missing from the tooltip:\n${tip}`);

    await vscode.commands.executeCommand('agentMemory.showInactiveFacts');
    const all = await views.facts.getChildren(await subjectGroup('web-app'));
    assert.deepEqual(
      all.map((n) => n.kind === 'fact' && n.fact.state),
      ['active', 'retracted'],
    );
    assert.equal((views.facts.getTreeItem(all[1]!).iconPath as vscode.ThemeIcon).id, 'circle-slash');
    await vscode.commands.executeCommand('agentMemory.hideInactiveFacts');
  });

  it('Facts: "Show Fact History" opens a read-only document of every version', async () => {
    const l = await playbook();
    const f = await l.facts.assert({
      subject: 'web-app',
      predicate: 'ci',
      object: 'github actions',
      source: '.github/workflows',
      confidence: 1,
    });
    await l.facts.verify({ id: f.id, evidence: 'workflow runs on every push' });
    await vscode.commands.executeCommand('agentMemory.showFactHistory', { id: f.id });
    // Rendered as Markdown (a text editor would show its escapes: owned\_by), named after the fact.
    await until('the history preview', () => markdownPreviewOpen(/history-of-web-app-ci-github-actions/));
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'agent-memory-view', path: `/fact-history/${f.id}/history-of-web-app-ci-github-actions.md` }),
    );
    const textNow = doc.getText();
    assert.match(textNow, /## Version 2 · edit · active/);
    assert.match(textNow, /Verified by .* workflow runs on every push/);
    assert.match(textNow, /## Version 1 · create · active/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Skills: name, version and the 30-day success rate of that version', async () => {
    const l = await playbook();
    await l.skills.save(skillYaml('update-snapshots', 'Update the UI snapshot tests after an intended change'));
    const { playbook: views } = await api();
    const node = async () => (await views.skills.getChildren()).find((n) => n.name === 'update-snapshots');
    views.skills.refresh();
    assert.equal(views.skills.getTreeItem((await node())!).description, 'v1 · no runs in 30 days');
    for (const outcome of ['success', 'success', 'success', 'failure'] as const) {
      await l.episodes.record({
        task: 'Update the snapshots after the header redesign',
        outcome,
        source: { type: 'chat', ref: 'views-test' },
        skill: { name: 'update-snapshots', version: 1 },
      });
    }
    const item = views.skills.getTreeItem((await node())!);
    assert.equal(item.description, 'v1 · 75% of 4 in 30 days');
    assert.equal(item.command?.arguments?.[0]?.toString(), 'agent-memory:/skills/update-snapshots.yaml');
  });

  it('Skills: "Propose Skills from Episodes" sends a draft built from repeated successes to Pending', async () => {
    const l = await playbook();
    const runs = [
      ['agent-a', 'Regenerate the GraphQL schema types after an API change'],
      ['agent-b', 'Regenerate GraphQL schema types after the API change'],
      ['agent-a', 'Regenerate the GraphQL schema types after a schema change'],
    ];
    // Reproducibility counts the identities that wrote the episodes (two teammates' agents), not a label.
    for (const [author, task] of runs) {
      await new EpisodeService(l.store.records, { author: `${author!}@example.com` }).record({
        task,
        outcome: 'success',
        tags: ['graphql'],
        tools: ['npm run codegen'],
        source: { type: 'commit', ref: 'c0ffee1' },
      });
    }
    const drafts = async () => (await l.proposals.list({ state: 'pending', target: 'skill' })).items;
    const before = (await drafts()).length;
    await vscode.commands.executeCommand('agentMemory.promoteSkills');
    const after = await drafts();
    assert.equal(after.length, before + 1);
    assert.equal(after[0]!.proposedBy, 'promotion from episodes');
    assert.match(after[0]!.summary, /graphql/i);
  });

  it('Pending: pending proposals with target and proposer, warnings in the tooltip, a badge with the count, and a preview', async () => {
    const l = await playbook();
    const p = await l.proposals.propose({
      target: 'fact',
      payload: { subject: 'web-app', predicate: 'uses', object: 'pnpm', source: 'lockfile', confidence: 0.9 },
      proposedBy: 'views-test (agent)',
    });
    const { playbook: views } = await api();
    views.pending.refresh();
    const nodes = await views.pending.getChildren();
    const node = nodes.find((n) => n.proposal.id === p.proposalId)!;
    assert.ok(node, 'the proposal is listed');
    const item = views.pending.getTreeItem(node);
    assert.equal(item.description, 'fact · views-test (agent)');
    assert.equal(item.contextValue, 'proposal.fact.create');
    assert.match(plain(item.tooltip), /the same fact is stored/);
    assert.equal(views.pending.view?.badge?.value, nodes.length);

    const preview = await vscode.workspace.openTextDocument(vscode.Uri.parse(`agent-memory-view:/proposal/${p.proposalId}.md`));
    assert.match(preview.getText(), /^# Pending fact proposal/);
    assert.match(preview.getText(), /## What approving writes/);
    assert.match(preview.getText(), /\| Object \| pnpm \|/);
    assert.match(preview.getText(), /## Near-duplicates\n\n- fact `[0-9a-f-]{36}` \(similarity 1\)/);

    // A click opens it as rendered Markdown.
    await vscode.commands.executeCommand('agentMemory.openProposal', node);
    await until('the Markdown preview', () => markdownPreviewOpen());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await l.proposals.reject({ id: p.proposalId, by: 'views-test', reason: 'already known' });

    // A URL and an address read whole, without a backslash, and link to nothing (issue 14, item 9).
    const q = await l.proposals.propose({
      target: 'fact',
      payload: {
        subject: 'web-app',
        predicate: 'owned_by',
        object: 'bob@example.com',
        source: 'https://wiki.example.com/team_pages/web-app',
        confidence: 1,
      },
      proposedBy: 'views-test (agent)',
    });
    views.pending.refresh();
    const qNode = (await views.pending.getChildren()).find((n) => n.proposal.id === q.proposalId)!;
    const tip = plain(views.pending.getTreeItem(qNode).tooltip);
    assert.ok(tip.includes('`https://wiki.example.com/team_pages/web-app`'), tip);
    assert.ok(tip.includes('`bob@example.com`'), tip);
    assert.doesNotMatch(tip.replace(/`[^`]*`/g, ''), /\\[^_*[\]<>#&$|~-]/, `only escapes a renderer removes: ${tip}`);
    const qPreview = (
      await vscode.workspace.openTextDocument(vscode.Uri.parse(`agent-memory-view:/proposal/${q.proposalId}.md`))
    ).getText();
    assert.match(qPreview, /\| Source \| `https:\/\/wiki\.example\.com\/team_pages\/web-app` \|/);
    assert.match(qPreview, /\| Object \| `bob@example\.com` \|/);
    assert.match(
      qPreview,
      /Proposed by views-test \(agent\), <span title="\d{4}-\d\d-\d\dT[^"]+Z">[^<]+<\/span>\./,
      'the local time, ISO on hover',
    );
    await l.proposals.reject({ id: q.proposalId, by: 'views-test', reason: 'test' });
    views.pending.refresh();
    assert.ok(!(await views.pending.getChildren()).some((n) => n.proposal.id === p.proposalId), 'a decided proposal leaves the view');
  });

  it('Pending: the preview of a skill an agent proposed (no evidence) shows the skill', async () => {
    const l = await playbook();
    const id = proposalId(await invoke('agent-memory_proposeSkill', { yaml: skillYaml('preview-proposed-skill') }));
    const preview = await vscode.workspace.openTextDocument(vscode.Uri.parse(`agent-memory-view:/proposal/${id}.md`));
    const shown = preview.getText();
    assert.doesNotMatch(shown, /could not be read/);
    assert.match(shown, /^# Pending skill proposal/);
    assert.match(shown, /````yaml\nname: preview-proposed-skill\ndescription: Fix a flaky test/);
    assert.match(shown, /- do: Run the test 20 times/);
    assert.doesNotMatch(shown, /evidence:/);
    assert.match(shown, /No evidence given: approving keeps the evidence/);
    await l.proposals.reject({ id, by: 'views-test', reason: 'preview checked' });
  });

  it('a scheduled forgetting run does nothing while the last run (of any window) is recent', async () => {
    const l = await playbook();
    const before = (await l.lifecycle.reports({ limit: 100 })).length;
    const { playbook: views } = await api();
    assert.equal(await views.forgetting.run('schedule'), undefined);
    assert.equal((await l.lifecycle.reports({ limit: 100 })).length, before);
  });
});
