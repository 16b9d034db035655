import * as vscode from 'vscode';
import { contextTool } from '../../core/contract';
import type { PackedContext } from '../../core/playbook/contextPacking';
import { type PlaybookAccess, runPlaybook } from './playbookToolSupport';
import { runTool, textResult } from './toolSupport';

interface ContextInput {
  task: string;
  maxTokens?: number;
}

/**
 * agent-memory_context: working memory for a task in one call. The result is the packed JSON
 * itself: its note frames the items as data with their provenance, and the budget was measured
 * on exactly this text (characters / 4), so what the model receives stays within it.
 */
export class ContextTool implements vscode.LanguageModelTool<ContextInput> {
  static readonly id = contextTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Gathering what the team memory knows about the task') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ContextInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => textResult(JSON.stringify(await runPlaybook<PackedContext>(this.access, ContextTool.id, options.input))));
  }
}
