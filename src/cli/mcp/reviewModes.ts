/**
 * How the MCP server treats an agent's writes (review.ts). ask: a person confirms each one
 * through the client (MCP elicitation); a client that cannot ask gets it queued as a proposal
 * instead. queue: always a proposal for the Pending queue. direct: written at once (refused by a
 * policy that requires review: `review: { agent_writes: required }` in policy.yaml).
 * A module of its own, without imports: the CLI checks --review before loading the server.
 */
export const REVIEW_MODES = ['ask', 'queue', 'direct'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
