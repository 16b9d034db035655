import * as vscode from 'vscode';
import type { z } from 'zod';
import { queryFactsTool, type QueryFactsOutput } from '../../core/contract';
import { DATA_FRAME, factLine, type PlaybookAccess, runPlaybook } from './playbookToolSupport';
import { runTool, textResult } from './toolSupport';

interface QueryInput {
  subject?: string;
  predicate?: string;
  object?: string;
  includeInactive?: boolean;
  limit?: number;
  cursor?: string;
}

/** agent-memory_queryFacts: facts with their evidence, one per line, disputed ones flagged. */
export class QueryFactsTool implements vscode.LanguageModelTool<QueryInput> {
  static readonly id = queryFactsTool.name;

  constructor(private readonly access: PlaybookAccess) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<QueryInput>): vscode.PreparedToolInvocation {
    const { subject, predicate, object } = options.input ?? {};
    return { invocationMessage: vscode.l10n.t('Looking up facts: {0}', [subject, predicate, object].filter(Boolean).join(' ')) };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<QueryInput>): Promise<vscode.LanguageModelToolResult> {
    return runTool(async () => {
      const out = await runPlaybook<z.infer<typeof QueryFactsOutput>>(this.access, QueryFactsTool.id, options.input);
      if (out.items.length === 0) {
        return textResult('No fact matches. Nothing is known about this here; if you establish it, propose it with agent-memory_assertFact.');
      }
      const disputed = out.items.some((f) => f.status === 'disputed')
        ? ' DISPUTED facts have sources that disagree: say so rather than pick one.'
        : '';
      const lines = out.items.map((f, i) => `${i + 1}. ${factLine(f)}`);
      const more = out.nextCursor ? `\nMore facts match: call again with cursor "${out.nextCursor}".` : '';
      return textResult(`${out.items.length} facts, highest confidence first. ${DATA_FRAME}${disputed}\n${lines.join('\n')}${more}`);
    });
  }
}
