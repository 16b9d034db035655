import { z } from 'zod';
import { MEMORY_TOOLS, type ToolDefinition } from './tools';

/** Codicons for the tools in VS Code's tool pickers. */
const ICONS: Record<string, string> = {
  'agent-memory_search': '$(search)',
  'agent-memory_create': '$(add)',
  'agent-memory_edit': '$(edit)',
  'agent-memory_read': '$(book)',
  'agent-memory_delete': '$(trash)',
  'agent-memory_tags': '$(tag)',
};

/** One entry of package.json's `contributes.languageModelTools`. */
export function languageModelToolContribution(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: tool.name,
    toolReferenceName: tool.toolReferenceName,
    displayName: tool.displayName,
    userDescription: tool.userDescription,
    modelDescription: tool.modelDescription,
    canBeReferencedInPrompt: true,
    icon: ICONS[tool.name] ?? '$(database)',
    tags: ['agent-memory'],
    inputSchema,
  };
}

/**
 * What package.json's `contributes.languageModelTools` must hold: derived from the
 * contract, written by `npm run manifest`, and checked by a test so the two never drift.
 */
export function languageModelToolContributions(): Array<Record<string, unknown>> {
  return MEMORY_TOOLS.map((t) => languageModelToolContribution(t));
}
