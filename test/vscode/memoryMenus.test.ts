import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { drive, driverAvailable, waitUntil } from './driver';
import { api } from './playbookSupport';
import { cli, memoryUri } from './seed';

/** An icon of the editor's title bar, by the start of its label. */
const titleAction = (label: string) => `.editor-actions .action-label[aria-label^="${label}"]`;

// Menus as a person sees them: actions are offered only where they can apply (issue 14, item 11).
describe('memory document menus in the workbench (Playwright)', function () {
  this.timeout(90_000);

  before(async function () {
    if (!driverAvailable()) this.skip();
    await api();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await drive({ action: 'failure', name: this.currentTest.title }).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers Compare with Previous Version in the title bar only once there is a previous version', async () => {
    const { id } = cli<{ id: string }>('create', '--description', 'Menus follow the version', '--tags', 'menu-test', '--content', 'One.');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.window.showTextDocument(doc);
    // Show Memory History… shares the title bar: once it is drawn, the bar is.
    await drive({ action: 'waitFor', selector: titleAction('Show Memory History') });
    assert.equal(
      await drive({ action: 'count', selector: titleAction('Compare with Previous Version') }),
      0,
      'version 1: nothing before it',
    );

    cli('edit', id, '--content', 'Two.');
    await waitUntil('the document to show version 2', () => (doc.getText().includes(' · version 2 · ') ? true : undefined));
    await waitUntil('the Compare button', async () =>
      ((await drive({ action: 'count', selector: titleAction('Compare with Previous Version') })) as number) > 0 ? true : undefined,
    );
  });
});
