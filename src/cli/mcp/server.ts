import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../../package.json';
import type { Services } from '../../core/services';
import { ForgettingSchedule } from './forgetting';
import { callTool } from './handlers';
import { stdoutStream } from '../io';
import { effectiveReviewMode, type Review } from './review';
import type { ReviewMode } from './reviewModes';
import { mcpTools } from './tools';

export interface McpOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Diagnostics go to stderr: stdout carries the protocol and nothing else. */
  log?: (line: string) => void;
  /** How agents' writes reach the store (review.ts); default ask. */
  review?: ReviewMode;
}

/**
 * Serves the contract's tools over MCP on stdio until stdin ends (the client closed us)
 * or SIGINT/SIGTERM arrives; resolves once calls in flight have finished, so the caller
 * closes the store after the last write, never during one.
 *
 * The low-level `Server`, not `McpServer.registerTool`: `McpServer` accepts only zod
 * schemas and validates arguments itself, answering a bad call with zod's own wording
 * ("Input validation error: Invalid arguments for tool …") before our handler runs.
 * We list the contract's JSON Schemas and hand the raw arguments to the services,
 * which validates them, so a model gets the same messages here as everywhere else
 * ("description: is 612 characters; the limit is 500").
 */
export async function serveMcp(services: Services, options: McpOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? stdoutStream();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = new Server({ name: 'agent-memory', version }, { capabilities: { tools: {} } });
  server.onerror = (err) => log(`agent-memory mcp: ${err.message}`);

  const asked = options.review ?? 'ask';
  /** The mode in force now: the team's policy may require review (a broken policy file counts as requiring it). */
  const reviewMode = (): ReviewMode => {
    try {
      return effectiveReviewMode(asked, services.playbook.policy());
    } catch (err) {
      log(`agent-memory mcp: the policy could not be read (${(err as Error).message}); agents' writes are reviewed`);
      return asked === 'direct' ? 'ask' : asked;
    }
  };
  const review = (): Review => {
    const mode = reviewMode();
    // Form elicitation: a client that declares elicitation without modes supports forms (MCP 2025-06-18).
    const e = server.getClientCapabilities()?.elicitation as { form?: object; url?: object } | undefined;
    const canAsk = e !== undefined && (e.form !== undefined || e.url === undefined);
    return { mode, ...(canAsk ? { elicit: (params) => server.elicitInput(params) } : {}) };
  };

  const inFlight = new Set<Promise<CallToolResult>>();
  let stopping = false;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(reviewMode() !== 'direct') }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    // Once stopping, the store is about to close: start nothing new that could write.
    if (stopping) return { content: [{ type: 'text', text: 'the agent-memory server is shutting down; nothing was done' }], isError: true };
    // Proposals name the person the server writes as, and the client that proposed: the agent's
    // identity, not the person's, so the person may decide it (a proposer may not decide their own).
    const client = server.getClientVersion()?.name || 'mcp';
    const caller = () => `${services.author()} (via ${client})`;
    const call = callTool({ ...services, caller }, request.params.name, request.params.arguments, log, review());
    inFlight.add(call);
    const forget = () => inFlight.delete(call);
    call.then(forget, forget);
    return call;
  });

  let stopped!: () => void;
  const stoppedP = new Promise<void>((resolve) => (stopped = resolve));
  const stop = () => {
    stopping = true;
    stopped();
  };
  // The SDK's StdioServerTransport does not watch for the end of stdin; a client that
  // closes our stdin (the SDK's own client does, then waits 2 s before SIGTERM) means "stop".
  stdin.once('end', stop);
  // A client that went away mid-answer makes stdout fail with EPIPE: stop rather than crash mid-write.
  stdout.on('error', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.onclose = stop;

  const forgetting = new ForgettingSchedule(services, log);
  try {
    await server.connect(new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout));
    forgetting.start();
    await stoppedP;
    await forgetting.stop();
    await Promise.allSettled([...inFlight]);
    // Its search→read counts outlive it: the next forgetting run (any client) reports them.
    await services.playbook
      .saveSearchReads(`mcp${server.getClientVersion()?.name ? ` (${server.getClientVersion()!.name})` : ''}`)
      .catch((err: Error) => log(`agent-memory mcp: could not keep the search counts: ${err.message}`));
    // The SDK sends a handler's answer a few promise ticks after the handler settles; one
    // macrotask lets every finished call's answer out before the transport closes.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    stdin.off('end', stop);
    stdout.off('error', stop);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    server.onclose = undefined;
    await server.close();
  }
}
