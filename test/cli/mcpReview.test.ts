import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { MEMORY_TOOLS, PLAYBOOK_TOOLS } from '../../src/core/contract';
import { call, CLI, running, startServer, texts } from '../helpers/mcpClient';
import { tmpDir } from '../helpers/tmp';

const MEMORY = {
  description: 'Pin the Node version with .nvmrc in CI',
  tags: ['node', 'ci'],
  content: 'Use actions/setup-node with node-version-file.',
};

/** `agent-memory --store DIR --json ARGS`, as a person at a terminal. */
function cli(store: string, ...args: string[]): unknown {
  const r = spawnSync(process.execPath, [CLI, '--store', store, '--json', ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'lead@example.com' },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const memories = (store: string) => (cli(store, 'list') as { items: Array<{ id: string; description: string; tags: string[] }> }).items;
const parsed = (res: Awaited<ReturnType<typeof call>>) => JSON.parse(texts(res)[0]!) as Record<string, unknown>;

describe('review of agent writes over MCP (the SDK client, dist/cli.js mcp --review …)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.client.close()));
  });

  it('ask, a client without elicitation: a create is pending, not saved, until a person approves it with agent-memory pending', async () => {
    const store = tmpDir();
    const s = await startServer(store, { review: 'ask' });
    const res = await call(s, MEMORY_TOOLS[1].name, MEMORY);
    assert.equal(res.isError, undefined);
    const out = parsed(res);
    assert.equal(out.status, 'pending');
    assert.match(String(out.note), /not saved/i);
    assert.deepEqual(res.structuredContent, out);
    assert.deepEqual(memories(store), [], 'the store holds no memory');
    cli(store, 'pending', 'approve', String(out.proposalId));
    assert.deepEqual(
      memories(store).map((m) => m.description),
      [MEMORY.description],
    );
    // Both are recorded: the agent that proposed over MCP, and the person who approved at the terminal.
    const [v1] = cli(store, 'history', memories(store)[0]!.id) as Array<Record<string, unknown>>;
    assert.deepEqual([v1!.author, v1!.proposedBy, v1!.channel], ['lead@example.com', 'mcp-test@example.com (via mcp-test)', 'cli']);
  });

  it('ask, a client whose person accepts with other tags: saved as the person left it, and the model is told', async () => {
    const store = tmpDir();
    const asked: ElicitRequest[] = [];
    const s = await startServer(store, {
      review: 'ask',
      elicit: (request) => {
        asked.push(request);
        return { action: 'accept', content: { description: MEMORY.description, tags: 'node, ci, github-actions' } };
      },
    });
    const res = await call(s, MEMORY_TOOLS[1].name, MEMORY);
    const message = String((asked[0]!.params as { message: string }).message);
    assert.match(message, /Description: Pin the Node version with \.nvmrc in CI\nTags: node, ci\n/);
    assert.match(message, /Content:\n {2}Use actions\/setup-node/);
    assert.deepEqual(Object.keys((asked[0]!.params as { requestedSchema: { properties: object } }).requestedSchema.properties), [
      'description',
      'tags',
    ]);
    assert.match(
      texts(res)[1]!,
      /A person reviewed and approved this write\. The person changed it before saving: .*tags \[node, ci, github-actions\]/,
    );
    const [m] = memories(store);
    assert.deepEqual(m!.tags, ['node', 'ci', 'github-actions']);
    // Saved with the channel it came through.
    const [v1] = cli(store, 'history', m!.id) as Array<Record<string, unknown>>;
    assert.deepEqual([v1!.author, v1!.channel], ['mcp-test@example.com', 'mcp']);
    // Reads never ask.
    await call(s, MEMORY_TOOLS[0].name, { keywords: ['node'] });
    await call(s, MEMORY_TOOLS[3].name, { id: m!.id });
    assert.equal(asked.length, 1);
  });

  it('ask, a person who declines or dismisses: nothing is saved and the model is told so', async () => {
    const store = tmpDir();
    for (const action of ['decline', 'cancel'] as const) {
      const s = await startServer(store, { review: 'ask', elicit: () => ({ action }) });
      const res = await call(s, MEMORY_TOOLS[1].name, MEMORY);
      assert.equal(res.isError, undefined);
      assert.match(
        texts(res)[0]!,
        action === 'decline' ? /declined this write: nothing was saved/ : /dismissed the review .*nothing was saved/,
      );
    }
    assert.deepEqual(memories(store), []);
  });

  it('a bad write is refused before anyone is asked; a delete the client cannot ask about is refused and deletes nothing', async () => {
    const store = tmpDir();
    const id = (cli(store, 'create', '--description', MEMORY.description, '--tags', 'node', '--content', 'x') as { id: string }).id;
    let asked = 0;
    const s = await startServer(store, { review: 'ask', elicit: () => (asked++, { action: 'accept' }) });
    const bad = await call(s, MEMORY_TOOLS[1].name, { ...MEMORY, tags: [] });
    assert.equal(bad.isError, true);
    assert.match(texts(bad)[0]!, /give at least 1 tag/);
    assert.equal(asked, 0);
    const plain = await startServer(store, { review: 'ask' });
    const del = await call(plain, MEMORY_TOOLS[4].name, { id });
    assert.equal(del.isError, true);
    assert.match(texts(del)[0]!, /cannot ask them \(no MCP elicitation\); agent-memory_delete cannot be queued, so nothing was written/);
    assert.equal(memories(store).length, 1);
    // With a person to ask, the delete goes through once they accept.
    const ok = await call(s, MEMORY_TOOLS[4].name, { id });
    assert.equal(ok.isError, undefined, texts(ok).join());
    assert.equal(asked, 1);
    assert.equal(memories(store).length, 0);
  });

  it('policy.yaml review: { agent_writes: required } overrides --review direct; tools/list drops the output schemas of reviewed writes', async () => {
    const store = tmpDir();
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, 'policy.yaml'), 'review:\n  agent_writes: required\n');
    const s = await startServer(store, { review: 'direct' });
    const out = parsed(await call(s, MEMORY_TOOLS[1].name, MEMORY));
    assert.equal(out.status, 'pending');
    assert.deepEqual(memories(store), []);
    const { tools } = await s.client.listTools();
    const writes = new Set(
      [MEMORY_TOOLS[1], MEMORY_TOOLS[2], MEMORY_TOOLS[4], ...PLAYBOOK_TOOLS.filter((t) => /recordEpisode|retractFact/.test(t.name))].map(
        (t) => t.name,
      ),
    );
    for (const t of tools) assert.equal(t.outputSchema === undefined, writes.has(t.name), t.name);
    // Without the policy, direct writes at once.
    fs.rmSync(path.join(store, 'policy.yaml'));
    const direct = await startServer(store, { review: 'direct' });
    await call(direct, MEMORY_TOOLS[1].name, { ...MEMORY, description: 'Another memory written directly' });
    assert.deepEqual(
      memories(store).map((m) => m.description),
      ['Another memory written directly'],
    );
  });

  it('refuses an unknown --review mode, naming the flag and the modes', () => {
    const r = spawnSync(process.execPath, [CLI, '--store', tmpDir(), 'mcp', '--review', 'sometimes'], { encoding: 'utf8', input: '' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--review: is "sometimes"; it is one of ask, queue, direct/);
  });
});

