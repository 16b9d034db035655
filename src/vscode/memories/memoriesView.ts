import * as vscode from 'vscode';
import { md } from '../shared/markdownText';
import type { MemoryService } from '../../core/memoryService';
import type { MemoryUpkeep } from '../../core/memoryUpkeep';
import { memoryUri } from './memoryUris';
import type { StoreChanges } from '../session/storeChanges';
import { type Group, type GroupBy, groupByRecency, groupByTag, OTHER_TAGS_KEY, type ViewMemory } from './memoryGrouping';
import { when } from '../shared/times';
import { searchAsTyped } from './memorySearch';

/** How many memories the view loads; the rest are reached through the search (and its filter). */
const LOAD = 500;
const GROUP_BY_KEY = 'agentMemory.groupBy';

/** How many memories the view reads at once to learn their versions. */
const READ_AT_ONCE = 16;

/**
 * A node of the view: a group, a memory (under a group or, when filtered, at the top), or the
 * "more" hint. A memory's `version` is known once read (undefined if the read failed).
 */
export type MemoryNode =
  ({ kind: 'memory'; parent?: string; version?: number } & ViewMemory) | { kind: 'group'; group: Group } | { kind: 'more' };

/**
 * The context value of a memory item: `memory.v1` for one with no earlier version (menus do not
 * offer Compare with Previous Version on it), else `memory`. Menus match both with /^memory(\.v1)?$/.
 */
export function memoryContextValue(version: number | undefined): string {
  return version === 1 ? 'memory.v1' : 'memory';
}

/**
 * The Memories view: current memories grouped by time range (newest change first) or by
 * tag, or, while a filter is set, the ranked results of the same search the agents use.
 * It only reads from the service and refreshes when the store changes, whoever wrote it.
 * The tooltip (author, version, content preview) is read only when a person hovers.
 */
