import * as vscode from 'vscode';
import type { z } from 'zod';
import { CreateInput, createTool, parseInput } from '../../core/contract';
import { citationLabel } from '../../core/citations';
import { screenMemory } from '../../core/screening';
import { reviewMemory } from '../memories/reviewQuickPick';
import { queueMemoryWrite } from './playbookToolSupport';
import {
  callTool,
  instructionNote,
  previewFailed,
  respond,
  reviewMode,
  reviewWrites,
  screeningMarkdown,
  type ServicesProvider,
  textResult,
} from './toolSupport';
import { fenced, md } from '../shared/markdownText';

/** What the model sends: the contract's input schema, before validation. */
type CreateToolInput = z.input<typeof CreateInput>;

/**
 * agent-memory_create: a person sees exactly what will be saved before it is; with
 * agentMemory.reviewWrites = queue it becomes a proposal in the Pending view instead.
 */
export class CreateTool implements vscode.LanguageModelTool<CreateToolInput> {
  static readonly id = createTool.name;

  constructor(private readonly services: ServicesProvider) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<CreateToolInput>,
  ): Promise<vscode.PreparedToolInvocation> {
    // Queued: nothing is saved now, a person decides in the Pending view.
    if (reviewMode() === 'queue') return { invocationMessage: vscode.l10n.t('Proposing a team memory for review') };
    const invocationMessage = vscode.l10n.t('Saving a team memory');
    if (!reviewWrites()) return { invocationMessage };
    let m: CreateToolInput;
    try {
      m = parseInput(CreateInput, options.input);
    } catch {
      return { invocationMessage }; // invoke refuses it with the reason; nothing to confirm
    }
    const title = vscode.l10n.t('Save this memory for the team?');
    let similar;
    try {
      similar = await (await this.services()).memories.similarTo(m);
    } catch (err) {
      return previewFailed(err, invocationMessage, title);
    }
    const renamed = options.input.tags.filter((t, i) => t !== m.tags[i]);
    const message = new vscode.MarkdownString(
      `**${vscode.l10n.t('Description')}:** ${md(m.description)}\n\n` +
        `**${vscode.l10n.t('Tags')}:** ${m.tags.map((t) => `\`${t}\``).join(' ')}` +
        (renamed.length ? ` _(${vscode.l10n.t('normalised from')} ${renamed.map(md).join(', ')})_` : '') +
        (m.citations?.length ? `\n\n**${vscode.l10n.t('Cites')}:** ${m.citations.map((c) => `\`${citationLabel(c)}\``).join(' ')}` : '') +
        screeningMarkdown(screenMemory(m), similar) +
        `\n\n**${vscode.l10n.t('Content')}:**\n\n${fenced(m.content)}`,
    );
    return { invocationMessage, confirmationMessages: { title, message } };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<CreateToolInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      if (reviewMode() === 'queue') return textResult(await queueMemoryWrite(this.services, 'create', { ...options.input }));
      const { memories: service } = await this.services();
      let input: CreateToolInput = options.input;
      let note = '';
      // A person is present (a chat invocation) and reviews writes: they may adjust tags and description.
      if (options.toolInvocationToken !== undefined && reviewWrites()) {
        const proposal = parseInput(CreateInput, input);
        const reviewed = await reviewMemory(service, proposal);
        if (!reviewed)
          return textResult('The person cancelled the review: nothing was saved. Ask them what to change before trying again.');
        input = { ...proposal, ...reviewed };
        if (reviewed.description !== proposal.description || reviewed.tags.join() !== proposal.tags.join()) {
          note = ` after the person's review, with description "${reviewed.description}" and tags [${reviewed.tags.join(', ')}]`;
        }
      }
      // Asked again after the review: the store may have been switched meanwhile.
      const { id, instructionLike, similar } = await callTool(this.services, createTool, input);
      const close = similar?.length
        ? ` It closely matches ${similar.map((s) => `memory ${s.id} ("${s.description}", similarity ${s.similarity})`).join(', ')}: next time edit the existing memory instead of creating another.`
        : '';
      return textResult(`Saved as memory ${id} (version 1)${note}.${instructionNote(instructionLike)}${close}`);
    });
  }
}
