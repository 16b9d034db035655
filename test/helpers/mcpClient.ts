import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, type ElicitRequest, type ElicitResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The bundled CLI, as a user runs it. */
export const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
export const AUTHOR = 'mcp-test@example.com';

export interface Running {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/** Servers a test started; close them in afterEach. */
export const running: Running[] = [];

export interface ServerOptions {
  /** The server's --review mode. Default direct: most suites test what a write does, not its review (mcpReview.test.ts does). */
  review?: 'ask' | 'queue' | 'direct';
  /** Answers the server's elicitation requests; without it the client declares no elicitation capability. */
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
}

/** `node dist/cli.js --store DIR mcp` in a child process, connected to the SDK's own client. */
export async function startServer(store: string, options: ServerOptions = {}): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--store', store, 'mcp', '--review', options.review ?? 'direct'],
    // The client passes only a minimal environment unless told otherwise.
    env: { ...getDefaultEnvironment(), AGENT_MEMORY_AUTHOR: AUTHOR },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'mcp-test', version: '1.0.0' }, options.elicit ? { capabilities: { elicitation: { form: {} } } } : {});
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, (request) => options.elicit!(request));
  const r = { client, transport, stderr: () => err };
  running.push(r);
  await client.connect(transport);
  return r;
}

export async function call(r: Running, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await r.client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call; fails the test with the message of a tool error. */
export async function ok<T = Record<string, unknown>>(r: Running, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await call(r, name, args);
  assert.ok(!res.isError, `${name} failed: ${JSON.stringify(res.content)}\n${r.stderr()}`);
  return res.structuredContent as T;
}

export function errorText(res: CallToolResult): string {
  assert.equal(res.isError, true, `expected a tool error, got ${JSON.stringify(res)}`);
  return res.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export const texts = (res: CallToolResult) => res.content.map((c) => (c.type === 'text' ? c.text : ''));
