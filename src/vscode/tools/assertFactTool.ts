import * as vscode from 'vscode';
import type { z } from 'zod';
import { assertFactTool, type ProposalOutput } from '../../core/contract';
import { type PlaybookAccess, proposalText, runPlaybook } from './playbookToolSupport';
import { runTool, textResult } from './toolSupport';

interface AssertInput {
  subject: string;
  predicate: string;
  object: string;
  source?: string | null;
  confidence?: number | null;
  observedAt?: string;
  validUntil?: string | null;
}

/**
 * agent-memory_assertFact: validated at once, then queued for a person. Nothing is written to
 * the facts, so no confirmation is asked: the person decides in the Pending view.
 */
export class AssertFactTool implements vscode.LanguageModelTool<AssertInput> {
  static readonly id = assertFactTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<AssertInput>): vscode.PreparedToolInvocation {
    const { subject, predicate, object } = options.input ?? {};
    return { invocationMessage: vscode.l10n.t('Proposing a fact for review: {0} {1} {2}', subject ?? '', predicate ?? '', object ?? '') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<AssertInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => textResult(proposalText(await runPlaybook<z.infer<typeof ProposalOutput>>(this.access, AssertFactTool.id, options.input))));
  }
}
