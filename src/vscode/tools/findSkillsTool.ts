import * as vscode from 'vscode';
import type { z } from 'zod';
import { findSkillsTool, type FindSkillsOutput } from '../../core/contract';
import { DATA_FRAME, type PlaybookAccess, runPlaybook } from './playbookToolSupport';
import { runTool, textResult } from './toolSupport';

interface FindInput {
  task: string;
  limit?: number;
}

/** agent-memory_findSkills: the playbooks that fit a task, best first, by name and description only. */
export class FindSkillsTool implements vscode.LanguageModelTool<FindInput> {
  static readonly id = findSkillsTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Looking for the team\'s skills for this task') };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<FindInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => {
      const found = await runPlaybook<z.infer<typeof FindSkillsOutput>>(this.access, FindSkillsTool.id, options.input);
      if (found.length === 0) return textResult('No skill fits this task. Solve it, record the episode, and propose a skill if others should repeat it.');
      const lines = found.map((s, i) => `${i + 1}. ${s.name} v${s.version} — ${s.description} (${s.trigger ? `matched trigger "${s.trigger}"` : 'matched the description'}; score ${s.score})`);
      return textResult(`${found.length} skills fit, best first. ${DATA_FRAME} Read one with agent-memory_readSkill (by name) before following it:\n${lines.join('\n')}`);
    });
  }
}
