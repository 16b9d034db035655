import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { MemoryNode } from '../../src/vscode/memories/memoriesView';
import { changeCitedFiles, CITED, STALE_STATUSES, staleScores, writeCitedFiles } from '../helpers/citedRepo';
import { drive, driverAvailable, screenshotsWanted } from './driver';
import { api, invoke } from './playbookSupport';
import { memoryUri, workspaceFolder } from './seed';

const SIDEBAR = '.part.sidebar';
const ROW = `${SIDEBAR} .monaco-list-row`;
const label = (c: { path: string; startLine?: number; endLine?: number }) =>
  c.startLine === undefined ? c.path : `${c.path}:${c.startLine}-${c.endLine ?? c.startLine}`;

// Memories citing code in this window's folder (a git repository): the git script of
// test/helpers/citedRepo.ts, checked as the model reads them (the tools), as a person sees
// them (the Memories view, the memory document), and edited back to fresh.
describe('citations in VS Code: stale memories told to the model and shown in the Memories view', function () {
  this.timeout(90_000);
  const ids = new Map<string, string>();

  before(async () => {
    const root = workspaceFolder();
    writeCitedFiles(root);
    for (const m of CITED) {
      const out = await invoke('agent-memory_create', {
        description: m.description,
        tags: m.tags,
        content: m.content,
        citations: m.citations,
      });
      const id = /memory ([0-9a-f-]{36})/.exec(out)?.[1];
      assert.ok(id, out);
      ids.set(m.key, id);
    }
    changeCitedFiles(root);
  });

  after(async () => {
    // The other suites see the store as it was: these memories go (soft-deleted, in history).
    const service = await (await api()).session.getService();
    for (const id of ids.values()) await service.delete({ id }).catch(() => undefined);
    await (await api()).memoriesView.setFilter(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && driverAvailable())
      await drive({ action: 'failure', name: this.currentTest.title }).catch(() => undefined);
  });

  it('agent-memory_read tells the model to verify exactly the stale memories (precision and recall 1.0); search marks them', async () => {
    const reported = new Map<string, boolean>();
    for (const m of CITED) {
      const text = await invoke('agent-memory_read', { id: ids.get(m.key) });
      assert.match(text, new RegExp(`Cites: ${m.expected}: `), `${m.key}: ${text}`);
      reported.set(m.key, /STALE: This memory cites code that has changed since it was written/.test(text));
    }
    assert.deepEqual(staleScores(reported), { precision: 1, recall: 1, wrong: [] });
    const found = await invoke('agent-memory_search', { keywords: ['legacy', 'mode'] });
    assert.match(found, /\[STALE: cited code changed\] Legacy mode is switched on by legacyFlag/);
  });

  it('Show Stale Memories lists exactly the stale ones, marked, with what changed in the tooltip', async () => {
    const tree = (await api()).memoriesView;
    await vscode.commands.executeCommand('agentMemory.showStale');
    assert.equal(tree.showingStale, true);
    const nodes = (await tree.getChildren()).filter((n): n is Extract<MemoryNode, { kind: 'memory' }> => n.kind === 'memory');
    const expected = CITED.filter((m) => STALE_STATUSES.has(m.expected)).map((m) => ids.get(m.key)!);
    assert.deepEqual(nodes.map((n) => n.id).sort(), [...expected].sort());
    const renamed = nodes.find((n) => n.id === ids.get('renamed'))!;
    const item = tree.getTreeItem(renamed);
    assert.match(String(item.description), /^stale · naming$/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
    // As the hover renders it: appendText escapes spaces and brackets.
    const tooltip = ((await tree.resolveTreeItem(item, renamed)).tooltip as vscode.MarkdownString).value
      .replace(/&nbsp;/g, ' ')
      .replace(/\\(.)/g, '$1');
    assert.match(tooltip, /src\/old\.ts was renamed to src\/new\.ts/);
    if (driverAvailable()) {
      await vscode.commands.executeCommand('agentMemory.memories.focus');
      await drive({ action: 'waitFor', selector: ROW, text: 'goneSoon returns 42' });
      const widen = screenshotsWanted() ? 220 : 0;
      if (widen) await drive({ action: 'dragRightEdge', selector: SIDEBAR, dx: widen });
      await drive({ action: 'screenshot', name: 'stale-memories', selectors: [SIDEBAR] });
      if (widen) await drive({ action: 'dragRightEdge', selector: SIDEBAR, dx: -widen });
    }
    // Outside the stale-only list, the grouped view marks them too.
    await vscode.commands.executeCommand('agentMemory.clearFilter');
    assert.equal(tree.showingStale, false);
  });

  it('the memory document lists the citations and what changed; saving it anchors them again and the memory is fresh', async () => {
    const id = ids.get('changed')!;
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    const text = doc.getText();
    assert.match(text, /^citations:\n {2}- src\/config\.ts:2-3$/m);
    assert.match(text, /^# Stale: the code it cites has changed/m);
    assert.match(text, /^# src\/config\.ts:2-3: the cited text has changed/m);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(doc.positionAt(doc.getText().length), 'Now port 9090.\n'));
    assert.ok(await doc.save(), 'the save went through');
    const service = await (await api()).session.getService();
    const m = await service.read({ id });
    assert.equal(m.freshness, 'fresh');
    assert.equal(m.version, 2);
    assert.equal(label(m.citations![0]!), 'src/config.ts:2-3');
  });
});
