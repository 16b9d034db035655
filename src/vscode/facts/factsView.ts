import * as vscode from 'vscode';
import { md } from '../shared/markdownText';
import { whenLine } from '../shared/times';
import { factView } from '../../core/playbook/factRules';
import type { Playbook } from '../../core/playbook/playbook';
import { readAll } from '../../core/playbook/recordRows';
import { groupFacts, type SubjectGroup, stateOf, type ViewFact } from './factGrouping';

/** How many facts the view loads (highest confidence first); the rest are reached with the fact tools or the CLI. */
const LOAD = 2000;
const SHOW_INACTIVE_KEY = 'agentMemory.facts.showInactive';

export type FactNode = { kind: 'subject'; group: SubjectGroup } | { kind: 'fact'; fact: ViewFact } | { kind: 'more' };

const ICONS: Record<ViewFact['state'], vscode.ThemeIcon> = {
  active: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  disputed: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  retracted: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground')),
  expired: new vscode.ThemeIcon('history', new vscode.ThemeColor('disabledForeground')),
};

/**
 * The Facts view: facts grouped by subject, disputed subjects first, each fact as
 * "predicate → object" with its status as the icon. Retracted and expired facts are hidden
 * unless the toolbar's toggle shows them. It only reads, and refreshes when the store changes.
 */
export class FactsTreeProvider implements vscode.TreeDataProvider<FactNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<FactNode> | undefined;

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: vscode.Memento,
  ) {
    void vscode.commands.executeCommand('setContext', SHOW_INACTIVE_KEY, this.showInactive);
  }

  get showInactive(): boolean {
    return this.state.get<boolean>(SHOW_INACTIVE_KEY) === true;
  }

  async setShowInactive(show: boolean): Promise<void> {
    await this.state.update(SHOW_INACTIVE_KEY, show);
    await vscode.commands.executeCommand('setContext', SHOW_INACTIVE_KEY, show);
    this.refresh();
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async getChildren(element?: FactNode): Promise<FactNode[]> {
    if (element?.kind === 'subject') return element.group.facts.map((fact) => ({ kind: 'fact', fact }));
    if (element) return [];
    try {
      const playbook = await this.getPlaybook();
      // The fact service answers queries by subject, predicate or object; a listing of all facts is the record store's.
      const rows = await readAll(
        playbook.store.records,
        { kind: 'fact', ...(this.showInactive ? {} : { status: ['active', 'disputed'] }) },
        LOAD + 1,
      );
      const now = new Date().toISOString();
      const facts = rows.slice(0, LOAD).map((r) => {
        const f = factView(r);
        return { ...f, state: stateOf(f, now) };
      });
      const groups = groupFacts(facts, this.showInactive);
      this.setMessage(undefined);
      await vscode.commands.executeCommand('setContext', 'agentMemory.facts.empty', groups.length === 0);
      const nodes: FactNode[] = groups.map((group) => ({ kind: 'subject', group }));
      return rows.length > LOAD ? [...nodes, { kind: 'more' }] : nodes;
    } catch (err) {
      this.log.error(err as Error);
      this.setMessage(vscode.l10n.t('The facts could not be read: {0}', (err as Error).message));
      return [];
    }
  }

  getTreeItem(node: FactNode): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(vscode.l10n.t('Only the {0} facts of highest confidence are listed', LOAD));
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    if (node.kind === 'subject') {
      const g = node.group;
      const item = new vscode.TreeItem(
        g.subject,
        g.disputed ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `subject:${g.subject.toLowerCase()}`;
      item.description = g.disputed ? vscode.l10n.t('{0} · disputed', g.facts.length) : String(g.facts.length);
      item.iconPath = g.disputed ? ICONS.disputed : new vscode.ThemeIcon('symbol-class');
      item.contextValue = 'factSubject';
      return item;
    }
    const f = node.fact;
    const item = new vscode.TreeItem(`${f.predicate} → ${f.object}`);
    item.id = f.id;
    const verified = f.verification.state === 'verified';
    item.description = [
      f.confidence === null ? vscode.l10n.t('no confidence') : String(f.confidence),
      ...(verified ? [vscode.l10n.t('verified')] : []),
      ...(f.state === 'active' ? [] : [f.state]),
    ].join(' · ');
    item.iconPath = ICONS[f.state];
    item.contextValue = `fact.${f.state}${verified ? '.verified' : ''}`;
    item.tooltip = factTooltip(f);
    // A click shows what the fact said over time, and its evidence (the tooltip holds only the current version).
    item.command = { command: 'agentMemory.showFactHistory', title: vscode.l10n.t('Show Fact History'), arguments: [node] };
    item.accessibilityInformation = { label: `${f.subject} ${f.predicate} ${f.object}, ${f.state}` };
    return item;
  }

  private setMessage(message: string | undefined): void {
    if (this.view) this.view.message = message;
  }
}

/** Evidence and standing of a fact, for its tooltip. */
function factTooltip(f: ViewFact): vscode.MarkdownString {
  const tip = new vscode.MarkdownString();
  tip.appendMarkdown(`**${vscode.l10n.t('Status')}:** ${f.state} · ${vscode.l10n.t('version {0}', f.version)}\n\n`);
  const line = (label: string, value: string) => tip.appendMarkdown(`**${label}:** `).appendMarkdown(md(value)).appendMarkdown('  \n');
  line(vscode.l10n.t('Fact'), `${f.subject} ${f.predicate} ${f.object}`);
  line(vscode.l10n.t('Source'), f.source ?? '—');
  line(vscode.l10n.t('Confidence'), f.confidence === null ? '—' : String(f.confidence));
  line(vscode.l10n.t('Observed at'), whenLine(f.observedAt));
  line(vscode.l10n.t('Valid until'), f.validUntil ? whenLine(f.validUntil) : '—');
  line(vscode.l10n.t('Asserted by'), f.assertedBy);
  line(
    vscode.l10n.t('Verification'),
    f.verification.state === 'verified'
      ? vscode.l10n.t('verified by {0} at {1}: {2}', f.verification.by, whenLine(f.verification.at), f.verification.evidence)
      : vscode.l10n.t('unverified'),
  );
  if (f.disputedWith.length) line(vscode.l10n.t('Disputed with'), f.disputedWith.join(', '));
  if (f.retraction)
    line(vscode.l10n.t('Retracted'), vscode.l10n.t('by {0} at {1}: {2}', f.retraction.by, whenLine(f.retraction.at), f.retraction.reason));
  return tip;
}

/** Registers the view; it refreshes whenever the store changes. */
export function registerFactsView(
  context: vscode.ExtensionContext,
  getPlaybook: () => Promise<Playbook>,
  onStoreChange: vscode.Event<void>,
  log: vscode.LogOutputChannel,
): FactsTreeProvider {
  const provider = new FactsTreeProvider(getPlaybook, log, context.workspaceState);
  const view = vscode.window.createTreeView('agentMemory.facts', { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  context.subscriptions.push(
    provider,
    view,
    onStoreChange(() => provider.refresh()),
    vscode.commands.registerCommand('agentMemory.showInactiveFacts', () => provider.setShowInactive(true)),
    vscode.commands.registerCommand('agentMemory.hideInactiveFacts', () => provider.setShowInactive(false)),
  );
  return provider;
}
