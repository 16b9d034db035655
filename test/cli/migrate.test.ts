import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { freshDatabase, freshProject, requirePostgres, withClient } from '../helpers/postgres';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** Runs the bundled CLI in its own process, with the given extra environment. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com', AGENT_MEMORY_DATABASE_URL: '', AGENT_MEMORY_PROJECT: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: ReturnType<typeof cli>): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

describe('CLI on PostgreSQL: --store postgres://, AGENT_MEMORY_DATABASE_URL, migrate (dist/cli.js in a child process)', function () {
  this.timeout(120_000);
  let url: string;
  before(async function () {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first');
    url = await requirePostgres(this);
  });

  it('migrates a folder to PostgreSQL and back with every version and its history, idempotently', () => {
    const src = tmpDir();
    const { id } = JSON.parse(
      ok(cli(['--store', src, '--json', 'create', '--description', 'Vitest hangs on open handles', '--tags', 'vitest', '--content', 'v1'])),
    ) as { id: string };
    ok(cli(['--store', src, 'edit', id, '--content', 'v2']));
    ok(cli(['--store', src, 'delete', id]));
    const other = JSON.parse(
      ok(cli(['--store', src, '--json', 'create', '--description', 'Pin pnpm in CI', '--tags', 'pnpm,ci', '--content', 'x'])),
    ) as { id: string };
    const project = freshProject();

    const toPg = ok(cli(['migrate', '--from', src, '--to', url, '--project', project]));
    assert.match(toPg, /4 version\(s\) added, 0 skipped/);
    assert.match(
      ok(cli(['migrate', '--from', src, '--to', url, '--project', project])),
      /0 version\(s\) added, 4 skipped/,
      'a second run adds nothing',
    );

    // The same history, read through the team database.
    const history = JSON.parse(ok(cli(['--store', url, '--project', project, '--json', 'history', id]))) as Array<{
      version: number;
      op: string;
      content: string;
    }>;
    assert.deepEqual(
      history.map((h) => `${h.version}:${h.op}:${h.content}`),
      ['1:create:v1', '2:edit:v2', '3:delete:v2'],
    );
    const hits = JSON.parse(
      ok(cli(['--json', 'search', 'pnpm'], { AGENT_MEMORY_DATABASE_URL: url, AGENT_MEMORY_PROJECT: project })),
    ) as Array<{ id: string }>;
    assert.deepEqual(
      hits.map((h) => h.id),
      [other.id],
    );

    const back = tmpDir();
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', url, '--to', back], { AGENT_MEMORY_PROJECT: project }))), {
      added: 4,
      skipped: 0,
      records: { added: 0, skipped: 0 },
    });
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', url, '--to', back], { AGENT_MEMORY_PROJECT: project }))), {
      added: 0,
      skipped: 4,
      records: { added: 0, skipped: 0 },
    });
    const exported = (dir: string) =>
      ok(cli(['--store', dir, 'export']))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { rowId: string; dbRole?: string });
    // PostgreSQL recorded the role that inserted each row; the folder keeps that too.
    const rows = exported(back);
    assert.ok(rows.every((r) => typeof r.dbRole === 'string' && r.dbRole.length > 0));
    assert.deepEqual(
      rows.map(({ dbRole: _role, ...r }) => r),
      exported(src),
      'the round trip keeps every row as it was, in order',
    );
  });

  it("migrates a folder into a new team database in one load, its heads written by the bundle's load threads", async () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    try {
      const target = await freshDatabase(cleanup);
      const src = tmpDir();
      const created = (description: string, tags: string) =>
        (
          JSON.parse(ok(cli(['--store', src, '--json', 'create', '--description', description, '--tags', tags, '--content', 'x']))) as {
            id: string;
          }
        ).id;
      const kept = created('Pin pnpm in CI', 'pnpm,ci');
      const gone = created('Vitest hangs on open handles', 'vitest');
      ok(cli(['--store', src, 'delete', gone]));
      assert.match(ok(cli(['migrate', '--from', src, '--to', target, '--project', 'p'])), /3 version\(s\) added, 0 skipped/);
      // Found through the search vector and counts the threads wrote; the deleted memory counted nowhere.
      const hits = JSON.parse(ok(cli(['--store', target, '--project', 'p', '--json', 'search', 'pnpm']))) as Array<{ id: string }>;
      assert.deepEqual(
        hits.map((h) => h.id),
        [kept],
      );
      const counts = await withClient(
        target,
        async (c) =>
          (
            await c.query<{ term: string; n: number }>(
              `SELECT term, n::int FROM memory_term_counts WHERE term IN ('*', '=pnpm', '=vitest') ORDER BY term`,
            )
          ).rows,
      );
      assert.deepEqual(counts, [
        { term: '*', n: 1 },
        { term: '=pnpm', n: 1 },
      ]);
    } finally {
      for (const c of cleanup.splice(0)) await c();
    }
  });

  it('copies the records of the playbook tiers (episodes, facts, …) both ways, every version, idempotently', async () => {
    const src = tmpDir();
    const store = await SqlJsStore.open({ dir: src });
    const fact = {
      rowId: randomUUID(),
      kind: 'fact' as const,
      id: randomUUID(),
      version: 1,
      op: 'create' as const,
      status: 'active',
      keys: ['api', 'owned_by', 'team-x'] as [string, string, string],
      rank: 0.8,
      dueAt: null,
      data: { subject: 'api' },
      changedAt: '2026-01-01T00:00:00.000Z',
      deletedAt: null,
      author: 'ana',
    };
    const retracted = {
      ...fact,
      rowId: randomUUID(),
      version: 2,
      op: 'edit' as const,
      status: 'retracted',
      changedAt: '2026-01-02T00:00:00.000Z',
    };
    await store.records.write('f', () => [fact]);
    await store.records.write('f', () => [retracted]);
    await store.close();
    const project = freshProject();
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', src, '--to', url, '--project', project]))), {
      added: 0,
      skipped: 0,
      records: { added: 2, skipped: 0 },
    });
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', src, '--to', url, '--project', project]))), {
      added: 0,
      skipped: 0,
      records: { added: 0, skipped: 2 },
    });
    const back = tmpDir();
    assert.match(
      ok(cli(['migrate', '--from', url, '--to', back, '--project', project])),
      /2 record\(s\) of episodes, facts, skills and proposals added, 0 skipped/,
    );
    const again = await SqlJsStore.open({ dir: back });
    const kept = await again.records.history('fact', fact.id);
    assert.ok(
      kept.every((r) => r.dbRole),
      'with the role PostgreSQL recorded',
    );
    assert.deepEqual(
      kept.map(({ dbRole: _role, ...r }) => r),
      [fact, retracted],
    );
    await again.close();
  });

  it('migrates a journal merged from two clones (two rows per version number) both ways: every row kept, the same current version, idempotently', () => {
    const a = tmpDir();
    const create = (description: string) =>
      (
        JSON.parse(ok(cli(['--store', a, '--json', 'create', '--description', description, '--tags', 'merge', '--content', 'v1']))) as {
          id: string;
        }
      ).id;
    const first = create('Retry budget for the payments client');
    const second = create('Cache headers on the CDN edge');
    // A clone of the store, then each side edits version 1 of both memories: the clone first
    // for `first` (so A's edit is newer), A first for `second` (so the clone's edit is newer).
    const b = tmpDir();
    fs.cpSync(a, b, { recursive: true });
    ok(cli(['--store', b, 'edit', first, '--content', 'clone v2']));
    ok(cli(['--store', a, 'edit', first, '--content', 'ours v2']));
    ok(cli(['--store', a, 'edit', second, '--content', 'ours v2']));
    ok(cli(['--store', b, 'edit', second, '--content', 'clone v2']));
    // What git's union merge driver makes of the two journals: our lines, then the clone's new ones.
    const lines = (dir: string) => fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
    const ours = lines(a);
    fs.writeFileSync(path.join(a, 'journal.jsonl'), [...ours, ...lines(b).filter((l) => !ours.includes(l))].join('\n') + '\n');
    const history = (args: string[], id: string) =>
      (JSON.parse(ok(cli([...args, '--json', 'history', id]))) as Array<{ version: number; content: string }>).map(
        (h) => `${h.version}:${h.content}`,
      );
    const current = (args: string[], id: string) => (JSON.parse(ok(cli([...args, '--json', 'read', id]))) as { content: string }).content;
    assert.deepEqual(history(['--store', a], first), ['1:v1', '2:clone v2', '2:ours v2'], 'the merged folder holds both version 2 rows');
    assert.equal(current(['--store', a], first), 'ours v2');
    assert.equal(current(['--store', a], second), 'clone v2');

    const project = freshProject();
    const pg = ['--store', url, '--project', project];
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', a, '--to', url, '--project', project]))), {
      added: 6,
      skipped: 0,
      records: { added: 0, skipped: 0 },
    });
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', a, '--to', url, '--project', project]))), {
      added: 0,
      skipped: 6,
      records: { added: 0, skipped: 0 },
    });
    for (const id of [first, second]) {
      assert.deepEqual(history(pg, id), history(['--store', a], id), 'the same rows, numbers and order on PostgreSQL');
      assert.equal(current(pg, id), current(['--store', a], id), 'the same current version as the workspace store');
    }

    const back = tmpDir();
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', url, '--to', back, '--project', project]))), {
      added: 6,
      skipped: 0,
      records: { added: 0, skipped: 0 },
    });
    assert.deepEqual(JSON.parse(ok(cli(['--json', 'migrate', '--from', url, '--to', back, '--project', project]))), {
      added: 0,
      skipped: 6,
      records: { added: 0, skipped: 0 },
    });
    for (const id of [first, second]) {
      assert.deepEqual(history(['--store', back], id), history(['--store', a], id));
      assert.equal(current(['--store', back], id), current(['--store', a], id));
    }
    // A write after the migration is numbered after both twins.
    assert.equal((JSON.parse(ok(cli([...pg, '--json', 'edit', first, '--content', 'v3']))) as { version: number }).version, 3);
  });

  it('writes and restores through --store postgres:// like through a folder', () => {
    const project = freshProject();
    const s = ['--store', url, '--project', project];
    const { id } = JSON.parse(
      ok(cli([...s, '--json', 'create', '--description', 'Flaky e2e login', '--tags', 'e2e', '--content', 'c'])),
    ) as { id: string };
    ok(cli([...s, 'delete', id]));
    assert.deepEqual(JSON.parse(ok(cli([...s, '--json', 'search', 'e2e']))), []);
    assert.deepEqual(JSON.parse(ok(cli([...s, '--json', 'restore', id]))), { id, version: 3, restoredFrom: 1 });
    assert.equal(JSON.parse(ok(cli([...s, '--json', 'list']))).items.length, 1);
  });

  it('refuses a connection string holding a password, without repeating it, and writes nothing', () => {
    const u = new URL(url);
    u.username ||= 'postgres';
    u.password = 's3cretPassw0rd';
    const withPassword = u.toString();
    const r = cli(['--store', withPassword, 'list']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /holds a password; leave it out and set PGPASSWORD/);
    assert.ok(!r.stderr.includes('s3cretPassw0rd'));
    const m = cli(['migrate', '--from', tmpDir(), '--to', withPassword]);
    assert.equal(m.code, 2);
    assert.ok(!m.stderr.includes('s3cretPassw0rd'));
  });

  it('says which server it cannot reach, and exits 1', () => {
    const r = cli(['--store', 'postgres://nobody@127.0.0.1:1/none', 'list']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(database none, user nobody\)/);
  });
});

