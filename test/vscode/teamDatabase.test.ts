import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension';
import type { MemoryNode } from '../../src/vscode/memories/memoriesView';
import { EXTENSION_ID, readSeed, until } from './seed';

// The team database from inside VS Code: the PostgreSQL server that npm test makes sure is
// running (scripts/ensure-postgres.sh), a scratch database of this suite's own.
const ADMIN_URL = process.env.AGENT_MEMORY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `agent_memory_vscode_${randomBytes(5).toString('hex')}`;
const dbUrl = () => Object.assign(new URL(ADMIN_URL), { pathname: `/${DB}` }).toString();
const PROJECT = 'vscode-test';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function api(): Promise<AgentMemoryApi> {
  return vscode.extensions.getExtension<AgentMemoryApi>(EXTENSION_ID)!.activate();
}

/** The CLI on the team database, as an agent outside VS Code would reach it. */
function teamCli<T>(...args: string[]): T {
  return teamCliIn<T>(PROJECT, ...args);
}

function teamCliIn<T>(project: string, ...args: string[]): T {
  const seed = readSeed();
  return JSON.parse(
    execFileSync(seed.node, [seed.cli, '--store', dbUrl(), '--project', project, '--json', ...args], { encoding: 'utf8', timeout: 20_000 }),
  ) as T;
}

const text = (r: vscode.LanguageModelToolResult) =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const ids = async (tree: AgentMemoryApi['memoriesView']) => {
  const out: string[] = [];
  for (const n of await tree.getChildren())
    if (n.kind === 'group') for (const c of await tree.getChildren(n)) if (c.kind === 'memory') out.push(c.id);
  return out;
};
const settings = () => vscode.workspace.getConfiguration('agentMemory');

