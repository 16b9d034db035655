import * as vscode from 'vscode';
import type { z } from 'zod';
import { DeleteInput, deleteTool, parseInput } from '../../core/contract';
import { callTool, PreviewedVersions, previewFailed, respond, reviewWrites, type ServicesProvider, textResult } from './toolSupport';
import { md } from '../shared/markdownText';

/** What the model sends: the contract's input schema, before validation. */
type DeleteToolInput = z.input<typeof DeleteInput>;

/** agent-memory_delete: soft delete, confirmed by a person. */
export class DeleteTool implements vscode.LanguageModelTool<DeleteToolInput> {
  static readonly id = deleteTool.name;

  private readonly previewed = new PreviewedVersions();

  constructor(private readonly services: ServicesProvider) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<DeleteToolInput>,
  ): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = vscode.l10n.t('Deleting a team memory');
    if (!reviewWrites()) return { invocationMessage };
    try {
      const d = parseInput(DeleteInput, options.input);
      const cur = await (await this.services()).memories.read({ id: d.id });
      this.previewed.remember(options.input, cur.version);
      const message = new vscode.MarkdownString(
        `**${md(cur.description)}** ${cur.tags.map((t) => `\`${t}\``).join(' ')}\n\n` +
          vscode.l10n.t('It disappears from search; a person can restore it from its history.'),
      );
      return { invocationMessage, confirmationMessages: { title: vscode.l10n.t('Delete this team memory?'), message } };
    } catch (err) {
      return previewFailed(err, invocationMessage, vscode.l10n.t('Delete this team memory?'));
    }
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<DeleteToolInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const shown = this.previewed.take(options.input);
      const r = await callTool(this.services, deleteTool, {
        ...options.input,
        ...(options.input.expectedVersion === undefined && shown !== undefined ? { expectedVersion: shown } : {}),
      });
      return textResult(`Deleted memory ${r.id} (version ${r.version}); it can be restored from its history.`);
    });
  }
}