describe('CLI migrate between folders: a workspace given by its root, a folder without a store (dist/cli.js in a child process)', function () {
  this.timeout(60_000);

  it("copies from and into a workspace's .agent-memory when given the workspace's folder", () => {
    const ws = tmpDir();
    const { id } = JSON.parse(
      ok(
        cli([
          '--store',
          path.join(ws, '.agent-memory'),
          '--json',
          'create',
          '--description',
          'Jest hangs on open handles',
          '--tags',
          'jest',
          '--content',
          'v1',
        ]),
      ),
    ) as { id: string };
    const other = tmpDir();
    ok(
      cli([
        '--store',
        path.join(other, '.agent-memory'),
        'create',
        '--description',
        'Pnpm hoisting breaks eslint plugins',
        '--tags',
        'pnpm',
        '--content',
        'public-hoist-pattern',
      ]),
    );
    // `--from .` in a workspace: its store, not an empty one in the workspace's root.
    const out = spawnSync(process.execPath, [CLI, 'migrate', '--from', '.', '--to', other], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com', AGENT_MEMORY_DATABASE_URL: '', AGENT_MEMORY_PROJECT: '' },
    });
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /1 version\(s\) added, 0 skipped/);
    assert.equal(fs.existsSync(path.join(other, 'journal.jsonl')), false, 'nothing written beside the workspace store');
    const copied = JSON.parse(ok(cli(['--store', path.join(other, '.agent-memory'), '--json', 'read', id]))) as { content: string };
    assert.equal(copied.content, 'v1');
  });

  it('refuses a source folder that holds no store, naming where it looked, and writes nothing', () => {
    const empty = tmpDir();
    const to = tmpDir();
    const r = cli(['migrate', '--from', empty, '--to', to]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /holds no store/);
    assert.ok(r.stderr.includes(path.join(empty, '.agent-memory', 'journal.jsonl')), r.stderr);
    assert.deepEqual(fs.readdirSync(to), []);
    assert.deepEqual(fs.readdirSync(empty), []);
  });
});
