import * as vscode from 'vscode';
import { when } from '../shared/times';
import type { MemoryService } from '../../core/memoryService';
import type { StoreChanges } from '../session/storeChanges';
import { commandTarget, reportingCommand } from './target';
import { memoryUri } from './memoryUris';

type HistoryEntry = Awaited<ReturnType<MemoryService['history']>>[number];

/**
 * History commands: Show History (pick a version, then open it, compare it or restore it),
 * Restore Version, and Compare with Previous Version (a diff between two versions' documents;
 * the right side is the editable current document when it is the current version).
 */
export function registerHistoryCommands(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);

  const restore = async (entry: HistoryEntry, current: HistoryEntry) => {
    const yes = vscode.l10n.t('Restore');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Restore version {0} of "{1}"?', entry.version, entry.description),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its description, tags and content become version {0}; every version stays in the history.',
          current.version + 1,
        ),
      },
      yes,
    );
    if (answer !== yes) return;
    // The version the dialog showed as current: a change made while it was open is a conflict, not silently replaced.
    const out = await (await getService()).restore({ id: entry.id, version: entry.version, expectedVersion: current.version });
    changes.fireSoon(0);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Version {0} restored as version {1}', out.restoredFrom, out.version), 4000);
  };

  /** Every version of a memory, oldest first, and its newest one. */
  const loadHistory = async (id: string) => {
    const history = await (await getService()).history({ id });
    return { history, current: history[history.length - 1]! };
  };

  context.subscriptions.push(
    command('agentMemory.showHistory', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      const { history, current } = await loadHistory(target.id);
      const entry = await pickVersion(history, current, vscode.l10n.t('History of "{0}": pick a version', current.description));
      if (!entry) return;
      const actions = [
        {
          label: vscode.l10n.t('Open this version'),
          run: () => vscode.window.showTextDocument(memoryUri(entry.id, entry.version, entry.description), { preview: true }),
        },
        ...(entry.version > 1
          ? [
              {
                label: vscode.l10n.t('Compare with the previous version'),
                run: () => compare(entry.id, entry.version - 1, entry.version, entry.description),
              },
            ]
          : []),
        ...(entry !== current
          ? [
              {
                label: vscode.l10n.t('Compare with the current version'),
                run: () => compare(entry.id, entry.version, current.version, current.description),
              },
              { label: vscode.l10n.t('Restore this version'), run: () => restore(entry, current) },
            ]
          : []),
      ];
      const action = await vscode.window.showQuickPick(actions, { placeHolder: vscode.l10n.t('Version {0}', entry.version) });
      await action?.run();
    }),

    command('agentMemory.restoreVersion', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      const { history, current } = await loadHistory(target.id);
      const older = history.filter((v) => v !== current && v.op !== 'delete');
      if (older.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('This memory has no older version to restore.'));
        return;
      }
      const entry =
        target.version !== undefined && target.version !== current.version
          ? older.find((v) => v.version === target.version)
          : await pickVersion(older, current, vscode.l10n.t('Restore which version of "{0}"?', current.description));
      if (entry) await restore(entry, current);
    }),

    command('agentMemory.compareWithPrevious', async (arg) => {
      const target = commandTarget(arg);
      if (!target) return;
      const m = await (
        await getService()
      ).read(target.version === undefined ? { id: target.id } : { id: target.id, version: target.version });
      if (m.version === 1) {
        void vscode.window.showInformationMessage(vscode.l10n.t('This is the first version of the memory: there is nothing before it.'));
        return;
      }
      await compare(m.id, m.version - 1, target.version ?? 'current', m.description);
    }),
  );
}

/** Opens a diff of two versions; 'current' is the editable document of the current version. */
async function compare(id: string, left: number, right: number | 'current', description: string): Promise<void> {
  const rightUri = right === 'current' ? memoryUri(id, undefined, description) : memoryUri(id, right, description);
  const title = vscode.l10n.t('{0} (version {1} ↔ {2})', description, left, right === 'current' ? vscode.l10n.t('current') : right);
  await vscode.commands.executeCommand('vscode.diff', memoryUri(id, left, description), rightUri, title);
}

/** A quick pick of versions, newest first; `current` is marked. */
function pickVersion(entries: HistoryEntry[], current: HistoryEntry, placeHolder: string): Thenable<HistoryEntry | undefined> {
  const items = [...entries].reverse().map((v) => {
    const t = when(v.changedAt);
    return {
      label: `v${v.version} · ${v.op}${v === current ? ` · ${vscode.l10n.t('current')}` : ''}`,
      description: `${t.relative} · ${v.author}`,
      detail: `${v.description} [${v.tags.join(', ')}] · ${t.local} · ${t.iso}`,
      entry: v,
    };
  });
  return vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }).then((pick) => pick?.entry);
}
