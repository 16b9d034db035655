import * as vscode from 'vscode';
import type { z } from 'zod';
import { type QueryFactsInput, queryFactsTool } from '../../core/contract';
import { DATA_FRAME, factLine } from './playbookToolSupport';
import { callTool, respond, type ServicesProvider, textResult } from './toolSupport';

/** What the model sends: the contract's input schema, before validation. */
type QueryInput = z.input<typeof QueryFactsInput>;

/** agent-memory_queryFacts: facts with their evidence, one per line, disputed ones flagged. */
export class QueryFactsTool implements vscode.LanguageModelTool<QueryInput> {
  static readonly id = queryFactsTool.name;

  constructor(private readonly services: ServicesProvider) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<QueryInput>): vscode.PreparedToolInvocation {
    const { subject, predicate, object } = options.input ?? {};
    return { invocationMessage: vscode.l10n.t('Looking up facts: {0}', [subject, predicate, object].filter(Boolean).join(' ')) };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<QueryInput>): Promise<vscode.LanguageModelToolResult> {
    return respond(async () => {
      const out = await callTool(this.services, queryFactsTool, options.input);
      if (out.items.length === 0) {
        return textResult(
          'No fact matches. Nothing is known about this here; if you establish it, propose it with agent-memory_assertFact.',
        );
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
