import * as vscode from 'vscode';
import { parseInput, RetractFactInput, retractFactTool } from '../../core/contract';
import type { z } from 'zod';
import { factLine } from './playbookToolSupport';
import { callTool, previewFailed, respond, reviewWrites, type ServicesProvider, textResult } from './toolSupport';
import { md } from '../shared/markdownText';

/** What the model sends: the contract's input schema, before validation. */
type RetractInput = z.input<typeof RetractFactInput>;

/** agent-memory_retractFact: destructive, so a person confirms it seeing the fact and the reason. */
export class RetractFactTool implements vscode.LanguageModelTool<RetractInput> {
  static readonly id = retractFactTool.name;

  constructor(private readonly services: ServicesProvider) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RetractInput>): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = vscode.l10n.t('Retracting a fact');
    const title = vscode.l10n.t('Retract this fact?');
    if (!reviewWrites()) return { invocationMessage };
    try {
      const r = parseInput(RetractFactInput, options.input);
      const f = await (await this.services()).playbook.facts.show({ id: r.id });
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
    return respond(async () => {
      const f = await callTool(this.services, retractFactTool, options.input);
      return textResult(`Retracted: ${factLine(f)}. It stays in its history; facts it was disputed with are released from the dispute.`);
    });
  }
}
