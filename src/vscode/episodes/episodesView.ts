import * as vscode from 'vscode';
import { md } from '../shared/markdownText';
import { when } from '../shared/times';
import { EPISODE_LIMITS } from '../../core/contract/episodes';
import type { Outcome } from '../../core/playbook/kinds';
import type { Playbook } from '../../core/playbook/playbook';
import type { EpisodeSummary } from '../../core/playbook/episodeService';
import { viewDocUri } from '../documents/readOnlyDocs';

/** How many episodes the view lists, newest first (a listing's most); older ones are reached by filtering, the find tool or the CLI. */
const LOAD = EPISODE_LIMITS.listMax;
const FILTERED_KEY = 'agentMemory.episodes.filtered';

/** What the view is narrowed to (none: every live episode). */
export interface EpisodeFilter {
  outcome?: Outcome;
  skill?: string;
}

export type EpisodeNode = { kind: 'episode'; episode: EpisodeSummary } | { kind: 'more' };

const ICONS: Record<Outcome, vscode.ThemeIcon> = {
  success: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failure: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  partial: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
};

/** `agent-memory-view:/episode/<id>/<task>.md`: the read-only document of one episode. */
export const episodeDocUri = (id: string, task: string) => viewDocUri('episode', id, task);

/**
 * The Episodes view: what agents recorded, newest first, the outcome as the icon, narrowed by
 * outcome and skill from the title bar. Clicking opens the whole episode as a read-only
 * document. It only reads, and refreshes when the store changes.
 */
export class EpisodesTreeProvider implements vscode.TreeDataProvider<EpisodeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<EpisodeNode> | undefined;
  private current: EpisodeFilter = {};

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get filter(): EpisodeFilter {
    return { ...this.current };
  }

  /** Narrows the view (an empty filter clears it). */
  async setFilter(filter: EpisodeFilter): Promise<void> {
    this.current = { ...(filter.outcome ? { outcome: filter.outcome } : {}), ...(filter.skill ? { skill: filter.skill } : {}) };
    const on = this.current.outcome !== undefined || this.current.skill !== undefined;
    await vscode.commands.executeCommand('setContext', FILTERED_KEY, on);
    if (this.view) this.view.description = on ? filterText(this.current) : undefined;
    this.refresh();
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(element?: EpisodeNode): Promise<EpisodeNode[]> {
    if (element) return [];
    try {
      const page = await (await this.getPlaybook()).episodes.list({ ...this.current, limit: LOAD });
      const filtered = this.current.outcome !== undefined || this.current.skill !== undefined;
      if (this.view) this.view.message = filtered && page.items.length === 0 ? vscode.l10n.t('No episode matches the filter.') : undefined;
      await vscode.commands.executeCommand('setContext', 'agentMemory.episodes.empty', !filtered && page.items.length === 0);
      const nodes: EpisodeNode[] = page.items.map((episode) => ({ kind: 'episode', episode }));
      return page.nextCursor ? [...nodes, { kind: 'more' }] : nodes;
    } catch (err) {
      this.log.error(err as Error);
      if (this.view) this.view.message = vscode.l10n.t('The episodes could not be read: {0}', (err as Error).message);
      return [];
    }
  }

  getTreeItem(node: EpisodeNode): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('Only the {0} newest episodes are listed: filter to find others', LOAD));
      item.iconPath = new vscode.ThemeIcon('info');
      item.command = { command: 'agentMemory.filterEpisodes', title: vscode.l10n.t('Filter Episodes…') };
      return item;
    }
    const e = node.episode;
    const item = new vscode.TreeItem(e.task);
    item.id = e.id;
    const t = when(e.timestamp);
    item.description = [t.relative, ...(e.skill ? [`${e.skill.name} v${e.skill.version}`] : [])].join(' · ');
    item.iconPath = ICONS[e.outcome];
    item.contextValue = `episode.${e.outcome}`;
    // Rendered: the document is Markdown, and its escapes would show as text.
    item.command = { command: 'markdown.showPreview', title: vscode.l10n.t('Open'), arguments: [episodeDocUri(e.id, e.task)] };
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**${md(e.task)}**\n\n`);
    tip.appendMarkdown(`**${e.outcome}** · ${t.local} (${t.relative}) · `).appendMarkdown(md(e.executor));
    tip.appendMarkdown(`  \n\`${t.iso}\``);
    if (e.skill) tip.appendMarkdown(`\n\n${vscode.l10n.t('Skill followed')}: `).appendMarkdown(md(`${e.skill.name} v${e.skill.version}`));
    if (e.tags.length) tip.appendMarkdown(`\n\n${vscode.l10n.t('Tags')}: `).appendMarkdown(md(e.tags.join(', ')));
    item.tooltip = tip;
    item.accessibilityInformation = { label: `${e.task}, ${e.outcome}, ${t.local}` };
    return item;
  }
}

/** "failure · skill fix-flaky-test", for the view's description. */
function filterText(f: EpisodeFilter): string {
  return [...(f.outcome ? [f.outcome] : []), ...(f.skill ? [vscode.l10n.t('skill {0}', f.skill)] : [])].join(' · ');
}

/** Registers the view; it refreshes whenever the store changes. */
export function registerEpisodesView(
  context: vscode.ExtensionContext,
  getPlaybook: () => Promise<Playbook>,
  onStoreChange: vscode.Event<void>,
  log: vscode.LogOutputChannel,
): EpisodesTreeProvider {
  const provider = new EpisodesTreeProvider(getPlaybook, log);
  const view = vscode.window.createTreeView('agentMemory.episodes', { treeDataProvider: provider });
  provider.view = view;
  void vscode.commands.executeCommand('setContext', FILTERED_KEY, false);
  context.subscriptions.push(
    provider,
    view,
    onStoreChange(() => provider.refresh()),
  );
  return provider;
}
