import * as vscode from 'vscode';
import { md } from '../shared/markdownText';
import { whenLine } from '../shared/times';
import type { Playbook } from '../../core/playbook/playbook';
import type { ProposalView } from '../../core/playbook/proposalService';

/** How many pending proposals the view lists (oldest decisions wait longest, but a queue this long needs a person anyway). */
const LOAD = 500;

export type ProposalNode = { kind: 'proposal'; proposal: ProposalView };

const ICONS: Record<ProposalView['target'], string> = { fact: 'symbol-field', skill: 'checklist', memory: 'note' };

/**
 * The Pending view: proposals that wait for a person (facts and skills agents proposed, skill
 * drafts promoted from episodes, memory writes when reviewWrites is `queue`), with a badge of
 * how many. Each opens a preview of what approving writes; approve and reject are its actions.
 */
export class PendingTreeProvider implements vscode.TreeDataProvider<ProposalNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<ProposalNode> | undefined;

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Reloads the list (when shown) and the badge (always: it shows on the activity bar while the view is closed). */
  refresh(): void {
    this.changed.fire();
    // A hidden view is not asked for its children; the badge still has to follow.
    if (!this.view?.visible) void this.load().catch(() => undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(element?: ProposalNode): Promise<ProposalNode[]> {
    if (element) return [];
    try {
      const items = await this.load();
      if (this.view) this.view.message = undefined;
      return items.map((proposal) => ({ kind: 'proposal', proposal }));
    } catch (err) {
      this.log.error(err as Error);
      if (this.view) this.view.message = vscode.l10n.t('The pending proposals could not be read: {0}', (err as Error).message);
      return [];
    }
  }

  /** Pending proposals, oldest first (the queue's order), and the badge and context key that follow from them. */
  private async load(): Promise<ProposalView[]> {
    const page = await (await this.getPlaybook()).proposals.list({ state: 'pending', limit: LOAD });
    const items = [...page.items].reverse();
    const count = page.nextCursor ? LOAD : items.length;
    if (this.view) {
      this.view.badge = count ? { value: count, tooltip: vscode.l10n.t('{0} proposals wait for review', count) } : undefined;
    }
    await vscode.commands.executeCommand('setContext', 'agentMemory.pending.empty', items.length === 0);
    return items;
  }

  getTreeItem(node: ProposalNode): vscode.TreeItem {
    const p = node.proposal;
    const item = new vscode.TreeItem(p.summary);
    item.id = p.id;
    item.description = `${p.action === 'edit' ? vscode.l10n.t('{0} edit', p.target) : p.target} · ${p.proposedBy}`;
    const flagged = p.validation.warnings.length > 0 || p.validation.duplicates.length > 0;
    item.iconPath = new vscode.ThemeIcon(ICONS[p.target], flagged ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = `proposal.${p.target}.${p.action}`;
    item.command = { command: 'agentMemory.openProposal', title: vscode.l10n.t('Open Preview'), arguments: [node] };
    const tip = new vscode.MarkdownString();
    tip
      .appendMarkdown(md(p.summary))
      .appendMarkdown('\n\n')
      .appendMarkdown(md(vscode.l10n.t('Proposed by {0}, {1}', p.proposedBy, whenLine(p.proposedAt))))
      .appendMarkdown(`  \n\`${p.proposedAt}\``);
    if (p.validation.duplicates.length) {
      tip.appendMarkdown(`\n\n**${vscode.l10n.t('Near-duplicates')}:**\n`);
      for (const d of p.validation.duplicates) tip.appendMarkdown('\n- ').appendMarkdown(md(`${d.kind} ${d.label} (${d.similarity})`));
    }
    if (p.validation.warnings.length) {
      tip.appendMarkdown(`\n\n**${vscode.l10n.t('Warnings')}:**\n`);
      for (const w of p.validation.warnings) tip.appendMarkdown('\n- ').appendMarkdown(md(w));
    }
    item.tooltip = tip;
    return item;
  }
}

/** Registers the view; it refreshes (and its badge follows) whenever the store changes. */
export function registerPendingView(
  context: vscode.ExtensionContext,
  getPlaybook: () => Promise<Playbook>,
  onStoreChange: vscode.Event<void>,
  log: vscode.LogOutputChannel,
): PendingTreeProvider {
  const provider = new PendingTreeProvider(getPlaybook, log);
  const view = vscode.window.createTreeView('agentMemory.pending', { treeDataProvider: provider });
  provider.view = view;
  context.subscriptions.push(
    provider,
    view,
    onStoreChange(() => provider.refresh()),
  );
  return provider;
}
