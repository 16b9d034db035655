import * as vscode from 'vscode';
import type { z } from 'zod';
import { type ContextInput, contextTool } from '../../core/contract';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type ContextInput = z.input<typeof ContextInput>;

/**
 * agent-memory_context: working memory for a task in one call. The result is the packed JSON
 * itself: its note frames the items as data with their provenance, and the budget was measured
 * on exactly this text (characters / 4), so what the model receives stays within it.
 */
export class ContextTool implements vscode.LanguageModelTool<ContextInput> {
  static readonly id = contextTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Gathering what the team memory knows about the task') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ContextInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => textResult(JSON.stringify(await callTool(this.services, contextTool, options.input))));
  }
}
