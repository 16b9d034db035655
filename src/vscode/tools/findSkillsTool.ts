import * as vscode from 'vscode';
import type { z } from 'zod';
import { type FindSkillsInput, findSkillsTool } from '../../core/contract';
import { DATA_FRAME } from './playbookToolSupport';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type FindInput = z.input<typeof FindSkillsInput>;

/** agent-memory_findSkills: the playbooks that fit a task, best first, by name and description only. */
export class FindSkillsTool implements vscode.LanguageModelTool<FindInput> {
  static readonly id = findSkillsTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t("Looking for the team's skills for this task") };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<FindInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const found = await callTool(this.services, findSkillsTool, options.input);
      if (found.length === 0)
        return textResult('No skill fits this task. Solve it, record the episode, and propose a skill if others should repeat it.');
      const lines = found.map(
        (s, i) =>
          `${i + 1}. ${s.name} v${s.version} — ${s.description} (${s.trigger ? `matched trigger "${s.trigger}"` : 'matched the description'}; score ${s.score})`,
      );
      return textResult(
        `${found.length} skills fit, best first. ${DATA_FRAME} Read one with agent-memory_readSkill (by name) before following it:\n${lines.join('\n')}`,
      );
    });
  }
}
