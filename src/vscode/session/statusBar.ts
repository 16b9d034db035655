import * as vscode from 'vscode';
import type { StoreSession, StoreState } from './storeSession';

/** The command the status bar item runs: the store's state, with what can be done about it. */
export const SHOW_STORE_STATUS = 'agentMemory.showStoreStatus';

/** One sentence on the store: which one, where, or what is wrong. */
function describe(state: StoreState): string {
  switch (state.kind) {
    case 'closed':
      return vscode.l10n.t('Agent Memory: the store is not open yet');
    case 'opening':
      return vscode.l10n.t('Agent Memory: opening {0}', state.where);
    case 'open':
      return state.backend === 'postgres'
        ? vscode.l10n.t('Agent Memory: team database {0}', state.where)
        : vscode.l10n.t('Agent Memory: workspace store {0}', state.where);
    case 'failed':
      return vscode.l10n.t('Agent Memory cannot use its store: {0}', state.message);
  }
}

type Choice = vscode.QuickPickItem & { command: string };

/** What a person can do from the store's state: the fix first when it is broken. */
function choices(state: StoreState): Choice[] {
  const item = (label: string, command: string, detail?: string): Choice => ({ label, command, ...(detail ? { detail } : {}) });
  const show = item(`$(list-tree) ${vscode.l10n.t('Show Memories')}`, 'agentMemory.memories.focus');
  const connect = item(
    `$(server) ${vscode.l10n.t('Connect to Team Database…')}`,
    'agentMemory.connectTeamDatabase',
    vscode.l10n.t('Share memories through a PostgreSQL database instead of git'),
  );
  const workspace = item(
    `$(database) ${vscode.l10n.t('Use the Workspace Store')}`,
    'agentMemory.useWorkspaceStore',
    vscode.l10n.t('The memories in the workspace folder, shared through git'),
  );
  const retry = item(`$(refresh) ${vscode.l10n.t('Try Again')}`, 'agentMemory.refresh');
  const log = item(`$(output) ${vscode.l10n.t('Show Log')}`, 'agentMemory.showLog');
  if (state.kind === 'failed')
    return state.backend === 'postgres'
      ? [{ ...connect, detail: vscode.l10n.t('Change the server, project, TLS or password') }, retry, workspace, log]
      : [retry, log];
  if (state.kind === 'open' && state.backend === 'postgres') return [show, workspace, connect, log];
  return [show, connect, log];
}

/**
 * One status bar item that says which store the memories come from, and what is wrong
 * when it cannot be used (a team database that is unreachable or misconfigured): the
 * message is in the tooltip. A click shows that state with what can be done about it,
 * rather than starting the team-database wizard.
 */
export function registerStoreStatus(context: vscode.ExtensionContext, session: StoreSession): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('agentMemory.store', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Agent Memory store');
  const name = vscode.l10n.t('Agent Memory');
  const show = (state: StoreState) => {
    item.backgroundColor = undefined;
    item.tooltip = describe(state);
    item.command = { command: SHOW_STORE_STATUS, title: vscode.l10n.t('Agent Memory Store…') };
    switch (state.kind) {
      case 'closed':
        item.hide();
        return;
      case 'opening':
        item.text = `$(sync~spin) ${name}`;
        break;
      case 'open':
        item.text = state.backend === 'postgres' ? `$(server) ${vscode.l10n.t('Agent Memory: team')}` : `$(database) ${name}`;
        break;
      case 'failed':
        item.text = `$(warning) ${vscode.l10n.t('Agent Memory: unavailable')}`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
    item.show();
  };
  show(session.state);
  context.subscriptions.push(
    item,
    session.onDidChangeState(show),
    vscode.commands.registerCommand(SHOW_STORE_STATUS, async () => {
      const state = session.state;
      const pick = await vscode.window.showQuickPick(choices(state), {
        title: describe(state),
        placeHolder: vscode.l10n.t('What would you like to do?'),
      });
      if (pick) await vscode.commands.executeCommand(pick.command);
    }),
  );
  return item;
}
