import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { log } from './output';
import type { AgentMemoryApi } from '../../src/extension';
import { EXTENSION_ID, until } from './seed';

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
    const playbook = await api.session.getPlaybook();
    // This suite runs first: no run can be in the store yet but the one opening it starts.
    await until(
      'the activation run',
      async () => (await playbook.lifecycle.reports({ limit: 10 })).some((r) => r.trigger === 'activation'),
      15_000,
    );
  });

  it('runs in a trusted workspace (the extension does not support Restricted Mode)', () => {
    assert.equal(vscode.workspace.isTrusted, true);
  });
});
