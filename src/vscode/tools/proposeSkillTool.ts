import * as vscode from 'vscode';
import type { z } from 'zod';
import { type ProposeSkillInput, proposeSkillTool } from '../../core/contract';
import { proposalText } from './playbookToolSupport';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type ProposeInput = z.input<typeof ProposeSkillInput>;

/**
 * agent-memory_proposeSkill: the YAML is validated at once (a bad document is refused with its
 * line and reason), then queued for a person; no confirmation, since nothing is saved yet.
 */
export class ProposeSkillTool implements vscode.LanguageModelTool<ProposeInput> {
  static readonly id = proposeSkillTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Proposing a skill for review') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ProposeInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => textResult(proposalText(await callTool(this.services, proposeSkillTool, options.input))));
  }
}
