/** Working memory: the context tool's input and output. */
import * as z from 'zod';

export const CONTEXT_TOKENS = { min: 200, max: 32_000, default: 4000 } as const;

export const ContextInput = z.strictObject({
  task: z
    .string({ error: 'task must be text' })
    .trim()
    .min(1, { error: 'task is empty — describe the task at hand in a sentence or two' })
    .max(4000, { error: 'task is at most 4000 characters' }),
  maxTokens: z
    .number({ error: 'maxTokens must be a number' })
    .int()
    .min(CONTEXT_TOKENS.min, { error: `maxTokens is at least ${CONTEXT_TOKENS.min}` })
    .max(CONTEXT_TOKENS.max, { error: `maxTokens is at most ${CONTEXT_TOKENS.max}` })
    .optional(),
});

/** Where a context item comes from: handed to the model so the item reads as data, not instructions. */
export const Provenance = z.object({
  kind: z.enum(['memory', 'fact', 'skill', 'episode']),
  id: z.string(),
  version: z.number(),
  author: z.string(),
  changedAt: z.string(),
});

export const ContextOutput = z.object({
  note: z.string(),
  tokenEstimate: z.string(),
  budget: z.number(),
  usedTokens: z.number(),
  items: z.array(z.looseObject({ provenance: Provenance })),
  /** Items of each kind left out for lack of budget, and items included in short form only. */
  omitted: z.object({
    memories: z.number(),
    facts: z.number(),
    skills: z.number(),
    episodes: z.number(),
    memoryDetails: z.number(),
    skillDetails: z.number(),
    episodeDetails: z.number(),
  }),
});
