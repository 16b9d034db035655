import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MemoryService } from '../../src/core/memoryService';
import { buildServices, type Services } from '../../src/core/services';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { DeleteTool } from '../../src/vscode/tools/deleteTool';
import { EditTool } from '../../src/vscode/tools/editTool';
import { pickShown } from './driver';

const text = (r: vscode.LanguageModelToolResult) =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

// The tool classes on a store of their own, called the way VS Code calls them: prepareInvocation
// (the confirmation a person sees), then invoke. A chat invocation's token is opaque and only VS
// Code makes one; where a test needs "a person is present", it passes a stand-in object.
describe('tool confirmations are tied to the version they showed', function () {
  this.timeout(30_000);
  let dir: string;
  let store: SqlJsStore;
  let services: Services;
  let service: MemoryService;
  const provider = () => Promise.resolve(services);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'am-preview-'));
    store = await SqlJsStore.open({ dir, wasmPath: path.join(__dirname, '..', '..', 'dist', 'sql-wasm.wasm') });
    services = buildServices(store, { author: 'preview-test' });
    service = services.memories;
  });

  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an edit confirmed against version 1 is refused if the memory changed before the click, and nothing is saved', async () => {
    const { id } = await service.create({ description: 'Cache keys', tags: ['cache'], content: 'v1' });
    const tool = new EditTool(provider);
    const input = { id, content: "the model's change" };
    const prepared = await tool.prepareInvocation({ input });
    assert.match((prepared!.confirmationMessages!.message as vscode.MarkdownString).value, /version 1/);
    await service.edit({ id, content: "a teammate's change" }); // between the preview and the click
    await assert.rejects(Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined })), /nothing was saved.*version 2/i);
    assert.equal((await service.read({ id })).content, "a teammate's change");
  });

  it('an edit confirmed against the current version is saved', async () => {
    const { id } = await service.create({ description: 'Cache keys 2', tags: ['cache'], content: 'v1' });
    const tool = new EditTool(provider);
    const input = { id, content: 'v2' };
    await tool.prepareInvocation({ input });
    assert.match(text(await tool.invoke({ input, toolInvocationToken: undefined })), /Saved version 2/);
  });

  it('a delete confirmed against version 1 is refused after a teammate edited it', async () => {
    const { id } = await service.create({ description: 'Delete me', tags: ['cache'], content: 'v1' });
    const tool = new DeleteTool(provider);
    await tool.prepareInvocation({ input: { id } });
    await service.edit({ id, content: 'still useful' });
    await assert.rejects(Promise.resolve(tool.invoke({ input: { id }, toolInvocationToken: undefined })), /nothing was saved/i);
    assert.equal((await service.read({ id })).deletedAt, undefined);
  });

  it('an edit that sets tags is reviewed by the person after Continue (token stand-in): Enter keeps the proposal', async () => {
    const { id } = await service.create({ description: 'Reviewed edit', tags: ['cache'], content: 'v1' });
    const tool = new EditTool(provider);
    const input = { id, tags: ['cache', 'Redis'] };
    await tool.prepareInvocation({ input });
    const invoking = tool.invoke({ input, toolInvocationToken: {} as vscode.ChatParticipantToolToken });
    await pickShown('Enter saves the checked tags');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.match(text(await invoking), /Saved version 2 .*changed: tags/);
    assert.deepEqual((await service.read({ id })).tags, ['cache', 'redis']);
  });

  it('cancelling that review saves nothing and tells the model so', async () => {
    const { id } = await service.create({ description: 'Cancelled edit', tags: ['cache'], content: 'v1' });
    const tool = new EditTool(provider);
    const input = { id, description: 'Renamed by the model' };
    await tool.prepareInvocation({ input });
    const invoking = tool.invoke({ input, toolInvocationToken: {} as vscode.ChatParticipantToolToken });
    await pickShown('Enter saves the checked tags');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.match(text(await invoking), /cancelled the review: nothing was saved/);
    assert.equal((await service.read({ id })).version, 1);
  });
});
