import * as vscode from 'vscode';
import type { MemoryService } from '../../core/memoryService';
import type { MemoryUpkeep } from '../../core/memoryUpkeep';
import type { StoreChanges } from '../session/storeChanges';

/**
 * "Agent Memory: Find Likely Duplicates…": pairs of live memories whose descriptions and tags
 * closely match (core/duplicates.ts), in a quick pick; a picked pair can be merged into either
 * one: the kept one is edited (its content followed by the other's, the union of tags), the
 * other deleted, after a modal confirmation. History keeps both.
 */
export function registerDuplicatesCommand(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  getUpkeep: () => Promise<MemoryUpkeep>,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.findDuplicates', async () => {
      try {
        const [service, upkeep] = await Promise.all([getService(), getUpkeep()]);
        const pairs = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Looking for likely duplicate memories…') },
          () => upkeep.likelyDuplicates(),
        );
        if (pairs.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('No likely duplicate memories.'));
          return;
        }
        const pick = await vscode.window.showQuickPick(
          pairs.map((p) => ({
            label: p.a.description,
            description: vscode.l10n.t('similarity {0}', p.similarity),
            detail: `↔ ${p.b.description}`,
            pair: p,
          })),
          { placeHolder: vscode.l10n.t('{0} likely duplicate pairs; pick one to merge', pairs.length), matchOnDetail: true },
        );
        if (!pick) return;
        const { a, b } = pick.pair;
        const into = await vscode.window.showQuickPick(
          [
            { label: vscode.l10n.t('Merge into A'), detail: a.description, keep: a, remove: b },
            { label: vscode.l10n.t('Merge into B'), detail: b.description, keep: b, remove: a },
          ],
          { placeHolder: vscode.l10n.t('Which memory to keep? The other is deleted after its content and tags are added.') },
        );
        if (!into) return;
        // The versions confirmed are the versions merged: a change in between is a conflict, not a silent overwrite.
        const [keep, remove] = await Promise.all([service.read({ id: into.keep.id }), service.read({ id: into.remove.id })]);
        const yes = vscode.l10n.t('Merge');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('Merge "{0}" into "{1}"?', remove.description, keep.description),
          {
            modal: true,
            detail: vscode.l10n.t(
              "The kept memory gets the other one's content appended and the union of both tags; the other is deleted. History keeps both and either can be restored.",
            ),
          },
          yes,
        );
        if (answer !== yes) return;
        const out = await upkeep.merge({ keep: keep.id, keepVersion: keep.version, remove: remove.id, removeVersion: remove.version });
        changes.fireSoon(0);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Merged: version {0} of "{1}"', out.version, keep.description), 4000);
      } catch (err) {
        log.error(err as Error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
      }
    }),
  );
}
