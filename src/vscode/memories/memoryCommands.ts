import * as vscode from 'vscode';
import { whenLine } from '../shared/times';
import type { MemoryService } from '../../core/memoryService';
import { draftUri, memoryUri } from './memoryUris';
import type { MemoriesTreeProvider } from './memoriesView';
import { reviewMemory } from './reviewQuickPick';
import type { StoreChanges } from '../session/storeChanges';
import { commandTarget, reportingCommand } from './target';

/**
 * The commands of the Memories view and its items: open, new memory, edit tags, delete,
 * restore a deleted memory, copy id, filter and grouping. Every write goes through the same
 * service (and so the same rules) as an agent's.
 */
export function registerMemoryCommands(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  view: MemoriesTreeProvider,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);

  context.subscriptions.push(
    command('agentMemory.open', async (arg) => {
      const target = commandTarget(arg);
      if (target) await vscode.window.showTextDocument(memoryUri(target.id, target.version, target.description), { preview: true });
    }),

    command('agentMemory.newMemory', async () => {
      // Unique across sessions: VS Code restores open drafts after a reload.
      await vscode.window.showTextDocument(draftUri(Date.now().toString(36)), { preview: false });
    }),

    command('agentMemory.editTags', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      const service = await getService();
      const m = await service.read({ id: target.id });
      const reviewed = await reviewMemory(
        service,
        { description: m.description, tags: m.tags },
        {
          title: vscode.l10n.t('Tags of "{0}"', m.description),
          tagsLabel: vscode.l10n.t('Current tags'),
          canEditDescription: false,
        },
      );
      if (!reviewed) return;
      // Asked again after the quick pick: the store may have been switched meanwhile.
      const out = await (await getService()).edit({ id: m.id, tags: reviewed.tags, expectedVersion: m.version });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(
        out.changed ? vscode.l10n.t('Tags saved as version {0}', out.version) : vscode.l10n.t('Tags unchanged: nothing saved'),
        4000,
      );
    }),

    command('agentMemory.delete', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      const service = await getService();
      const m = await service.read({ id: target.id });
      const yes = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the memory "{0}"?', m.description),
        { modal: true, detail: vscode.l10n.t('Agents will no longer find it. It stays in the history and can be restored.') },
        yes,
      );
      if (answer !== yes) return;
      await (await getService()).delete({ id: m.id, expectedVersion: m.version });
      changes.fireSoon(0);
    }),

    command('agentMemory.restoreDeleted', async () => {
      const service = await getService();
      const page = await service.list({ deleted: true, limit: 200 });
      if (page.items.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No deleted memories.'));
        return;
      }
      const pick = await vscode.window.showQuickPick(
        page.items.map((m) => ({
          label: m.description,
          description: m.tags.join(', '),
          detail: vscode.l10n.t('deleted {0}', whenLine(m.changedAt)),
          id: m.id,
        })),
        { placeHolder: vscode.l10n.t('Pick a deleted memory to restore'), matchOnDescription: true },
      );
      if (!pick) return;
      const out = await (await getService()).restore({ id: pick.id });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Restored as version {0}', out.version), 4000);
    }),

    command('agentMemory.copyId', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      await vscode.env.clipboard.writeText(target.id);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Memory id copied'), 3000);
    }),

    command('agentMemory.clearFilter', () => view.setFilter(undefined)),
    // The memories whose cited code changed, checked against this window's folder.
    command('agentMemory.showStale', async () => {
      await vscode.commands.executeCommand('agentMemory.memories.focus');
      await view.showStale();
    }),
    command('agentMemory.groupByTag', () => view.setGroupBy('tag')),
    command('agentMemory.groupByRecency', () => view.setGroupBy('recency')),
  );
}
