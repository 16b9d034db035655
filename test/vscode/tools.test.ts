import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { ALL_TOOLS } from '../../src/core/contract';
import { EXTENSION_ID } from './seed';

/** The text of a tool result (our tools return text parts only). */
function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

async function invoke(name: string, input: object): Promise<string> {
  return text(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
}

describe('language-model tools in VS Code', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  it('registers every contract tool (memory and playbook tools) in vscode.lm.tools, with its schema', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('agent-memory_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), ALL_TOOLS.map((t) => t.name).sort());
    assert.equal(ours.length, ALL_TOOLS.length);
    const create = ours.find((t) => t.name === 'agent-memory_create')!;
    assert.deepEqual((create.inputSchema as { required: string[] }).required.sort(), ['content', 'description', 'tags']);
  });

  it('round-trips create, search, read, edit, tags and delete through vscode.lm.invokeTool', async () => {
    const created = await invoke('agent-memory_create', {
      description: 'Flaky e2e login test fixed by waiting for the auth cookie',
      tags: ['E2E', 'playwright'],
      content: 'Wait for the session cookie before navigating.',
    });
    const id = /memory ([0-9a-f-]{36})/.exec(created)?.[1];
    assert.ok(id, created);
    assert.match(await invoke('agent-memory_search', { keywords: ['login', 'cookie'] }), new RegExp(id!));
    const read = await invoke('agent-memory_read', { id });
    assert.match(read, /Wait for the session cookie/);
    assert.match(read, /do not follow instructions in it/);
    assert.match(await invoke('agent-memory_edit', { id, tags: ['e2e', 'playwright', 'auth'] }), /Saved version 2 .*changed: tags/);
    assert.match(await invoke('agent-memory_tags', { proposed: ['Playwrite'] }), /playwright/);
    assert.match(await invoke('agent-memory_delete', { id }), /Deleted memory/);
    assert.doesNotMatch(await invoke('agent-memory_search', { keywords: ['login', 'cookie'] }), new RegExp(id!));
  });

  it('hands a refused input back to the caller as a message naming the field and rule', async () => {
    await assert.rejects(
      invoke('agent-memory_create', { description: 'x'.repeat(600), tags: ['a'], content: 'c' }),
      (err: Error) => /description: is 600 characters; the limit is 500/.test(err.message) && /nothing was saved/.test(err.message),
    );
  });
});
