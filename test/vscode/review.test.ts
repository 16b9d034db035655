import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MemoryService } from '../../src/core/memoryService';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { reviewMemory } from '../../src/vscode/memories/reviewQuickPick';
import { pickShown } from './driver';

describe('review before save (quick pick in the real workbench)', function () {
  this.timeout(30_000);
  let dir: string;
  let store: SqlJsStore;
  let service: MemoryService;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'am-review-'));
    store = await SqlJsStore.open({ dir, wasmPath: path.join(__dirname, '..', '..', 'dist', 'sql-wasm.wasm') });
    service = new MemoryService(store, { author: 'review-test' });
    await service.create({ description: 'existing', tags: ['build', 'ci'], content: 'x' });
  });

  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('accepts the proposal as it is with one keystroke (Enter)', async () => {
    const reviewing = reviewMemory(service, { description: 'Cache the build', tags: ['builds', 'cache'] });
    await pickShown('Enter saves the checked tags');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepEqual(await reviewing, { description: 'Cache the build', tags: ['builds', 'cache'] });
  });

  it('cancels with Escape: nothing is settled', async () => {
    const reviewing = reviewMemory(service, { description: 'Cache the build', tags: ['cache'] });
    await pickShown('Enter saves the checked tags');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await reviewing, undefined);
  });
});
