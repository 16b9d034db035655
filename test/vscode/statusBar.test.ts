import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { drive, driverAvailable } from './driver';
import { api } from './playbookSupport';
import { until } from './seed';

const QUICK_INPUT = '.quick-input-widget';

// The status bar item and the start of the team-database wizard as a person meets them
// (issue 14, item 7), driven by Playwright through run.mjs (skipped without a driver).
// Runs before teamDatabase.test.ts: the workspace store is in use and no server is set.
describe('the store status bar item (Playwright)', function () {
  this.timeout(90_000);

  before(async function () {
    if (!driverAvailable()) this.skip();
    const { session } = await api();
    await session.getPlaybook();
    await until('the store to be open', () => session.state.kind === 'open');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await drive({ action: 'failure', name: this.currentTest.title }).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('says what it is, and a click shows the store with choices instead of starting the wizard', async () => {
    const { status } = await api();
    assert.equal(status.text, '$(database) Agent Memory');
    assert.match(String(status.tooltip), /^Agent Memory: workspace store /);
    const command = (status.command as vscode.Command).command;
    assert.equal(command, 'agentMemory.showStoreStatus');
    const shown = vscode.commands.executeCommand(command);
    await drive({ action: 'waitFor', selector: QUICK_INPUT, text: 'Show Memories' });
    const text = String(await drive({ action: 'text', selector: QUICK_INPUT }));
    assert.match(text, /Agent Memory: workspace store /);
    assert.match(text, /Connect to Team Database…/);
    assert.doesNotMatch(text, /Use the Workspace Store/, 'not offered while it is in use');
    await drive({ action: 'press', key: 'Escape' });
    await shown;
  });

  it('the team-database wizard starts empty: the example URL is a placeholder that Enter does not accept', async () => {
    const done = Promise.resolve(vscode.commands.executeCommand<boolean>('agentMemory.connectTeamDatabase'));
    await drive({ action: 'waitFor', selector: QUICK_INPUT, text: 'Team database (1/4): server' });
    const box = String(await drive({ action: 'html', selector: `${QUICK_INPUT} input` }));
    assert.match(box, /placeholder="postgres:\/\/user@host:5432\/agent_memory"/);
    await drive({ action: 'press', key: 'Enter' });
    await drive({ action: 'waitFor', selector: QUICK_INPUT, text: 'Expected postgres://user@host:5432/database' });
    await drive({ action: 'press', key: 'Escape' });
    assert.equal(await done, false, 'nothing was connected');
  });
});
