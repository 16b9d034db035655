import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** Runs the bundled CLI on `store` in its own process; the answer as JSON, or the refusal. */
function cli(store: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, '--store', store, '--json', ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: { code: number | null; stdout: string; stderr: string }): Record<string, unknown> {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('CLI: ISO times with or without fractions, Z or an offset (dist/cli.js in a child process)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('episode record --timestamp and fact assert --observed-at/--valid-until store UTC milliseconds', () => {
    const s = tmpDir();
    const { id } = ok(
      cli(s, [
        'episode',
        'record',
        '--task',
        'Fix CI',
        '--outcome',
        'success',
        '--source',
        'issue:#1',
        '--timestamp',
        '2026-01-01T00:00:00Z',
      ]),
    ) as { id: string };
    assert.equal(ok(cli(s, ['episode', 'show', id])).timestamp, '2026-01-01T00:00:00.000Z');

    const fact = ok(
      cli(s, [
        'fact',
        'assert',
        '--subject',
        'service:billing',
        '--predicate',
        'owned_by',
        '--object',
        'team:payments',
        '--source',
        'https://example.com/owners',
        '--confidence',
        '0.9',
        '--observed-at',
        '2026-01-01T09:30:00+02:00',
        '--valid-until',
        '2099-06-01T00:00:00.5-05:00',
      ]),
    ) as { id: string };
    const shown = ok(cli(s, ['fact', 'show', fact.id]));
    assert.equal(shown.observedAt, '2026-01-01T07:30:00.000Z');
    assert.equal(shown.validUntil, '2099-06-01T05:00:00.500Z');

    const bad = cli(s, ['episode', 'record', '--task', 'T', '--outcome', 'success', '--source', 'issue:#1', '--timestamp', '2026-01-01']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /timestamp: must be an ISO-8601 time with a zone/);
  });

  it('imports version rows whose times have no milliseconds or an offset, stored as UTC milliseconds', () => {
    const a = tmpDir();
    const { id } = ok(cli(a, ['create', '--description', 'd', '--tags', 'a', '--content', 'c'])) as { id: string };
    const exported = spawnSync(process.execPath, [CLI, '--store', a, 'export'], { encoding: 'utf8' }).stdout;
    const row = JSON.parse(exported.trim()) as Record<string, unknown>;
    const file = path.join(tmpDir(), 'rows.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ ...row, changedAt: '2026-01-01T02:00:00+02:00' })}\n`);
    const b = tmpDir();
    assert.equal(ok(cli(b, ['import', file])).added, 1);
    assert.equal(ok(cli(b, ['read', id])).changedAt, '2026-01-01T00:00:00.000Z');
  });
});
