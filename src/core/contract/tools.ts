import { MEMORY_TOOLS } from './memoryTools';
import { PLAYBOOK_TOOLS } from './playbookTools';
import type { ToolDefinition } from './toolDefinition';

/** Every agent-facing tool, in the order they are presented: package.json, the MCP tool list and the VS Code tools derive from it. */
export const ALL_TOOLS: readonly ToolDefinition[] = [...MEMORY_TOOLS, ...PLAYBOOK_TOOLS];
