import * as vscode from 'vscode';
import type { FactView } from '../../core/playbook/factRules';
import type { StoreChanges } from '../session/storeChanges';
import { reportingCommand } from '../memories/target';
import type { PlaybookAccess } from '../session/windowServices';
import type { FactNode } from './factsView';
import { type ReadOnlyDocs, showMarkdown, viewDocUri } from '../documents/readOnlyDocs';
import { factHistoryMarkdown } from '../lifecycle/reportMarkdown';
import { newFactWizard, required } from './factWizard';

/** The fact a command is about: a Facts view item, or `{ id }` (a test, a link). */
function factId(arg: unknown): string | undefined {
  if (arg && typeof arg === 'object') {
    if ((arg as FactNode).kind === 'fact') return (arg as Extract<FactNode, { kind: 'fact' }>).fact.id;
    if (typeof (arg as { id?: unknown }).id === 'string') return (arg as { id: string }).id;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Run this on a fact in the Facts view.'));
  return undefined;
}

const label = (f: FactView) => `${f.subject} ${f.predicate} ${f.object}`;

/**
 * The commands of the Facts view: a person asserts (directly, not through the queue), verifies,
 * retracts and resolves disputes, and reads a fact's history. Every write goes through the
 * fact service, so the policy, the ontology and the secret check hold as for an agent.
 */
export function registerFactCommands(
  context: vscode.ExtensionContext,
  access: PlaybookAccess,
  docs: ReadOnlyDocs,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);
  const facts = async () => (await access.getPlaybook()).facts;
  const ask = (title: string, prompt: string, validateInput?: (v: string) => string | undefined, value = '') =>
    vscode.window.showInputBox({ title, prompt, value, ignoreFocusOut: true, validateInput });

  docs.register('fact-history', async (id) => factHistoryMarkdown(await (await facts()).history({ id })));

  context.subscriptions.push(
    command('agentMemory.newFact', async () => {
      const playbook = await access.getPlaybook();
      const wanted = await newFactWizard(playbook.ontology());
      if (!wanted) return;
      const { subject, predicate, object, source, confidence } = wanted;
      const r = await (
        await facts()
      ).assert({
        subject,
        predicate,
        object,
        ...(source.trim() ? { source: source.trim() } : {}),
        ...(confidence.trim() ? { confidence: Number(confidence) } : {}),
      });
      changes.fireSoon(0);
      if (r.outcome === 'disputed') {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Saved, and disputed: it contradicts {0}. Both are marked disputed; resolve the dispute in the Facts view.',
            r.disputes
              .filter((d) => d.id !== r.id)
              .map(label)
              .join('; '),
          ),
        );
      } else {
        void vscode.window.setStatusBarMessage(
          r.outcome === 'refreshed'
            ? vscode.l10n.t('The same fact was stored: its evidence is now version {0}', r.version)
            : vscode.l10n.t('Fact saved'),
          4000,
        );
      }
    }),

    command('agentMemory.verifyFact', async (arg) => {
      const id = factId(arg);
      if (!id) return;
      const f = await (await facts()).show({ id });
      const evidence = await ask(
        vscode.l10n.t('Verify "{0}"', label(f)),
        vscode.l10n.t('Evidence you checked: a link or a reference that shows it is true'),
        required(vscode.l10n.t('The evidence')),
      );
      if (evidence === undefined) return;
      // Verified by the person at this window (the configured author), never by a model.
      await (await facts()).verify({ id, evidence, by: await access.getAuthor() });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Fact verified'), 4000);
    }),

    command('agentMemory.retractFact', async (arg) => {
      const id = factId(arg);
      if (!id) return;
      const f = await (await facts()).show({ id });
      const reason = await ask(
        vscode.l10n.t('Retract "{0}"', label(f)),
        vscode.l10n.t('Why it is no longer believed (one line); it stays in its history'),
        required(vscode.l10n.t('The reason')),
      );
      if (reason === undefined) return;
      await (await facts()).retract({ id, reason });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Fact retracted'), 4000);
    }),

    command('agentMemory.resolveDispute', async (arg) => {
      const id = factId(arg);
      if (!id) return;
      const service = await facts();
      const f = await service.show({ id });
      if (f.status !== 'disputed') {
        void vscode.window.showInformationMessage(vscode.l10n.t('This fact is {0}, not disputed: there is nothing to resolve.', f.status));
        return;
      }
      const others = await Promise.all(f.disputedWith.map((x) => service.show({ id: x })));
      const names = others.map((o) => `${o.object} (${o.source ?? '—'}, ${o.confidence ?? '—'})`).join('; ');
      const picks = [
        {
          label: vscode.l10n.t('Keep this one: {0}', f.object),
          detail: vscode.l10n.t('Retracts {0}', names),
          decision: 'keep-one' as const,
        },
        {
          label: others.length === 1 ? vscode.l10n.t('Keep both') : vscode.l10n.t('Keep all {0}', others.length + 1),
          detail: vscode.l10n.t('Both stay active; asserting them again does not dispute them'),
          decision: 'keep-both' as const,
        },
        { label: vscode.l10n.t('Retract all'), detail: vscode.l10n.t('Neither is believed'), decision: 'retract-all' as const },
      ];
      const pick = await vscode.window.showQuickPick(picks, {
        title: vscode.l10n.t('Resolve the dispute on "{0} {1}"', f.subject, f.predicate),
        placeHolder: vscode.l10n.t('This fact says {0}; the others say {1}', f.object, names),
      });
      if (!pick) return;
      await (
        await facts()
      ).resolve({ ids: [id, ...f.disputedWith], decision: pick.decision, ...(pick.decision === 'keep-one' ? { keep: id } : {}) });
      changes.fireSoon(0);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Dispute resolved'), 4000);
    }),

    command('agentMemory.showFactHistory', async (arg) => {
      const id = factId(arg);
      if (!id) return;
      const f = await (await facts()).show({ id });
      // Rendered, as every history and preview is: the document is Markdown, escapes and all.
      await showMarkdown(viewDocUri('fact-history', id, vscode.l10n.t('History of {0}', label(f))));
    }),

    command('agentMemory.copyFactId', async (arg) => {
      const id = factId(arg);
      if (!id) return;
      await vscode.env.clipboard.writeText(id);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Fact id copied'), 3000);
    }),
  );
}
