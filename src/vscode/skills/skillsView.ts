import * as vscode from 'vscode';
import { md } from '../shared/markdownText';
import { when } from '../shared/times';
import type { Playbook } from '../../core/playbook/playbook';
import type { OutcomeCounts } from '../../core/playbook/skillOutcomes';
import type { SkillSummary } from '../../core/playbook/skillService';
import { skillUri } from './skillUris';

/** How many skills the view lists: a team's playbook, not a corpus. */
const LOAD = 500;

/** A skill as the view shows it: its current version and how the episodes of the last 30 days that followed it ended. */
export type SkillNode = { kind: 'skill'; last30Days: OutcomeCounts | undefined } & SkillSummary;

/** "80% of 5 in 30 days", or that no episode followed this version lately. */
function rateText(w: OutcomeCounts | undefined): string {
  if (!w) return vscode.l10n.t('success rate unknown');
  if (w.total === 0) return vscode.l10n.t('no runs in 30 days');
  return vscode.l10n.t('{0}% of {1} in 30 days', Math.round((w.rate ?? 0) * 100), w.total);
}

/**
 * The Skills view: each live skill with its version and the success rate of that version over
 * the last 30 days (episodes that named it). Clicking opens the skill as a YAML document.
 */
export class SkillsTreeProvider implements vscode.TreeDataProvider<SkillNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<SkillNode> | undefined;

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(element?: SkillNode): Promise<SkillNode[]> {
    if (element) return [];
    try {
      const skills = (await this.getPlaybook()).skills;
      const page = await skills.list({ limit: LOAD });
      const nodes = await Promise.all(
        page.items.map(async (s): Promise<SkillNode> => {
          // One skill's figures failing (say, deleted meanwhile) must not empty the view.
          const outcomes = await skills.outcomes(s.name, s.version).catch((err: Error) => {
            this.log.warn(`outcomes of skill ${s.name}: ${err.message}`);
            return undefined;
          });
          return { kind: 'skill', ...s, last30Days: outcomes?.last30Days };
        }),
      );
      nodes.sort((a, b) => a.name.localeCompare(b.name));
      if (this.view) this.view.message = page.nextCursor ? vscode.l10n.t('Only {0} skills are listed.', LOAD) : undefined;
      await vscode.commands.executeCommand('setContext', 'agentMemory.skills.empty', nodes.length === 0);
      return nodes;
    } catch (err) {
      this.log.error(err as Error);
      if (this.view) this.view.message = vscode.l10n.t('The skills could not be read: {0}', (err as Error).message);
      return [];
    }
  }

  getTreeItem(node: SkillNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.name);
    item.id = node.id;
    item.description = `v${node.version} · ${rateText(node.last30Days)}`;
    item.iconPath = new vscode.ThemeIcon('checklist');
    item.contextValue = 'skill';
    item.resourceUri = skillUri(node.name);
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [skillUri(node.name)] };
    const tip = new vscode.MarkdownString();
    const t = when(node.changedAt);
    tip.appendMarkdown(`**${node.name}**\n\n`).appendMarkdown(md(node.description));
    tip
      .appendMarkdown('\n\n')
      .appendMarkdown(md(vscode.l10n.t('Version {0}, {1} ({2}) by {3}', node.version, t.local, t.relative, node.author)))
      .appendMarkdown(`  \n\`${t.iso}\``);
    tip
      .appendMarkdown(`\n\n${vscode.l10n.t('Episodes that followed version {0} in the last 30 days', node.version)}: `)
      .appendMarkdown(md(rateText(node.last30Days)));
    item.tooltip = tip;
    return item;
  }
}

/** Registers the view; it refreshes whenever the store changes. */
export function registerSkillsView(
  context: vscode.ExtensionContext,
  getPlaybook: () => Promise<Playbook>,
  onStoreChange: vscode.Event<void>,
  log: vscode.LogOutputChannel,
): SkillsTreeProvider {
  const provider = new SkillsTreeProvider(getPlaybook, log);
  const view = vscode.window.createTreeView('agentMemory.skills', { treeDataProvider: provider });
  provider.view = view;
  context.subscriptions.push(
    provider,
    view,
    onStoreChange(() => provider.refresh()),
  );
  return provider;
}
