import type { CommandGroup } from '../command';
import type * as McpServer from '../mcp/server';

/** `agent-memory mcp`: the agent tools for an MCP client, over the store the global flags name. */
export const MCP_COMMANDS: CommandGroup = {
  mcp: {
    usage: 'mcp',
    summary:
      'serve the agent tools (memories, episodes, facts, skills, context) to an MCP client on stdin/stdout, until stdin ends or SIGINT/SIGTERM',
    options: {},
    positionals: 'none',
    longLived: true,
    // Resolves when the client is gone; main then closes the store, after the last call finished.
    // Loaded on use: the MCP SDK and the tools' JSON Schemas would slow every other command.
    run: async (ctx) => {
      const server: typeof McpServer = await import('../mcp/server');
      await server.serveMcp(ctx.services, { log: (line) => ctx.io.stderr(`${line}\n`) });
    },
  },
};
