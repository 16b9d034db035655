import * as vscode from 'vscode';
import { searchTool } from '../../core/contract';
import type { SearchReads } from '../../core/playbook/playbook';
import { runTool, type ServiceProvider, tagList, textResult } from './toolSupport';

interface SearchInput {
  keywords: string[];
  tags?: string[];
  limit?: number;
}

/** agent-memory_search: ranked search; returns ids, descriptions and tags only. */
export class SearchTool implements vscode.LanguageModelTool<SearchInput> {
  static readonly id = searchTool.name;

  constructor(
    private readonly service: ServiceProvider,
    /** Where the ids it returns are counted, so the lifecycle report can say how many were read afterwards. */
    private readonly reads?: () => Promise<SearchReads>,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SearchInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Searching team memory for {0}', (options.input.keywords ?? []).join(', ')) };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<SearchInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => {
      // A model that does not say how many gets the number the person set (agentMemory.search.maxResults).
      const limit = options.input.limit ?? vscode.workspace.getConfiguration('agentMemory').get<number>('search.maxResults');
      const hits = await (await this.service()).search({ ...options.input, ...(limit === undefined ? {} : { limit }) });
      (await this.reads?.())?.searched(hits.map((h) => h.id));
      if (hits.length === 0) return textResult('No memory matches these keywords. Nothing relevant is stored; solve it and consider saving what you learn.');
      const lines = hits.map((h, i) => `${i + 1}. ${h.id} — ${h.description} ${tagList(h.tags)}`);
      return textResult(`${hits.length} memories match, best first. Read only those whose description is relevant (agent-memory_read with the id):\n${lines.join('\n')}`);
    });
  }
}
