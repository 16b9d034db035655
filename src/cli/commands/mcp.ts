import type { CommandGroup } from '../command';
import { serveMcp } from '../mcp/server';

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
    run: (ctx) => serveMcp(ctx.services, { log: (line) => ctx.io.stderr(`${line}\n`) }),
  },
};
