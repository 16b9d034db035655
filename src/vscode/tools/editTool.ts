import * as vscode from 'vscode';
import { citationLabel } from '../../core/citations';
import type { z } from 'zod';
import { EditInput, editTool, parseInput } from '../../core/contract';
import { screenMemory } from '../../core/screening';
import { reviewMemory } from '../memories/reviewQuickPick';
import { queueMemoryWrite } from './playbookToolSupport';
import {
  callTool,
  instructionNote,
  PreviewedVersions,
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
type EditToolInput = z.input<typeof EditInput>;

/**
 * agent-memory_edit: the confirmation shows what changes, field by field, against the version
 * it read; the edit then applies to that version only. When the edit sets tags or the
 * description, the person reviews them after Continue, as for a new memory. With
 * agentMemory.reviewWrites = queue the edit becomes a proposal in the Pending view instead,
 * pinned to the version current when it was proposed.
 */
export class EditTool implements vscode.LanguageModelTool<EditToolInput> {
  static readonly id = editTool.name;
  private readonly previewed = new PreviewedVersions();

  constructor(private readonly services: ServicesProvider) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<EditToolInput>,
  ): Promise<vscode.PreparedToolInvocation> {
    if (reviewMode() === 'queue') return { invocationMessage: vscode.l10n.t('Proposing a change to a team memory for review') };
    const invocationMessage = vscode.l10n.t('Updating a team memory');
    if (!reviewWrites()) return { invocationMessage };
    let e: ReturnType<typeof parseInput<typeof EditInput>>;
    let cur;
    try {
      e = parseInput(EditInput, options.input);
      cur = await (await this.services()).memories.read({ id: e.id });
      this.previewed.remember(options.input, cur.version);
    } catch (err) {
      return previewFailed(err, invocationMessage, vscode.l10n.t('Update this team memory?'));
    }
    const parts: string[] = [`**${md(cur.description)}** (${vscode.l10n.t('version {0}', cur.version)})`];
    if (e.description !== undefined && e.description !== cur.description) {
      parts.push(`**${vscode.l10n.t('Description')}:** ~~${md(cur.description)}~~ → ${md(e.description)}`);
    }
    if (e.tags !== undefined) {
      const added = e.tags.filter((t) => !cur.tags.includes(t));
      const removed = cur.tags.filter((t) => !e.tags!.includes(t));
      if (added.length || removed.length) {
        parts.push(`**${vscode.l10n.t('Tags')}:** ${[...added.map((t) => `+\`${t}\``), ...removed.map((t) => `−~~${t}~~`)].join(' ')}`);
      }
    }
    if (e.content !== undefined && e.content !== cur.content) {
      parts.push(
        `**${vscode.l10n.t('New content')}:**\n\n${fenced(e.content)}\n\n**${vscode.l10n.t('Replaces')}:**\n\n${fenced(cur.content)}`,
      );
    }
    if (e.citations !== undefined) {
      const now = e.citations.map((c) => `\`${citationLabel(c)}\``).join(' ');
      parts.push(`**${vscode.l10n.t('Cites')}:** ${now || vscode.l10n.t('(no citations)')}`);
    } else if (cur.freshness === 'stale') {
      parts.push(vscode.l10n.t('The code this memory cites has changed; saving anchors its citations to the code as it is now.'));
    }
    if (parts.length === 1) parts.push(vscode.l10n.t('Nothing changes: nothing will be written.'));
    const warnings = screeningMarkdown(screenMemory({ description: e.description, content: e.content }));
    if (warnings) parts.push(warnings.trim());
    return {
      invocationMessage,
      confirmationMessages: { title: vscode.l10n.t('Update this team memory?'), message: new vscode.MarkdownString(parts.join('\n\n')) },
    };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<EditToolInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      if (reviewMode() === 'queue') {
        return textResult(await queueMemoryWrite(this.services, 'edit', { ...options.input }));
      }
      const { memories: service } = await this.services();
      const shown = this.previewed.take(options.input);
      let input: EditToolInput =
        options.input.expectedVersion === undefined && shown !== undefined ? { ...options.input, expectedVersion: shown } : options.input;
      let note = '';
      // A person is present (a chat invocation) and reviews writes: they may adjust the tags and description the model set.
      if (options.toolInvocationToken !== undefined && reviewWrites() && (input.tags !== undefined || input.description !== undefined)) {
        const e = parseInput(EditInput, input);
        const cur = await service.read({ id: e.id });
        const proposal = { description: e.description ?? cur.description, tags: e.tags ?? cur.tags };
        const reviewed = await reviewMemory(service, proposal, { title: vscode.l10n.t('Review the edited memory before it is saved') });
        if (!reviewed)
          return textResult('The person cancelled the review: nothing was saved. Ask them what to change before trying again.');
        input = { ...input, description: reviewed.description, tags: reviewed.tags };
        if (reviewed.description !== proposal.description || reviewed.tags.join() !== proposal.tags.join()) {
          note = ` after the person's review, with description "${reviewed.description}" and tags [${reviewed.tags.join(', ')}]`;
        }
      }
      const r = await callTool(this.services, editTool, input);
      return textResult(
        r.changed
          ? `Saved version ${r.version} of memory ${r.id} (changed: ${r.changedFields.join(', ')})${note}.${instructionNote(r.instructionLike)}`
          : `Nothing changed: memory ${r.id} already holds these values; it stays at version ${r.version} and nothing was written.`,
      );
    });
  }
}
