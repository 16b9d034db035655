import type { z } from 'zod';

/** How a tool behaves, for MCP annotations and confirmation policy. */
export interface ToolAnnotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

/** One agent-facing tool: the single definition every adapter derives from. */
export interface ToolDefinition<I extends z.core.$ZodType = z.core.$ZodType, O extends z.core.$ZodType = z.core.$ZodType> {
  /** The tool name agents call, e.g. `agent-memory_search`. */
  name: string;
  /** What a person types in chat (`#memorySearch`). */
  toolReferenceName: string;
  displayName: string;
  /** Short text for people. */
  userDescription: string;
  /** Written for the model: what it does, returns, when to use it, its limits. Not localised. */
  modelDescription: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
}
