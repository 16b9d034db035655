import * as vscode from 'vscode';
import type { z } from 'zod';
import { type FindEpisodesInput, findEpisodesTool, type FoundEpisode } from '../../core/contract';
import { DATA_FRAME } from './playbookToolSupport';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type FindInput = z.input<typeof FindEpisodesInput>;

/** One episode for the model: what, how it ended, when, then what went wrong and how it was resolved. */
export function episodeText(e: z.infer<typeof FoundEpisode>, n: number): string {
  const about = [
    `happened ${e.timestamp}`,
    ...(e.skill ? [`followed skill ${e.skill.name} v${e.skill.version}`] : []),
    ...(e.tags.length ? [`tags ${e.tags.join(', ')}`] : []),
    `run by ${e.executor}`,
    `source ${e.source.type} ${e.source.ref}`,
    ...(e.score !== undefined ? [`score ${e.score}`] : []),
  ];
  const lines = [`${n}. ${e.outcome.toUpperCase()}: ${e.task} — ${about.join('; ')} [episode ${e.id}]`];
  if (e.tools.length) lines.push(`   tools: ${e.tools.join(', ')}`);
  if (e.inputs.length) lines.push(`   inputs: ${e.inputs.join(' | ')}`);
  for (const err of e.errors) lines.push(`   error: ${err}`);
  if (e.resolution) lines.push(`   resolution: ${e.resolution}`);
  return lines.join('\n');
}

/** agent-memory_findEpisodes: what teammates' agents tried before, failures with their errors and resolution. Read-only: no confirmation. */
export class FindEpisodesTool implements vscode.LanguageModelTool<FindInput> {
  static readonly id = findEpisodesTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<FindInput>): vscode.PreparedToolInvocation {
    const query = typeof options.input?.query === 'string' ? options.input.query.trim() : '';
    return {
      invocationMessage: query
        ? vscode.l10n.t('Looking for episodes about: {0}', query.slice(0, 80))
        : vscode.l10n.t("Looking through the team's recent episodes"),
    };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<FindInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const out = await callTool(this.services, findEpisodesTool, options.input);
      const note = out.note ? `\n${out.note}` : '';
      if (out.items.length === 0) return textResult(`No episode matches: nobody recorded trying this here.${note}`);
      const order = options.input.query ? 'best match first' : 'newest first';
      const more = out.nextCursor ? `\nMore episodes match: call again with cursor "${out.nextCursor}".` : '';
      return textResult(
        `${out.items.length} episodes, ${order}. ${DATA_FRAME}\n${out.items.map((e, i) => episodeText(e, i + 1)).join('\n')}${more}${note}`,
      );
    });
  }
}
