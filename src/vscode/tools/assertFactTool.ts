import * as vscode from 'vscode';
import type { z } from 'zod';
import { type AssertFactInput, assertFactTool } from '../../core/contract';
import { proposalText } from './playbookToolSupport';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type AssertInput = z.input<typeof AssertFactInput>;

/**
 * agent-memory_assertFact: validated at once, then queued for a person. Nothing is written to
 * the facts, so no confirmation is asked: the person decides in the Pending view.
 */
export class AssertFactTool implements vscode.LanguageModelTool<AssertInput> {
  static readonly id = assertFactTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<AssertInput>): vscode.PreparedToolInvocation {
    const { subject, predicate, object } = options.input ?? {};
    return { invocationMessage: vscode.l10n.t('Proposing a fact for review: {0} {1} {2}', subject ?? '', predicate ?? '', object ?? '') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<AssertInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => textResult(proposalText(await callTool(this.services, assertFactTool, options.input))));
  }
}
