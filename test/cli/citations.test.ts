import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckOutput, ReadOutput } from '../../src/core/contract';
import type { z } from 'zod';
import { changeCitedFiles, CITED, staleScores, writeCitedFiles } from '../helpers/citedRepo';
import { CLI, call, ok, running, startServer, texts } from '../helpers/mcpClient';
import { tmpDir } from '../helpers/tmp';

type Check = z.output<typeof CheckOutput>;
type Read = z.output<typeof ReadOutput>;
const label = (c: { path: string; startLine?: number; endLine?: number }) =>
  c.startLine === undefined ? c.path : `${c.path}:${c.startLine}-${c.endLine ?? c.startLine}`;

/** `agent-memory ARGS` run in `cwd` (the store is found there: the repository's .agent-memory). */
function cli(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli@example.com' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('citations through the CLI and the MCP server (dist/cli.js, a real git repository)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.client.close()));
  });

  it('CLI: create --cite, then check lists exactly the stale memories (precision and recall 1.0), read says what happened, --fail-on-stale exits 3', () => {
    const root = tmpDir('am-cite-cli-');
    writeCitedFiles(root);
    const sub = path.join(root, 'src'); // run from a sub-folder: paths stay relative to the workspace root
    const ids = new Map<string, string>();
    for (const m of CITED) {
      const cites = m.citations.flatMap((c) => ['--cite', label(c)]);
      const r = cli(sub, 'create', '--description', m.description, '--tags', m.tags.join(','), '--content', m.content, ...cites);
      assert.equal(r.status, 0, r.stderr);
      ids.set(m.key, r.stdout.trim());
    }
    const before = cli(root, 'check', '--fail-on-stale');
    assert.equal(before.status, 0, before.stderr);
    assert.match(before.stdout, new RegExp(`^0 stale; ${CITED.length} memories cite code\\.$`, 'm'));

    changeCitedFiles(root);
    const r = cli(root, '--json', 'check');
    assert.equal(r.status, 0, r.stderr);
    const check = JSON.parse(r.stdout) as Check;
    const staleIds = new Set(check.stale.map((s) => s.id));
    assert.deepEqual(staleScores(new Map(CITED.map((m) => [m.key, staleIds.has(ids.get(m.key)!)]))), {
      precision: 1,
      recall: 1,
      wrong: [],
    });
    assert.equal(cli(root, 'check', '--fail-on-stale').status, 3);

    const renamed = cli(root, 'read', ids.get('renamed')!);
    assert.match(renamed.stdout, /^cites: +renamed +src\/old\.ts was renamed to src\/new\.ts/m);
    assert.match(renamed.stdout, /^stale: +This memory cites code that has changed/m);
    assert.match(cli(root, 'search', 'legacy').stdout, /\[stale\] Legacy mode is switched on by legacyFlag/);
    assert.doesNotMatch(cli(root, 'search', 'json').stdout, /\[stale\]/);

    // Editing re-anchors; --no-cite drops; a citation of a missing file is refused, naming --cite's value.
    assert.equal(cli(root, 'edit', ids.get('changed')!, '--content', 'Port 9090.').status, 0);
    assert.equal(cli(root, 'edit', ids.get('deleted')!, '--no-cite').status, 0);
    const bad = cli(root, 'edit', ids.get('removed')!, '--cite', 'src/nope.ts');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /src\/nope\.ts does not exist in the workspace/);
    const after = JSON.parse(cli(root, '--json', 'check').stdout) as Check;
    assert.equal(after.stale.length, check.stale.length - 2);
  });

  it('MCP: create with citations, then read and search tell the model which memories are stale (precision and recall 1.0)', async () => {
    const root = tmpDir('am-cite-mcp-');
    writeCitedFiles(root);
    const s = await startServer(path.join(root, '.agent-memory'));
    const ids = new Map<string, string>();
    for (const m of CITED) {
      const out = await ok<{ id: string }>(s, 'agent-memory_create', {
        description: m.description,
        tags: m.tags,
        content: m.content,
        citations: m.citations,
      });
      ids.set(m.key, out.id);
    }
    changeCitedFiles(root);
    const reported = new Map<string, boolean>();
    for (const m of CITED) {
      const res = await call(s, 'agent-memory_read', { id: ids.get(m.key) });
      const memory = res.structuredContent as Read;
      assert.equal(memory.citations![0]!.status, m.expected, m.key);
      reported.set(m.key, memory.freshness === 'stale');
      if (memory.freshness === 'stale') assert.match(texts(res)[0]!, /STALE: This memory cites code that has changed/);
      else assert.doesNotMatch(texts(res)[0]!, /STALE/);
    }
    assert.deepEqual(staleScores(reported), { precision: 1, recall: 1, wrong: [] });
    const hits = await ok<{ results: Array<{ id: string; freshness?: string }> }>(s, 'agent-memory_search', { keywords: ['config'] });
    assert.equal(hits.results.find((h) => h.id === ids.get('changed'))?.freshness, 'stale');
    const bad = await call(s, 'agent-memory_create', {
      description: 'x',
      tags: ['x'],
      content: 'y',
      citations: [{ path: '../outside.ts' }],
    });
    assert.equal(bad.isError, true);
    assert.match(texts(bad).join(''), /must stay inside the workspace/);
  });
});