describe('the forgetting run of an MCP server', function () {
  this.timeout(60_000);
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.client.close()));
  });
  const reports = (store: string) => cli(store, 'lifecycle', 'report') as Array<{ trigger: string; forgottenEpisodes: number }>;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a server opened on a store past its forgetting period runs it once; the next server within the period does not', async () => {
    const store = tmpDir();
    const old = new Date(Date.now() - 200 * 24 * 3600_000).toISOString();
    cli(
      store,
      'episode',
      'record',
      '--task',
      'Rotate the staging certificates',
      '--outcome',
      'success',
      '--source',
      'issue:#7',
      '--timestamp',
      old,
    );
    assert.deepEqual(reports(store), []);
    await startServer(store);
    for (let i = 0; i < 40 && reports(store).length === 0; i++) await wait(250);
    const [report] = reports(store);
    assert.deepEqual([report?.trigger, report?.forgottenEpisodes], ['schedule', 1]);
    // Within the period (24 h by default) a second server leaves it alone.
    cli(store, 'episode', 'record', '--task', 'Another old episode', '--outcome', 'failure', '--source', 'issue:#8', '--timestamp', old);
    await startServer(store);
    await wait(4000);
    assert.equal(reports(store).length, 1);
  });
});

describe('search→read counts of an MCP server, kept in the store', function () {
  this.timeout(60_000);

  it('a server that stops leaves its counts; the next forgetting run (here the CLI) reports them once', async () => {
    const store = tmpDir();
    const ids = ['Pin Node in CI with .nvmrc', 'Cache npm in CI with actions/cache'].map(
      (d) => (cli(store, 'create', '--description', d, '--tags', 'ci', '--content', 'x') as { id: string }).id,
    );
    const s = await startServer(store);
    await call(s, MEMORY_TOOLS[0].name, { keywords: ['ci'] });
    await call(s, MEMORY_TOOLS[0].name, { keywords: ['node'] });
    await call(s, MEMORY_TOOLS[3].name, { id: ids[0] });
    await Promise.all(running.splice(0).map((r) => r.client.close()));
    const first = cli(store, 'lifecycle', 'run') as { searchReads: { searches: number; returned: number; read: number } };
    assert.deepEqual(first.searchReads, { searches: 2, returned: 3, read: 1 });
    const second = cli(store, 'lifecycle', 'run') as { searchReads: { searches: number } };
    assert.equal(second.searchReads.searches, 0, 'counted once');
  });
});
