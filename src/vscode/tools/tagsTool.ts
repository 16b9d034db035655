import * as vscode from 'vscode';
import type { z } from 'zod';
import { type TagsInput, tagsTool } from '../../core/contract';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type TagsInput = z.input<typeof TagsInput>;

/** agent-memory_tags: the vocabulary, and existing tags close to proposed ones. */
export class TagsTool implements vscode.LanguageModelTool<TagsInput> {
  static readonly id = tagsTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading the team memory tags') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<TagsInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const t = await callTool(this.services, tagsTool, options.input);
      const vocabulary = t.tags.map((x) => `${x.tag} (${x.count})`).join(', ') || 'none yet';
      const more = t.totalTags > t.tags.length ? ` (and ${t.totalTags - t.tags.length} less used)` : '';
      const proposals = t.suggestions.map(
        (s) =>
          `- ${s.proposed} → ${s.normalized}: ${s.exists ? 'exists' : 'new'}` +
          (s.similar.length ? `; existing close tags: ${s.similar.map((x) => x.tag).join(', ')}` : ''),
      );
      return textResult(
        `Tags in use, most used first: ${vocabulary}${more}.` + (proposals.length ? `\nYour proposed tags:\n${proposals.join('\n')}` : ''),
      );
    });
  }
}
