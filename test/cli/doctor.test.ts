import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, CLI, ok } from '../helpers/cliRun';
import { freshProject, requirePostgres } from '../helpers/postgres';
import { tmpDir } from '../helpers/tmp';

/** A store with three memories and, between the first two lines, one a crash or a bad merge left unreadable. */
function damagedStore(): { s: string; journal: string; before: string[] } {
  const s = tmpDir();
  for (const word of ['jest', 'vite', 'webpack'])
    ok(cli(s, ['create', '--description', `${word} notes`, '--tags', word, '--content', word]));
  const journal = path.join(s, 'journal.jsonl');
  const before = fs.readFileSync(journal, 'utf8').split('\n');
  fs.writeFileSync(journal, [before[0], '{"v":1,"type":"memory.version","row":{"id":', ...before.slice(1)].join('\n'));
  return { s, journal, before };
}

describe('agent-memory doctor (dist/cli.js)', function () {
  this.timeout(120_000);

  it('finds nothing wrong in a healthy store, and says what it checked', () => {
    const s = tmpDir();
    ok(cli(s, ['create', '--description', 'jest notes', '--tags', 'jest', '--content', 'x']));
    const out = ok(cli(s, ['doctor']));
    assert.match(out, /ok {7}journal: 1 line\(s\)\n/);
    assert.match(out, /ok {7}index: .*matches the journal/);
    assert.match(out, /ok {7}snapshot: .*matches the journal/);
    assert.match(out, /No problems found\.\n$/);
    const json = JSON.parse(ok(cli(s, ['--json', 'doctor']))) as { findings: Array<{ problem: boolean }> };
    assert.ok(json.findings.every((f) => !f.problem));
  });

  it('names a damaged journal line (exit 3); --repair sets it aside with its number and every command stops warning', () => {
    const { s, journal, before } = damagedStore();
    assert.match(cli(s, ['list']).stderr, /warning: journal line at byte \d+ .* is not valid JSON/);
    const found = cli(s, ['doctor']);
    assert.equal(found.code, 3, found.stderr);
    assert.match(found.stdout, /problem {2}journal: line 2 \(byte \d+\) is not valid JSON; every command skips it and warns\n/);
    assert.match(found.stdout, /1 problem\(s\); agent-memory doctor --repair/);
    assert.ok(!fs.existsSync(path.join(s, 'journal.rejected.jsonl')), 'doctor alone writes nothing');

    const repaired = cli(s, ['doctor', '--repair']);
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.match(
      repaired.stdout,
      /^Repaired:\n {2}set aside journal line 2 \(byte \d+, is not valid JSON\) in .*journal\.rejected\.jsonl\n/,
    );
    assert.match(repaired.stdout, /No problems found\.\n$/);
    // The other lines are kept byte for byte; the damaged one is beside the journal with its number.
    assert.equal(fs.readFileSync(journal, 'utf8'), before.join('\n'));
    const rejected = fs
      .readFileSync(path.join(s, 'journal.rejected.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; text: string; reason: string });
    assert.deepEqual(
      rejected.map((r) => [r.line, r.text, r.reason]),
      [[2, '{"v":1,"type":"memory.version","row":{"id":', 'is not valid JSON']],
    );
    for (const args of [['list'], ['search', 'jest'], ['--json', 'list', '--deleted'], ['episode', 'list'], ['doctor']]) {
      const r = cli(s, args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, '', `${args.join(' ')} still warns`);
    }
    assert.equal(
      ok(cli(s, ['list']))
        .trim()
        .split('\n').length,
      3,
    );
  });

  it('repairs only under the write lock: it waits for a writer that holds it', async () => {
    const { s } = damagedStore();
    // A lock directory without its owner file yet (a writer that has just taken it) is held until it is stale (10 s).
    const lock = path.join(s, 'write.lock');
    fs.mkdirSync(lock);
    const started = Date.now();
    const repair = spawn(process.execPath, [CLI, '--store', s, 'doctor', '--repair'], {
      env: { ...process.env, AGENT_MEMORY_DATABASE_URL: '' },
    });
    let stdout = '';
    repair.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => repair.on('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 3000));
    assert.ok(!done, 'the repair waits for the lock');
    assert.ok(!fs.existsSync(path.join(s, 'journal.rejected.jsonl')), 'nothing set aside while another process holds the lock');
    fs.rmSync(lock, { recursive: true });
    const code = await exited;
    assert.equal(code, 0, stdout);
    assert.ok(Date.now() - started >= 3000);
    assert.ok(fs.existsSync(path.join(s, 'journal.rejected.jsonl')));
  });

  it('reports a broken policy.yaml and ontology.yaml with their lines (exit 3); --repair leaves them to a person', () => {
    const s = tmpDir();
    fs.mkdirSync(s, { recursive: true });
    fs.writeFileSync(path.join(s, 'policy.yaml'), 'episodic:\n  ttl_day: 3\n');
    fs.writeFileSync(path.join(s, 'ontology.yaml'), 'types: [service]\nrelations:\n  - { name: owns }\n');
    const r = cli(s, ['doctor', '--repair']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stdout, /problem {2}policy: .*line 2: unknown key episodic\.ttl_day/);
    assert.match(r.stdout, /problem {2}ontology: .*line 3/);
    assert.doesNotMatch(r.stdout, /Repaired/);
  });

  describe('on PostgreSQL', () => {
    let url: string;
    before(async function () {
      url = await requirePostgres(this);
    });

    it('checks the connection and the schema, and says repair applies to workspace stores', () => {
      const r = cli(url, ['--project', freshProject(), 'doctor', '--repair']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /ok {7}database: connected to postgres:\/\/.* schema version \d+, this release's\n/);
      assert.match(r.stdout, /ok {7}repair: --repair applies to workspace stores/);
    });
  });
});
