import * as z from 'zod';
import { ALL_TOOLS } from '../../core/contract';
import type { ToolDefinition } from '../../core/contract';

/** Codicons for the tools in VS Code's tool pickers. */
const ICONS: Record<string, string> = {
  'agent-memory_search': '$(search)',
  'agent-memory_create': '$(add)',
  'agent-memory_edit': '$(edit)',
  'agent-memory_read': '$(book)',
  'agent-memory_delete': '$(trash)',
  'agent-memory_tags': '$(tag)',
  'agent-memory_context': '$(layers)',
  'agent-memory_recordEpisode': '$(history)',
  'agent-memory_findEpisodes': '$(search-fuzzy)',
  'agent-memory_queryFacts': '$(symbol-field)',
  'agent-memory_assertFact': '$(lightbulb)',
  'agent-memory_retractFact': '$(circle-slash)',
  'agent-memory_findSkills': '$(tools)',
  'agent-memory_readSkill': '$(checklist)',
  'agent-memory_proposeSkill': '$(git-pull-request-create)',
};

/** package.nls.json keys of the strings a person reads (the model's description is for the model and stays English). */
const nlsKey = (tool: ToolDefinition, field: 'displayName' | 'userDescription') =>
  `tool.${tool.name.replace('agent-memory_', '')}.${field}`;

/** One entry of package.json's `contributes.languageModelTools`; person-facing strings are package.nls.json keys. */
export function languageModelToolContribution(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: tool.name,
    toolReferenceName: tool.toolReferenceName,
    displayName: `%${nlsKey(tool, 'displayName')}%`,
    userDescription: `%${nlsKey(tool, 'userDescription')}%`,
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
  return ALL_TOOLS.map((t) => languageModelToolContribution(t));
}

/** The English strings of those keys, as package.nls.json must hold them. */
export function languageModelToolStrings(): Record<string, string> {
  return Object.fromEntries(
    ALL_TOOLS.flatMap((t) => [
      [nlsKey(t, 'displayName'), t.displayName],
      [nlsKey(t, 'userDescription'), t.userDescription],
    ]),
  );
}

/**
 * Where the extension's own copy of the agent instructions lives (package.json
 * `chatInstructions`, a stable contribution point: VS Code hands the file to chat models in
 * Agent mode by its `applyTo`). Left out while the workspace has its own copy (the `when`).
 */
export const CONTRIBUTED_INSTRUCTIONS = 'media/instructions/agent-memory.instructions.md';
