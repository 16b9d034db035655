import * as vscode from 'vscode';
import type { MemoryService } from '../../core/memoryService';
import { memoryUri } from './memoryUris';

/**
 * "Agent Memory: Search Memories": the same ranked search the agents use, in a quick
 * pick; the chosen memory opens in the memory editor.
 */
export function registerSearchCommand(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  log: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.search', async () => {
      // Open the store while the person types, not before the input box appears.
      const opening = getService();
      opening.catch(() => undefined);
      try {
        const text = await vscode.window.showInputBox({
          prompt: vscode.l10n.t('Keywords to search the team memory for (separated by spaces)'),
          placeHolder: vscode.l10n.t('e.g. jest esm transform'),
        });
        if (!text?.trim()) return;
        const hits = await (await opening).search({ keywords: text.trim().split(/\s+/), limit: 50 });
        if (hits.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('No memories match "{0}".', text.trim()));
          return;
        }
        const pick = await vscode.window.showQuickPick(
          hits.map((h) => ({ label: h.description, description: h.tags.join(', '), id: h.id })),
          { placeHolder: vscode.l10n.t('{0} memories match; pick one to open', hits.length), matchOnDescription: true },
        );
        if (!pick) return;
        await vscode.window.showTextDocument(memoryUri(pick.id, undefined, pick.label), { preview: true });
      } catch (err) {
        log.error(err as Error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
      }
    }),
  );
}
