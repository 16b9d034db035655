import * as vscode from 'vscode';
import type { MemoryService } from '../core/memoryService';
import { memoryUri } from './searchCommand';

/** How many memories the view lists; the rest are reached through search. */
const PAGE = 200;

/** A memory in the view, or the hint that there are more than the view lists. */
export type MemoryNode = { kind: 'memory'; id: string; description: string; tags: string[]; changedAt: string } | { kind: 'more' };

/**
 * The Memories view: current memories, most recently changed first. It only reads from the
 * service; it refreshes when the journal changes on disk, whoever wrote it (this window, another
 * window, the CLI, an MCP server). The tooltip (author, version, content preview) is read
 * only when a person hovers.
 */
export class MemoriesTreeProvider implements vscode.TreeDataProvider<MemoryNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly getService: () => Promise<MemoryService>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(element?: MemoryNode): Promise<MemoryNode[]> {
    if (element) return [];
    try {
      const page = await (await this.getService()).list({ limit: PAGE });
      await vscode.commands.executeCommand('setContext', 'agentMemory.empty', page.items.length === 0);
      const nodes: MemoryNode[] = page.items.map((m) => ({ kind: 'memory', ...m }));
      return page.nextCursor ? [...nodes, { kind: 'more' }] : nodes;
    } catch (err) {
      this.log.error(err as Error);
      void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
      return [];
    }
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('More memories: use Search Memories'));
      item.command = { command: 'agentMemory.search', title: vscode.l10n.t('Search Memories') };
      return item;
    }
    const item = new vscode.TreeItem(node.description);
    item.id = node.id;
    item.description = node.tags.join(', ');
    item.iconPath = new vscode.ThemeIcon('note');
    item.contextValue = 'memory';
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [memoryUri(node.id)] };
    return item;
  }

  async resolveTreeItem(item: vscode.TreeItem, node: MemoryNode): Promise<vscode.TreeItem> {
    if (node.kind !== 'memory') return item;
    try {
      const m = await (await this.getService()).read({ id: node.id });
      const preview = m.content.length > 400 ? `${m.content.slice(0, 400)}…` : m.content;
      item.tooltip = new vscode.MarkdownString(
        `**${vscode.l10n.t('version {0}', m.version)}** · ${m.changedAt} · ${m.author}\n\n` +
          `${m.tags.map((t) => `\`${t}\``).join(' ')}\n\n---\n\n`,
      ).appendText(preview);
    } catch (err) {
      item.tooltip = (err as Error).message;
    }
    return item;
  }
}

/** Registers the view and refreshes it when the store's journal changes. */
export function registerMemoriesView(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  storeDir: () => string | undefined,
  log: vscode.LogOutputChannel,
): MemoriesTreeProvider {
  const provider = new MemoriesTreeProvider(getService, log);
  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => provider.refresh(), 150);
  };
  const dir = storeDir();
  if (dir) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), 'journal.jsonl'));
    context.subscriptions.push(watcher, watcher.onDidChange(soon), watcher.onDidCreate(soon), watcher.onDidDelete(soon));
  }
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('agentMemory.memories', provider),
    vscode.commands.registerCommand('agentMemory.refresh', () => provider.refresh()),
    { dispose: () => clearTimeout(timer) },
  );
  return provider;
}
