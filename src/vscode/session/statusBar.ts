import * as vscode from 'vscode';
import type { StoreSession, StoreState } from './storeSession';

/**
 * One status bar item that says which store the memories come from, and what is wrong
 * when it cannot be used (a team database that is unreachable or misconfigured): the
 * message is in the tooltip and a click offers the fix.
 */
export function registerStoreStatus(context: vscode.ExtensionContext, session: StoreSession): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('agentMemory.store', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Agent Memory store');
  const show = (state: StoreState) => {
    item.backgroundColor = undefined;
    switch (state.kind) {
      case 'closed':
        item.hide();
        return;
      case 'opening':
        item.text = `$(sync~spin) ${vscode.l10n.t('Memory')}`;
        item.tooltip = vscode.l10n.t('Agent Memory: opening {0}', state.where);
        item.command = undefined;
        break;
      case 'open':
        item.text = state.backend === 'postgres' ? `$(server) ${vscode.l10n.t('Memory: team')}` : `$(database) ${vscode.l10n.t('Memory')}`;
        item.tooltip =
          state.backend === 'postgres'
            ? vscode.l10n.t('Agent Memory: team database {0}', state.where)
            : vscode.l10n.t('Agent Memory: workspace store {0}', state.where);
        item.command = { command: 'agentMemory.connectTeamDatabase', title: vscode.l10n.t('Connect to Team Database') };
        break;
      case 'failed':
        item.text = `$(warning) ${vscode.l10n.t('Memory: unavailable')}`;
        item.tooltip = vscode.l10n.t('Agent Memory cannot use its store: {0}', state.message);
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        item.command =
          state.backend === 'postgres'
            ? { command: 'agentMemory.connectTeamDatabase', title: vscode.l10n.t('Connect to Team Database') }
            : { command: 'agentMemory.showLog', title: vscode.l10n.t('Show Log') };
        break;
    }
    item.show();
  };
  show(session.state);
  context.subscriptions.push(item, session.onDidChangeState(show));
  return item;
}
