import * as vscode from 'vscode';
import type { z } from 'zod';
import { parseInput, RecordEpisodeInput, recordEpisodeTool } from '../../core/contract';
import { callTool, respond, reviewWrites, type ServicesProvider, textResult } from './toolSupport';
import { code, md } from '../shared/markdownText';

/** What the model sends: the contract's input schema, before validation. */
type EpisodeInput = z.input<typeof RecordEpisodeInput>;

/** agent-memory_recordEpisode: a summary of what happened, confirmed with exactly what will be stored. */
export class RecordEpisodeTool implements vscode.LanguageModelTool<EpisodeInput> {
  static readonly id = recordEpisodeTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EpisodeInput>): vscode.PreparedToolInvocation {
    const invocationMessage = vscode.l10n.t('Recording an episode');
    if (!reviewWrites()) return { invocationMessage };
    let e;
    try {
      e = parseInput(RecordEpisodeInput, options.input);
    } catch {
      return { invocationMessage }; // invoke refuses it with the reason; nothing to confirm
    }
    const list = (xs: string[]) => (xs.length ? xs.map(code).join(' ') : '—');
    const parts = [
      `**${vscode.l10n.t('Task')}:** ${md(e.task)}`,
      `**${vscode.l10n.t('Outcome')}:** ${e.outcome}`,
      `**${vscode.l10n.t('Tools')}:** ${list(e.tools)}`,
      ...(e.inputs.length ? [`**${vscode.l10n.t('Inputs')}:** ${list(e.inputs)}`] : []),
      ...(e.errors.length ? [`**${vscode.l10n.t('Errors')}:**\n\n${e.errors.map((x) => `- ${md(x)}`).join('\n')}`] : []),
      ...(e.resolution ? [`**${vscode.l10n.t('Resolution')}:** ${md(e.resolution)}`] : []),
      `**${vscode.l10n.t('Tags')}:** ${list(e.tags)}`,
      `**${vscode.l10n.t('Source')}:** ${e.source.type} ${md(e.source.ref)}`,
      ...(e.skill ? [`**${vscode.l10n.t('Skill followed')}:** ${md(e.skill.name)} v${e.skill.version}`] : []),
    ];
    return {
      invocationMessage,
      confirmationMessages: {
        title: vscode.l10n.t('Record this episode in the team memory?'),
        message: new vscode.MarkdownString(parts.join('\n\n')),
      },
    };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<EpisodeInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const { id } = await callTool(this.services, recordEpisodeTool, options.input);
      const skill = options.input.skill
        ? ` It counts toward the success rate of skill ${options.input.skill.name} v${options.input.skill.version}.`
        : '';
      return textResult(`Recorded episode ${id} (${options.input.outcome}).${skill}`);
    });
  }
}
