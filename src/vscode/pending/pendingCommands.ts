import * as vscode from 'vscode';
import { formatMemoryDocument } from '../../core/memoryDocument';
import { memoryUri } from '../memories/memoryUris';
import type { StoreChanges } from '../session/storeChanges';
import { reportingCommand } from '../memories/target';
import type { PlaybookAccess } from '../session/windowServices';
import type { ProposalNode } from './pendingView';
import { proposalMarkdown } from './proposalMarkdown';
import { type ReadOnlyDocs, showMarkdown, viewDocUri } from '../documents/readOnlyDocs';

/** The proposal a command is about: a Pending view item, or `{ id }`. */
function proposalId(arg: unknown): string | undefined {
  if (arg && typeof arg === 'object') {
    if ((arg as ProposalNode).kind === 'proposal') return (arg as ProposalNode).proposal.id;
    if (typeof (arg as { id?: unknown }).id === 'string') return (arg as { id: string }).id;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Run this on a proposal in the Pending view.'));
  return undefined;
}

/** What approving wrote and where it is now. */
function approvedMessage(target: 'fact' | 'skill' | 'memory', summary: string): string {
  if (target === 'fact') return vscode.l10n.t('Approved and saved to Facts: {0}', summary);
  if (target === 'skill') return vscode.l10n.t('Approved and saved to Skills: {0}', summary);
  return vscode.l10n.t('Approved and saved to Memories: {0}', summary);
}

/**
 * The commands of the Pending view. Decisions are made by the configured author (the policy
 * may name who may approve a layer: anyone else is refused with the domain's message), and are
 * final; the proposal's history records who decided, when, and why for a rejection.
 */
export function registerPendingCommands(
  context: vscode.ExtensionContext,
  access: PlaybookAccess,
  docs: ReadOnlyDocs,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);
  const playbook = () => access.getPlaybook();

  docs.register('proposal', async (id) => {
    const l = await playbook();
    const p = await l.proposals.get(id);
    const current =
      p.target === 'memory' && p.action === 'edit' && p.targetId
        ? await l.memories.read({ id: p.targetId }).catch(() => undefined)
        : undefined;
    return proposalMarkdown(p, current);
  });
  // The memory as an edit proposal would leave it, for a diff against the version it was proposed on.
  docs.register('proposal-memory', async (id) => {
    const l = await playbook();
    const p = await l.proposals.get(id);
    const d = p.payload as { description?: string; tags?: string[]; content?: string; expectedVersion?: number };
    const cur = await l.memories.read({ id: p.targetId!, ...(d.expectedVersion ? { version: d.expectedVersion } : {}) });
    return formatMemoryDocument(
      { description: d.description ?? cur.description, tags: d.tags ?? cur.tags, content: d.content ?? cur.content },
      [vscode.l10n.t('As proposal {0} would save it (proposed by {1})', p.id, p.proposedBy)],
    );
  });

  /** The preview of a proposal, its tab named after what it proposes. */
  const proposalDocUri = async (id: string) => viewDocUri('proposal', id, (await (await playbook()).proposals.get(id)).summary);

  context.subscriptions.push(
    command('agentMemory.openProposal', async (arg) => {
      const id = proposalId(arg);
      if (id) await showMarkdown(await proposalDocUri(id));
    }),

    command('agentMemory.compareProposal', async (arg) => {
      const id = proposalId(arg);
      if (!id) return;
      const p = await (await playbook()).proposals.get(id);
      if (p.target !== 'memory' || p.action !== 'edit' || !p.targetId) {
        await showMarkdown(await proposalDocUri(id));
        return;
      }
      const version = (p.payload as { expectedVersion?: number }).expectedVersion;
      const title = vscode.l10n.t('{0} (version {1} ↔ proposed)', p.summary, version ?? '?');
      const memory = await (await playbook()).memories.read({ id: p.targetId }).catch(() => undefined);
      await vscode.commands.executeCommand(
        'vscode.diff',
        memoryUri(p.targetId, version, memory?.description),
        viewDocUri('proposal-memory', id),
        title,
      );
    }),

    command('agentMemory.approveProposal', async (arg) => {
      const id = proposalId(arg);
      if (!id) return;
      const l = await playbook();
      const r = await l.proposals.approve({ id, by: await access.getAuthor() });
      changes.fireSoon(0);
      const p = await l.proposals.get(id);
      // Approving a contradicting fact opens a dispute: say so, since the person has one more decision to make.
      const fact = p.target === 'fact' && r.resultId ? await l.facts.show({ id: r.resultId }) : undefined;
      if (fact?.status === 'disputed') {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Approved. The fact contradicts {0} other fact(s): all are marked disputed; resolve the dispute in the Facts view.',
            fact.disputedWith.length,
          ),
        );
      } else {
        // A notification, not a status bar flash: the item leaves the view, and the person should see where it went.
        const show = vscode.l10n.t('Show');
        void vscode.window.showInformationMessage(approvedMessage(p.target, p.summary), show).then(async (answer) => {
          if (answer !== show) return;
          if (p.target === 'memory' && r.resultId)
            await vscode.window.showTextDocument(
              memoryUri(r.resultId, undefined, (await l.memories.read({ id: r.resultId })).description),
              {
                preview: true,
              },
            );
          else await vscode.commands.executeCommand(p.target === 'fact' ? 'agentMemory.facts.focus' : 'agentMemory.skills.focus');
        });
      }
    }),

    command('agentMemory.rejectProposal', async (arg) => {
      const id = proposalId(arg);
      if (!id) return;
      const p = await (await playbook()).proposals.get(id);
      const reason = await vscode.window.showInputBox({
        title: vscode.l10n.t('Reject: {0}', p.summary),
        prompt: vscode.l10n.t("Why it is rejected (kept in the proposal's history, for the proposer and the audit)"),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is required')),
      });
      if (reason === undefined) return;
      await (await playbook()).proposals.reject({ id, by: await access.getAuthor(), reason });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Rejected: {0}', p.summary), 4000);
    }),
  );
}
