import * as vscode from 'vscode';
import type { z } from 'zod';
import { proposeSkillTool, type ProposalOutput } from '../../core/contract';
import { type PlaybookAccess, proposalText, runPlaybook } from './playbookToolSupport';
import { runTool, textResult } from './toolSupport';

interface ProposeInput {
  yaml: string;
}

/**
 * agent-memory_proposeSkill: the YAML is validated at once (a bad document is refused with its
 * line and reason), then queued for a person; no confirmation, since nothing is saved yet.
 */
export class ProposeSkillTool implements vscode.LanguageModelTool<ProposeInput> {
  static readonly id = proposeSkillTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Proposing a skill for review') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<ProposeInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => textResult(proposalText(await runPlaybook<z.infer<typeof ProposalOutput>>(this.access, ProposeSkillTool.id, options.input))));
  }
}
