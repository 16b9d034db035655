import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI (dist/cli.js) as a user would, in its own process. */
function cli(store: string, args: string[], input?: string): Run {
  const r = spawnSync(process.execPath, [CLI, '--store', store, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: Run): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

function refused(r: Run, re: RegExp): void {
  assert.equal(r.code, 2, `expected exit 2, got ${r.code}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line on stderr, got:\n${r.stderr}`);
  assert.match(r.stderr, re);
}

const journalBytes = (store: string) => {
  const f = path.join(store, 'journal.jsonl');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
};

describe('CLI (dist/cli.js in a child process)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));

  it('creates, searches, reads, edits, deletes, restores and shows history', () => {
    const s = tmpDir();
    const { id } = JSON.parse(
      ok(
        cli(s, [
          '--json',
          'create',
          '--description',
          'Jest fails on ESM-only packages',
          '--tags',
          'Jest, ESM',
          '--content',
          'Un-ignore it in transformIgnorePatterns.',
        ]),
      ),
    ) as { id: string };
    assert.match(id, /^[0-9a-f-]{36}$/);

    const hits = JSON.parse(ok(cli(s, ['--json', 'search', 'jest']))) as Array<{ id: string; tags: string[] }>;
    assert.deepEqual(hits, [{ id, description: 'Jest fails on ESM-only packages', tags: ['jest', 'esm'] }]);
    assert.match(ok(cli(s, ['search', 'esm'])), new RegExp(`${id}  Jest fails`));

    const read = JSON.parse(ok(cli(s, ['read', id, '--json'])));
    assert.equal(read.version, 1);
    assert.equal(read.author, 'cli-test@example.com');

    const edit = JSON.parse(ok(cli(s, ['--json', 'edit', id, '--tags', 'jest,esm,testing', '--expect-version', '1'])));
    assert.deepEqual(edit, { id, version: 2, changed: true, changedFields: ['tags'] });
    assert.match(ok(cli(s, ['edit', id, '--tags', 'jest,esm,testing'])), /Nothing changed/);

    assert.match(ok(cli(s, ['delete', id])), /Deleted .* \(version 3\)/);
    assert.deepEqual(JSON.parse(ok(cli(s, ['--json', 'search', 'jest']))), []);
    assert.deepEqual(JSON.parse(ok(cli(s, ['--json', 'restore', id]))), { id, version: 4, restoredFrom: 2 });

    const history = JSON.parse(ok(cli(s, ['--json', 'history', id]))) as Array<{ op: string; version: number }>;
    assert.deepEqual(
      history.map((h) => `${h.version}:${h.op}`),
      ['1:create', '2:edit', '3:delete', '4:restore'],
    );
    assert.match(ok(cli(s, ['history', id])), /v3 .* delete/);
  });

  it('takes content from a file or from stdin', () => {
    const s = tmpDir();
    const file = path.join(tmpDir(), 'note.md');
    fs.writeFileSync(file, '# From a file\nbody');
    const a = ok(cli(s, ['create', '--description', 'file', '--tags', 'x', '--content-file', file])).trim();
    const b = ok(cli(s, ['create', '--description', 'stdin', '--tags', 'x'], 'piped body\n')).trim();
    assert.equal(JSON.parse(ok(cli(s, ['--json', 'read', a]))).content, '# From a file\nbody');
    assert.equal(JSON.parse(ok(cli(s, ['--json', 'read', b]))).content, 'piped body\n');
  });

  it('refuses bad input with exit 2, one line naming the field and rule, and writes nothing', () => {
    const s = tmpDir();
    const { id } = JSON.parse(ok(cli(s, ['--json', 'create', '--description', 'd', '--tags', 'a', '--content', 'c'])));
    const before = journalBytes(s);
    refused(
      cli(s, ['create', '--description', 'x'.repeat(501), '--tags', 'a', '--content', 'c']),
      /description: is 501 characters; the limit is 500/,
    );
    refused(cli(s, ['create', '--description', 'd', '--tags', 'ok,not ok!', '--content', 'c']), /tags\[1\]: tag contains "!"/);
    refused(
      cli(s, ['create', '--description', 'd', '--tags', 'a', '--content', ['AKIA', 'ABCDEFGHIJKLMNOP'].join('')]),
      /content: line 1 .*AWS access key id/,
    );
    refused(cli(s, ['edit', id, '--content', 'new', '--expect-version', '7']), /at version 1, not 7/);
    refused(cli(s, ['read', '3f2a0c8e-1b7d-4c47-9a55-6b1e2d3c4b5a']), /does not exist/);
    refused(cli(s, ['read', 'not-an-id']), /id: must be a memory id/);
    refused(cli(s, ['search']), /at least one keyword/);
    refused(cli(s, ['list', '--limit', 'ten']), /limit: must be a whole number/);
    refused(cli(s, ['list', '--limit', '1001']), /limit: is at most 1000/);
    refused(cli(s, ['purge', id]), /--yes/);
    refused(cli(s, ['frobnicate']), /unknown command "frobnicate"/);
    // In our words (issue 15), not Node's "Unknown option"; as strict as before.
    refused(cli(s, ['create', '--bogus', 'x']), /create: unknown flag --bogus; usage: agent-memory create /);
    refused(cli(s, ['--jsn']), /unknown flag --jsn; did you mean --json\?/);
    assert.equal(journalBytes(s), before);

    // A refused command against a store that does not exist yet leaves no folder behind.
    const fresh = path.join(tmpDir(), 'not-yet');
    refused(cli(fresh, ['read', 'not-an-id']), /id: must be a memory id/);
    assert.deepEqual(JSON.parse(ok(cli(fresh, ['--json', 'search', 'anything']))), []);
    assert.equal(fs.existsSync(fresh), false, 'reading or refusing created the store folder');
  });

  it('lists in pages with the documented JSON shape', () => {
    const s = tmpDir();
    const rows = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({
        rowId: `00000000-0000-4000-8000-00000000000${i}`,
        id: `10000000-0000-4000-8000-00000000000${i}`,
        version: 1,
        op: 'create',
        description: `memory ${i}`,
        tags: ['t'],
        content: 'c',
        changedAt: `2026-01-0${i + 1}T00:00:00.000Z`,
        deletedAt: null,
        author: 'x',
      }),
    );
    const file = path.join(tmpDir(), 'rows.jsonl');
    fs.writeFileSync(file, rows.join('\n') + '\n');
    ok(cli(s, ['import', file]));
    const p1 = JSON.parse(ok(cli(s, ['--json', 'list', '--limit', '2'])));
    assert.deepEqual(Object.keys(p1).sort(), ['items', 'nextCursor']);
    assert.deepEqual(
      p1.items.map((i: { description: string }) => i.description),
      ['memory 4', 'memory 3'],
    );
    assert.deepEqual(Object.keys(p1.items[0]).sort(), ['changedAt', 'description', 'id', 'tags']);
    const p2 = JSON.parse(ok(cli(s, ['--json', 'list', '--limit', '2', '--cursor', p1.nextCursor])));
    const p3 = JSON.parse(ok(cli(s, ['--json', 'list', '--limit', '2', '--cursor', p2.nextCursor])));
    assert.deepEqual(
      p3.items.map((i: { description: string }) => i.description),
      ['memory 0'],
    );
    assert.equal(p3.nextCursor, null);
  });

  it('exports every version and imports it idempotently elsewhere; purge erases for good', () => {
    const a = tmpDir();
    const id = ok(cli(a, ['create', '--description', 'd', '--tags', 'a', '--content', 'c'])).trim();
    ok(cli(a, ['edit', id, '--content', 'c2']));
    const out = path.join(tmpDir(), 'export.jsonl');
    ok(cli(a, ['export', out]));
    assert.equal(fs.readFileSync(out, 'utf8').trim().split('\n').length, 2);
    assert.equal(
      ok(cli(a, ['export']))
        .trim()
        .split('\n').length,
      2,
    );

    const b = tmpDir();
    assert.match(ok(cli(b, ['import', out])), /Imported 2 version\(s\); 0 skipped \(already present, or of a purged memory\)/);
    assert.match(ok(cli(b, ['import', out])), /Imported 0 version\(s\); 2 skipped \(already present, or of a purged memory\)/);
    assert.equal(JSON.parse(ok(cli(b, ['--json', 'read', id]))).content, 'c2');

    const bad = path.join(tmpDir(), 'bad.jsonl');
    fs.writeFileSync(bad, fs.readFileSync(out, 'utf8') + '{not json\n');
    const before = journalBytes(a);
    refused(cli(a, ['import', bad]), /line 3: is not valid JSON/);
    assert.equal(journalBytes(a), before);

    assert.deepEqual(JSON.parse(ok(cli(b, ['--json', 'purge', id, '--yes']))), { id, versionsRemoved: 2 });
    // The old backup cannot bring a purged memory back, and the summary says why its rows were skipped.
    assert.match(ok(cli(b, ['import', out])), /Imported 0 version\(s\); 2 skipped \(already present, or of a purged memory\)/);
    refused(cli(b, ['read', id]), /does not exist/);

    // A backup holds every tier: an episode and a fact go out and come back; --memories-only leaves them out.
    ok(cli(a, ['episode', 'record', '--task', 'Ship the hotfix', '--outcome', 'success', '--source', 'issue:#4']));
    const all = path.join(tmpDir(), 'all.jsonl');
    ok(cli(a, ['export', all]));
    const lines = fs
      .readFileSync(all, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind?: string });
    assert.deepEqual(
      lines.map((l) => l.kind ?? 'version'),
      ['version', 'version', 'episode'],
    );
    assert.equal(
      ok(cli(a, ['export', '--memories-only']))
        .trim()
        .split('\n').length,
      2,
    );
    const c = tmpDir();
    assert.match(
      ok(cli(c, ['import', all])),
      /Imported 2 version\(s\); 0 skipped \(already present, or of a purged memory\)\.\nImported 1 record\(s\) of the other tiers; 0 skipped \(already present, or forgotten\)/,
    );
    assert.match(ok(cli(c, ['episode', 'list'])), /Ship the hotfix/);
    assert.match(ok(cli(c, ['import', all])), /Imported 0 record\(s\) of the other tiers; 1 skipped \(already present, or forgotten\)/);
    const badRecord = path.join(tmpDir(), 'bad-record.jsonl');
    fs.writeFileSync(badRecord, `${JSON.stringify({ ...lines[2], kind: 'gossip' })}\n`);
    refused(cli(tmpDir(), ['import', badRecord]), /line 1: kind: is one of episode, fact, skill/);
    refused(cli(b, ['read', id]), /does not exist/);
  });

  it('suggests existing tags and prints help', () => {
    const s = tmpDir();
    ok(cli(s, ['create', '--description', 'd', '--tags', 'build', '--content', 'c']));
    const t = JSON.parse(ok(cli(s, ['--json', 'tags', 'Builds'])));
    assert.deepEqual(t.tags, [{ tag: 'build', count: 1 }]);
    assert.equal(t.suggestions[0].similar[0].tag, 'build');
    assert.match(
      ok(cli(s, ['--help'])),
      /Usage: agent-memory \[--store DIR\|postgres:\/\/user@host\/db\] \[--project KEY\] \[--json\] \[--author NAME\] <command>/,
    );
  });
});
