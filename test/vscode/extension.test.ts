import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { log } from './output';
import type { AgentMemoryApi } from '../../src/extension';
import { EXTENSION_ID, until, workspaceFolder } from './seed';

// index.ts runs this suite first, so the extension is
// still inactive here unless an activation event fired at start-up.
describe('extension in a real VS Code host', () => {
  it('is installed from the development path', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among ${vscode.extensions.all.length} extensions`);
    assert.equal(ext.packageJSON.name, 'agent-memory');
  });

  it('activates (and reports how long activation took)', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const cold = !ext.isActive;
    const t = performance.now();
    await ext.activate();
    const ms = performance.now() - t;
    assert.equal(ext.isActive, true);
    log(
      `    activation: ${cold ? `${ms.toFixed(1)} ms (cold: load dist/extension.js + activate())` : 'already active before the test'}` +
        ` · VS Code ${vscode.version}, ${vscode.env.appHost}, uiKind ${vscode.UIKind[vscode.env.uiKind]}, Node ${process.version}`,
    );
  });

  it('registers the agentMemory.search command', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('agentMemory.search'), 'agentMemory.search is not registered');
  });

  it('runs the forgetting rules once the store opens (trigger activation), after activation returned', async () => {
    const api = await vscode.extensions.getExtension<AgentMemoryApi>(EXTENSION_ID)!.activate();
    await api.session.getPlaybook();
    // This suite runs first: the run the store's opening starts is the first of this window.
    await until('the activation run', () => api.playbook.forgetting.lastRun?.trigger === 'activation', 15_000);
  });

  it('opening the views and the activation run leave git status clean (a run that changed nothing writes no report)', async () => {
    const api = await vscode.extensions.getExtension<AgentMemoryApi>(EXTENSION_ID)!.activate();
    await vscode.commands.executeCommand('workbench.view.extension.agentMemory');
    const { memoriesView, playbook: views } = api;
    assert.ok((await memoriesView.getChildren()).length > 0, 'the Memories view lists the seed memory');
    await Promise.all([views.facts.getChildren(), views.skills.getChildren(), views.pending.getChildren()]);
    await until('the activation run', () => api.playbook.forgetting.lastRun?.trigger === 'activation', 15_000);
    assert.equal(api.playbook.forgetting.lastRun?.id, null, 'nothing was due: the run is not recorded');
    const playbook = await api.session.getPlaybook();
    assert.deepEqual(await playbook.lifecycle.reports({ limit: 10 }), []);
    // run.mjs committed the store before VS Code started (scripts/vscode-test/workspace.mjs).
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspaceFolder(), encoding: 'utf8' });
    assert.equal(status, '', `the workspace changed:\n${status}`);
    // A window opened later in the day does not run again: the run's time is kept outside git.
    assert.equal(await views.forgetting.run('schedule'), undefined);
  });

  it('runs in a trusted workspace (the extension does not support Restricted Mode)', () => {
    assert.equal(vscode.workspace.isTrusted, true);
  });
});
