import * as vscode from 'vscode';
import type { z } from 'zod';
import { parseInput } from '../../core/contract';
import { type FactView, retractFactTool } from '../../core/contract';
import { RetractFactInput } from '../../core/contract';
import { factLine, type PlaybookAccess, runPlaybook } from './playbookToolSupport';
import { md, previewFailed, reviewWrites, runTool, textResult } from './toolSupport';

interface RetractInput {
  id: string;
  reason: string;
}

/** agent-memory_retractFact: destructive, so a person confirms it seeing the fact and the reason. */
export class RetractFactTool implements vscode.LanguageModelTool<RetractInput> {
  static readonly id = retractFactTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RetractInput>): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = vscode.l10n.t('Retracting a fact');
    const title = vscode.l10n.t('Retract this fact?');
    if (!reviewWrites()) return { invocationMessage };
    try {
      const r = parseInput(RetractFactInput, options.input);
      const f = await (await this.access.getPlaybook()).facts.show({ id: r.id });
      const message = new vscode.MarkdownString(
        `**${md(f.subject)}** ${md(f.predicate)} **${md(f.object)}** (${f.status}, ${vscode.l10n.t('confidence {0}', String(f.confidence ?? '—'))}, ${vscode.l10n.t('source {0}', md(f.source ?? '—'))})\n\n` +
          `**${vscode.l10n.t('Reason')}:** ${md(r.reason)}\n\n` +
          vscode.l10n.t('Queries no longer return it; it stays in its history.'),
      );
      return { invocationMessage, confirmationMessages: { title, message } };
    } catch (err) {
      return previewFailed(err, invocationMessage, title);
    }
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<RetractInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => {
      const f = await runPlaybook<z.infer<typeof FactView>>(this.access, RetractFactTool.id, options.input);
      return textResult(`Retracted: ${factLine(f)}. It stays in its history; facts it was disputed with are released from the dispute.`);
    });
  }
}
