import { ValidationError } from '../../core/errors';
import type { CommandGroup } from '../command';
import { str } from '../flags';
import type * as McpServer from '../mcp/server';
import { REVIEW_MODES, type ReviewMode } from '../mcp/reviewModes';

/** `agent-memory mcp`: the agent tools for an MCP client, over the store the global flags name. */
export const MCP_COMMANDS: CommandGroup = {
  mcp: {
    usage: 'mcp [--review ask|queue|direct]',
    summary:
      'serve the agent tools (memories, episodes, facts, skills, context) to an MCP client on stdin/stdout, until stdin ends or SIGINT/SIGTERM',
    details:
      "--review decides what happens to an agent's writes (create, edit, delete, recordEpisode, retractFact). ask (the default): the person is asked through the client (MCP elicitation: what will be saved, with the description and tags editable); a client that cannot ask gets memory creates and edits queued as proposals (agent-memory pending, or the Pending view in VS Code) and the other writes refused. queue: always queued. direct: written at once, unless policy.yaml says review: { agent_writes: required }, which makes it ask. Reads never ask.",
    options: { review: { type: 'string' } },
    positionals: 'none',
    longLived: true,
    channel: 'mcp',
    // Resolves when the client is gone; main then closes the store, after the last call finished.
    // Loaded on use: the MCP SDK and the tools' JSON Schemas would slow every other command.
    run: async (ctx) => {
      const review = str(ctx.flags, 'review') ?? 'ask';
      if (!(REVIEW_MODES as readonly string[]).includes(review)) {
        throw new ValidationError('review', `is ${JSON.stringify(review)}; it is one of ${REVIEW_MODES.join(', ')}`);
      }
      const server: typeof McpServer = await import('../mcp/server');
      await server.serveMcp(await ctx.allServices(), { log: (line) => ctx.io.stderr(`${line}\n`), review: review as ReviewMode });
    },
  },
};
