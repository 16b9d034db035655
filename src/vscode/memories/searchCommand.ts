import * as vscode from 'vscode';
import type { MemoryService } from '../../core/memoryService';
import type { MemoriesTreeProvider } from './memoriesView';
import { searchAsTyped } from './memorySearch';
import { memoryUri } from './memoryUris';

/** How long typing must pause before the picker searches. */
const DEBOUNCE_MS = 150;

type Item = vscode.QuickPickItem &
  (
    | { kind?: undefined; action: 'open'; id: string; name: string }
    | { kind?: undefined; action: 'keep' | 'clear' | 'none' }
    | { kind: vscode.QuickPickItemKind.Separator }
  );

/**
 * "Agent Memory: Search Memories", the one search of the Memories view: a quick pick that
 * searches as the person types, with the ranked search the agents' search tool uses (see
 * searchAsTyped). Picking a memory opens it; "Show in the Memories View" (an item, or the
 * button in the picker's title) keeps the results as the view's filter, and "Clear Filter"
 * ends one (the only row while nothing is typed). The person's text is the filter's text, so the
 * view lists the same memories.
 */
export function registerSearchCommand(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  view: MemoriesTreeProvider,
  log: vscode.LogOutputChannel,
): void {
  const open = () => showSearch(getService, view, log);
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.search', open),
    // The view's former Filter… button: kept for keybindings and links, it opens the same picker.
    vscode.commands.registerCommand('agentMemory.filter', open),
  );
}

function showSearch(getService: () => Promise<MemoryService>, view: MemoriesTreeProvider, log: vscode.LogOutputChannel): Promise<void> {
  // Open the store while the picker appears, not before.
  const opening = getService();
  opening.catch(() => undefined);
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Search Memories');
  pick.placeholder = vscode.l10n.t('Type keywords, e.g. postgres connection pool (ranked like an agent’s search)');
  // The items are the search's ranked hits: the picker must not hide or re-sort them by its own matching.
  pick.matchOnDescription = false;
  const keepButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('list-filter'),
    tooltip: vscode.l10n.t('Show the Results in the Memories View'),
  };
  pick.buttons = [keepButton];

  const entries = (text: string): Item[] => {
    const out: Item[] = [];
    if (text)
      out.push({ action: 'keep', label: `$(list-filter) ${vscode.l10n.t('Show the Results in the Memories View')}`, alwaysShow: true });
    if (view.filter !== undefined || view.showingStale)
      out.push({
        action: 'clear',
        label: `$(clear-all) ${vscode.l10n.t('Clear Filter')}`,
        description: view.filter ? vscode.l10n.t('the view shows "{0}"', view.filter) : vscode.l10n.t('the view shows stale memories only'),
        alwaysShow: true,
      });
    return out;
  };

  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const search = async (text: string): Promise<void> => {
    const mine = ++seq;
    if (!text) {
      pick.busy = false;
      pick.items = entries(text);
      return;
    }
    pick.busy = true;
    try {
      const hits = await searchAsTyped(await opening, text);
      if (mine !== seq) return;
      const found: Item[] = hits.map((h) => ({
        action: 'open',
        id: h.id,
        name: h.description,
        label: h.freshness === 'stale' ? `$(warning) ${h.description}` : h.description,
        description: h.freshness === 'stale' ? `${vscode.l10n.t('stale')} · ${h.tags.join(', ')}` : h.tags.join(', '),
        alwaysShow: true,
      }));
      if (found.length === 0) found.push({ action: 'none', label: vscode.l10n.t('No memories match "{0}".', text), alwaysShow: true });
      pick.items = [...found, { kind: vscode.QuickPickItemKind.Separator, label: vscode.l10n.t('Memories view') }, ...entries(text)];
    } catch (err) {
      if (mine !== seq) return;
      log.error(err as Error);
      pick.items = [{ action: 'none', label: `$(error) ${(err as Error).message}`, alwaysShow: true }, ...entries(text)];
    } finally {
      if (mine === seq) pick.busy = false;
    }
  };

  const keep = async (text: string): Promise<void> => {
    pick.hide();
    // The view first: focusing it after would take the focus from whatever opens next.
    await vscode.commands.executeCommand('agentMemory.memories.focus');
    await view.setFilter(text);
  };

  return new Promise<void>((resolve) => {
    const subs: vscode.Disposable[] = [
      pick.onDidChangeValue((value) => {
        clearTimeout(timer);
        // Until the new results come, the old ones stay (a typed letter must not flash an empty list).
        timer = setTimeout(() => void search(value.trim()), DEBOUNCE_MS);
      }),
      pick.onDidTriggerButton(async (button) => {
        if (button === keepButton && pick.value.trim()) await keep(pick.value.trim());
      }),
      pick.onDidAccept(async () => {
        const item = pick.selectedItems[0];
        if (!item || item.kind === vscode.QuickPickItemKind.Separator || item.action === 'none') return;
        if (item.action === 'keep') return keep(pick.value.trim());
        pick.hide();
        if (item.action === 'clear') return view.setFilter(undefined);
        if (item.action !== 'open') return;
        try {
          await vscode.window.showTextDocument(memoryUri(item.id, undefined, item.name), { preview: true });
        } catch (err) {
          log.error(err as Error);
          void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
        }
      }),
      pick.onDidHide(() => {
        clearTimeout(timer);
        seq++;
        for (const s of subs) s.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    // Reopened while the view is filtered, the empty picker's one row is Clear Filter (Enter clears).
    void search('');
    pick.show();
  });
}