export class MemoriesTreeProvider implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private filterText: string | undefined;
  private staleOnly = false;
  /** Set once the view exists: where the filter and "no results" are shown. */
  view: vscode.TreeView<MemoryNode> | undefined;
  /**
   * Each memory's version as last read, with the time of that version: a memory whose time
   * did not change kept its version, so a refresh reads only the memories that changed.
   */
  private readonly versions = new Map<string, { changedAt: string; version: number }>();

  constructor(
    private readonly getService: () => Promise<MemoryService>,
    private readonly getUpkeep: () => Promise<MemoryUpkeep>,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: vscode.Memento,
  ) {
    void this.updateContext();
  }

  get groupBy(): GroupBy {
    return this.state.get<GroupBy>(GROUP_BY_KEY) === 'tag' ? 'tag' : 'recency';
  }

  get filter(): string | undefined {
    return this.filterText;
  }

  async setGroupBy(groupBy: GroupBy): Promise<void> {
    await this.state.update(GROUP_BY_KEY, groupBy);
    await this.updateContext();
    this.refresh();
  }

  get showingStale(): boolean {
    return this.staleOnly;
  }

  /** Shows the ranked search results for `text`; empty or undefined clears the filter (and the stale-only list). */
  async setFilter(text: string | undefined): Promise<void> {
    this.filterText = text?.trim() || undefined;
    this.staleOnly = false;
    await this.updateContext();
    this.refresh();
  }

  /** Shows only the memories whose cited code has changed (a filter: Clear Filter goes back to all). */
  async showStale(): Promise<void> {
    this.filterText = undefined;
    this.staleOnly = true;
    await this.updateContext();
    this.refresh();
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(element?: MemoryNode): Promise<MemoryNode[]> {
    if (element?.kind === 'group')
      return this.withVersions(element.group.memories.map((m) => ({ kind: 'memory', parent: element.group.key, ...m })));
    if (element) return [];
    try {
      const service = await this.getService();
      if (this.staleOnly) return await this.withVersions(await this.stale(await this.getUpkeep()));
      if (this.filterText) return await this.withVersions(await this.filtered(service, this.filterText));
      const page = await service.list({ limit: LOAD });
      this.setMessage(undefined);
      await vscode.commands.executeCommand('setContext', 'agentMemory.empty', page.items.length === 0);
      const groups =
        this.groupBy === 'tag'
          ? groupByTag(page.items, vscode.l10n.t('Other tags'))
          : groupByRecency(page.items, new Date(), RECENCY_LABELS());
      const nodes: MemoryNode[] = groups.map((group) => ({ kind: 'group', group }));
      return page.nextCursor ? [...nodes, { kind: 'more' }] : nodes;
    } catch (err) {
      this.log.error(err as Error);
      this.setMessage(vscode.l10n.t('The memory store could not be read: {0}', (err as Error).message));
      return [];
    }
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('Only the {0} most recent memories are listed: search to find others', LOAD));
      item.iconPath = new vscode.ThemeIcon('info');
      item.command = { command: 'agentMemory.search', title: vscode.l10n.t('Search Memories') };
      return item;
    }
    if (node.kind === 'group') {
      const expanded = node.group.key.startsWith('recency:')
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed;
      const item = new vscode.TreeItem(node.group.label, expanded);
      item.id = node.group.key;
      item.description = String(node.group.memories.length);
      const other = node.group.key === OTHER_TAGS_KEY;
      item.iconPath = new vscode.ThemeIcon(other ? 'ellipsis' : node.group.key.startsWith('tag:') ? 'tag' : 'calendar');
      if (other) item.tooltip = vscode.l10n.t('Memories whose tags are each used by too few memories to have a group of their own');
      item.contextValue = 'group';
      return item;
    }
    const item = new vscode.TreeItem(node.description);
    item.id = node.parent ? `${node.parent}/${node.id}` : node.id;
    const stale = node.freshness === 'stale';
    item.description = stale ? `${vscode.l10n.t('stale')} · ${node.tags.join(', ')}` : node.tags.join(', ');
    item.iconPath = stale ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('note');
    item.contextValue = memoryContextValue(node.version);
    const uri = memoryUri(node.id, undefined, node.description);
    item.resourceUri = uri;
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
    return item;
  }

  async resolveTreeItem(item: vscode.TreeItem, node: MemoryNode): Promise<vscode.TreeItem> {
    if (node.kind !== 'memory') return item;
    try {
      const m = await (await this.getService()).read({ id: node.id });
      const preview = m.content.length > 400 ? `${m.content.slice(0, 400)}…` : m.content;
      const changed = (m.citations ?? []).filter((c) => c.status !== 'fresh' && c.status !== 'moved');
      const t = when(m.changedAt);
      // The whole description first: the label is cut to the view's width.
      const tooltip = new vscode.MarkdownString(
        `**${md(m.description)}**\n\n${m.tags.map((tag) => `\`${tag}\``).join(' ')}\n\n` +
          `${md(vscode.l10n.t('Version {0}, {1} ({2}) by {3}', m.version, t.local, t.relative, m.author))}  \n\`${t.iso}\`\n\n`,
      );
      if (changed.length) {
        tooltip.appendMarkdown(`$(warning) **${vscode.l10n.t('Stale: the code it cites has changed')}**\n\n`);
        for (const c of changed) tooltip.appendMarkdown(`${md(c.detail)}\n\n`);
      }
      tooltip.supportThemeIcons = true;
      item.tooltip = tooltip.appendMarkdown('---\n\n').appendMarkdown(md(preview).replace(/\n/g, '  \n'));
    } catch (err) {
      item.tooltip = (err as Error).message;
    }
    return item;
  }

  /** The nodes with their versions (see `versions`), read a few at a time. */
  private async withVersions(nodes: MemoryNode[]): Promise<MemoryNode[]> {
    const service = await this.getService().catch(() => undefined);
    if (!service) return nodes;
    const out: MemoryNode[] = [];
    for (let i = 0; i < nodes.length; i += READ_AT_ONCE) {
      out.push(
        ...(await Promise.all(
          nodes.slice(i, i + READ_AT_ONCE).map(async (node): Promise<MemoryNode> => {
            if (node.kind !== 'memory') return node;
            const known = this.versions.get(node.id);
            if (known && node.changedAt && known.changedAt === node.changedAt) return { ...node, version: known.version };
            // A memory that cannot be read now still shows, with the menus of one that has versions.
            const m = await service.read({ id: node.id }).catch(() => undefined);
            if (m) this.versions.set(node.id, { changedAt: m.changedAt, version: m.version });
            return { ...node, version: m?.version };
          }),
        )),
      );
    }
    return out;
  }

  private async filtered(service: MemoryService, text: string): Promise<MemoryNode[]> {
    // What the search picker listed for the same text (searchAsTyped), so keeping it as a filter shows the same memories.
    const hits = await searchAsTyped(service, text);
    this.setMessage(
      hits.length === 0
        ? vscode.l10n.t('No memories match "{0}".', text)
        : vscode.l10n.t('{0} best matches for "{1}", most relevant first.', hits.length, text),
    );
    // Search hits carry no date; the tooltip reads the memory when hovered.
    return hits.map((h) => ({ kind: 'memory', ...h, changedAt: '' }));
  }

  private async stale(upkeep: MemoryUpkeep): Promise<MemoryNode[]> {
    const check = await upkeep.check();
    this.setMessage(
      !check.workspace
        ? vscode.l10n.t('Open a folder to check the code memories cite.')
        : check.stale.length === 0
          ? vscode.l10n.t('No stale memories: the code that {0} memories cite is as they describe it.', check.checked)
          : vscode.l10n.t(
              '{0} of {1} memories that cite code are stale: the code changed since they were written.',
              check.stale.length,
              check.checked,
            ),
    );
    return check.stale.map((m) => ({
      kind: 'memory',
      id: m.id,
      description: m.description,
      tags: m.tags,
      changedAt: '',
      freshness: 'stale',
    }));
  }

  private setMessage(message: string | undefined): void {
    if (this.view) this.view.message = message;
  }

  private async updateContext(): Promise<void> {
    if (this.view)
      this.view.description = this.staleOnly
        ? vscode.l10n.t('stale only')
        : this.filterText
          ? vscode.l10n.t('filter: {0}', this.filterText)
          : undefined;
    await vscode.commands.executeCommand('setContext', 'agentMemory.filtered', this.filterText !== undefined || this.staleOnly);
    await vscode.commands.executeCommand('setContext', 'agentMemory.groupBy', this.groupBy);
  }
}

const RECENCY_LABELS = () => ({
  today: vscode.l10n.t('Today'),
  yesterday: vscode.l10n.t('Yesterday'),
  week: vscode.l10n.t('Past 7 days'),
  month: vscode.l10n.t('Past 30 days'),
  older: vscode.l10n.t('Older'),
});

/** Registers the view; it refreshes whenever the store changes. */
export function registerMemoriesView(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  getUpkeep: () => Promise<MemoryUpkeep>,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
  /** Run by the Refresh button first (to retry a store that failed to open). */
  beforeRefresh: () => void = () => undefined,
): MemoriesTreeProvider {
  const provider = new MemoriesTreeProvider(getService, getUpkeep, log, context.workspaceState);
  const view = vscode.window.createTreeView('agentMemory.memories', { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  context.subscriptions.push(
    provider,
    view,
    changes.onDidChange(() => provider.refresh()),
    vscode.commands.registerCommand('agentMemory.refresh', () => {
      beforeRefresh();
      provider.refresh();
    }),
  );
  return provider;
}
