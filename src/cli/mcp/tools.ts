import * as z from 'zod';
import { $ZodObject } from 'zod/v4/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../core/contract';
import { ALL_TOOLS } from '../../core/contract';
import { isWriteTool } from './review';

/**
 * MCP's `structuredContent` must be a JSON object and a tool's `outputSchema` must
 * describe an object. A contract output that is not an object (search returns an array)
 * is therefore wrapped as `{ results: [...] }` in structuredContent, and its
 * outputSchema declares that wrapper. The text content keeps the contract's own shape
 * (the bare array), the same JSON the CLI prints and the VS Code tools return.
 */
export function isWrapped(tool: ToolDefinition): boolean {
  return !(tool.output instanceof $ZodObject);
}

/** The structuredContent of a tool's result: the output itself, or `{ results }` for a non-object. */
export function structured(tool: ToolDefinition, output: unknown): Record<string, unknown> {
  return isWrapped(tool) ? { results: output } : (output as Record<string, unknown>);
}

/** JSON Schema of what a tool's structuredContent holds. */
function outputSchema(tool: ToolDefinition): Tool['outputSchema'] {
  const schema = isWrapped(tool) ? z.object({ results: tool.output }).strict() : tool.output;
  return z.toJSONSchema(schema, { io: 'output' }) as Tool['outputSchema'];
}

/**
 * One MCP tool entry, derived from the contract: nothing here restates a name or a description.
 * Under review a write's answer is saved, pending or not saved (told as JSON text), so its
 * output has no single schema: the entry declares none, and the reply carries no structuredContent.
 */
export function mcpTool(tool: ToolDefinition, reviewed = false): Tool {
  return {
    name: tool.name,
    title: tool.displayName,
    description: tool.modelDescription,
    // io: 'input' describes what a caller may send (before tags are normalised, ids lower-cased).
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
    ...(reviewed && isWriteTool(tool.name) ? {} : { outputSchema: outputSchema(tool) }),
    annotations: {
      title: tool.displayName,
      readOnlyHint: tool.annotations.readOnly,
      destructiveHint: tool.annotations.destructive,
      idempotentHint: tool.annotations.idempotent,
      // The tools touch only the memory store, never the web or other outside systems.
      openWorldHint: false,
    },
  };
}

/** The MCP tool list: every contract tool, in the contract's order (writes as reviewed or not). */
export const MCP_TOOLS: Tool[] = ALL_TOOLS.map((t) => mcpTool(t));
const REVIEWED_TOOLS: Tool[] = ALL_TOOLS.map((t) => mcpTool(t, true));

export function mcpTools(reviewed: boolean): Tool[] {
  return reviewed ? REVIEWED_TOOLS : MCP_TOOLS;
}