describe('the team database (PostgreSQL) in VS Code', function () {
  this.timeout(60_000);

  before(async () => {
    await admin(`CREATE DATABASE ${escapeIdentifier(DB)}`);
    await api();
  });

  after(async () => {
    for (const key of ['storage.backend', 'postgres.url', 'postgres.project', 'postgres.tls']) {
      await settings().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    }
    const { session } = await api();
    await session.reopen();
    await admin(`DROP DATABASE IF EXISTS ${escapeIdentifier(DB)} WITH (FORCE)`);
  });

  it('"Connect to Team Database" refuses a server it cannot reach and changes no setting', async () => {
    const ok = await vscode.commands.executeCommand<boolean>('agentMemory.connectTeamDatabase', {
      url: 'postgres://postgres@127.0.0.1:1/nowhere',
      project: PROJECT,
      tls: 'off',
      password: '',
    });
    assert.equal(ok, false);
    assert.equal(settings().get('storage.backend'), 'workspace');
    assert.equal(settings().get('postgres.url'), '');
  });

  it('connects, and from then on the tools, the view and the CLI share the database', async () => {
    const { session, memoriesView, status } = await api();
    const ok = await vscode.commands.executeCommand<boolean>('agentMemory.connectTeamDatabase', {
      url: `${dbUrl().replace('postgres@', 'postgres:s3cret-not-in-settings@')}`,
      project: PROJECT,
      tls: 'off',
      copyWorkspaceMemories: false,
    });
    assert.equal(ok, true);
    assert.equal(settings().get('storage.backend'), 'postgres');
    assert.equal(settings().get('postgres.url'), dbUrl(), 'the password was moved out of the URL');
    assert.equal(settings().get('postgres.project'), PROJECT);

    const created = text(
      await vscode.lm.invokeTool('agent-memory_create', {
        input: {
          description: 'Team database: pool exhausted under load',
          tags: ['postgres', 'pool'],
          content: 'Raise max and release clients in finally.',
        },
        toolInvocationToken: undefined,
      }),
    );
    const id = /memory ([0-9a-f-]{36})/.exec(created)?.[1];
    assert.ok(id, created);
    await until('the store to be open on the team database', () => session.state.kind === 'open');
    assert.deepEqual(
      { kind: session.state.kind, backend: (session.state as { backend: string }).backend },
      { kind: 'open', backend: 'postgres' },
    );
    assert.match(status.text, /team/);

    assert.equal(teamCli<{ description: string }>('read', id!).description, 'Team database: pool exhausted under load');
    await until('the view to list the team memories only', async () => {
      const listed = await ids(memoriesView);
      return listed.includes(id!) && !listed.includes(readSeed().id);
    });
  });

  it('a write by another client (the CLI) reaches the tools at once', async () => {
    const { id } = teamCli<{ id: string }>(
      'create',
      '--description',
      'Written outside VS Code to the team database',
      '--tags',
      'postgres,cli',
      '--content',
      'x',
    );
    const found = text(
      await vscode.lm.invokeTool('agent-memory_search', {
        input: { keywords: ['outside', 'team', 'database'] },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(found, new RegExp(id));
  });

  it('an unreachable server is a message in the status bar and the view, not a crash', async () => {
    const { session, memoriesView, status } = await api();
    await settings().update('postgres.url', 'postgres://postgres@127.0.0.1:1/nowhere', vscode.ConfigurationTarget.Workspace);
    await until('the store to be reopened', () => session.state.kind !== 'open');
    const nodes: MemoryNode[] = await memoriesView.getChildren();
    assert.deepEqual(nodes, []);
    await until('the failure to be reported', () => session.state.kind === 'failed');
    assert.match((session.state as { message: string }).message, /127\.0\.0\.1:1/);
    assert.match(status.text, /unavailable/);
    assert.match(String(status.tooltip), /127\.0\.0\.1:1/);
    assert.match(memoriesView.view?.message ?? '', /127\.0\.0\.1:1/);
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('agent-memory_search', { input: { keywords: ['pool'] }, toolInvocationToken: undefined })),
      /127\.0\.0\.1:1/,
    );
  });

  it('"Use the Workspace Store" switches back to the workspace folder\'s memories', async () => {
    const { memoriesView } = await api();
    await settings().update('postgres.url', dbUrl(), vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('agentMemory.useWorkspaceStore');
    assert.equal(settings().get('storage.backend'), 'workspace');
    await until('the view to list the workspace memories again', async () => (await ids(memoriesView)).includes(readSeed().id));
  });

  it("connecting can copy the workspace store (every memory version, and the playbook's records), and a second copy adds nothing", async () => {
    const seed = readSeed();
    // An episode in the workspace store: the copy moves the playbook's records too, not memory versions only.
    assert.equal(settings().get('storage.backend'), 'workspace'); // the test before switched back
    const recorded = text(
      await vscode.lm.invokeTool('agent-memory_recordEpisode', {
        input: { task: 'Copied to the team database with the memories', outcome: 'success', source: { type: 'commit', ref: 'abc1234' } },
        toolInvocationToken: undefined,
      }),
    );
    const episodeId = /Recorded episode ([0-9a-f-]{36})/.exec(recorded)?.[1];
    assert.ok(episodeId, recorded);
    const connect = () =>
      vscode.commands.executeCommand<boolean>('agentMemory.connectTeamDatabase', {
        url: dbUrl(),
        project: 'vscode-copy',
        tls: 'off',
        password: '',
        copyWorkspaceMemories: true,
      });
    assert.equal(await connect(), true);
    const copied = teamCliIn<{ description: string; version: number }>('vscode-copy', 'read', seed.id);
    assert.equal(copied.description, seed.description);
    const versions = teamCliIn<unknown[]>('vscode-copy', 'history', seed.id).length;
    assert.equal(teamCliIn<{ id: string }>('vscode-copy', 'episode', 'show', episodeId).id, episodeId);
    const episodes = () => teamCliIn<{ items: unknown[] }>('vscode-copy', 'episode', 'list', '--limit', '100').items.length;
    const copiedEpisodes = episodes();
    // The team database is now in use: switching back and connecting again copies nothing twice.
    await vscode.commands.executeCommand('agentMemory.useWorkspaceStore');
    assert.equal(await connect(), true);
    assert.equal(teamCliIn<unknown[]>('vscode-copy', 'history', seed.id).length, versions);
    assert.equal(episodes(), copiedEpisodes);
  });
});
