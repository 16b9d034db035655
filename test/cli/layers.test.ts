import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, cli, ok, refused, type Run } from '../helpers/cliRun';
import { tmpDir } from '../helpers/tmp';

const json = <T>(r: Run): T => JSON.parse(ok(r)) as T;

const SKILL = `name: fix-flaky-vitest
description: Make a flaky vitest suite deterministic
trigger:
  - flaky vitest test
preconditions:
  - the failure reproduces with --repeat
tools:
  - vitest
steps:
  - do: Run the suite with --sequence.shuffle to find order dependence
    tool: vitest
    expect: the failing test and the test before it
success_checks:
  - 20 runs in a row pass
failure_handling:
  - if it still fails, look for open handles
`;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe('CLI: episodes, facts, skills, pending, lifecycle, context (dist/cli.js in a child process)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));

  it('records, lists and shows episodes; refuses a transcript and a secret, writing nothing', () => {
    const s = path.join(tmpDir(), '.agent-memory');
    refused(
      cli(s, ['episode', 'record', '--task', 'Fix CI', '--outcome', 'success', '--source', 'chat:User: hi\nAssistant: hello']),
      /source\.ref/,
    );
    refused(
      cli(s, [
        'episode',
        'record',
        '--task',
        `Rotate ${['AKIA', 'ABCDEFGHIJKLMNOP'].join('')}`,
        '--outcome',
        'success',
        '--source',
        'issue:#1',
      ]),
      /task: line 1 .*AWS access key/,
    );
    refused(
      cli(s, ['episode', 'record', '--task', 'Fix CI', '--outcome', 'done', '--source', 'issue:#1']),
      /outcome: is one of success, failure, partial/,
    );
    assert.equal(fs.existsSync(s), false, 'a refused command creates nothing, not even the folder');
    ok(cli(s, ['skill', 'save', '-'], { input: SKILL }));
    const { id } = json<{ id: string }>(
      cli(s, [
        '--json',
        'episode',
        'record',
        '--task',
        'Fix the flaky vitest run',
        '--outcome',
        'failure',
        '--source',
        'issue:#42',
        '--tools',
        'vitest,git',
        '--input',
        'vitest --repeat 20',
        '--error',
        'open handles',
        '--error',
        'timeout',
        '--skill',
        'fix-flaky-vitest@1',
      ]),
    );
    const shown = json<{
      id: string;
      errors: string[];
      tools: string[];
      inputs: string[];
      skill: { name: string; version: number };
      executor: string;
    }>(cli(s, ['--json', 'episode', 'show', id]));
    assert.deepEqual(
      [shown.errors, shown.tools, shown.inputs, shown.skill, shown.executor],
      [['open handles', 'timeout'], ['vitest', 'git'], ['vitest --repeat 20'], { name: 'fix-flaky-vitest', version: 1 }, 'ana@example.com'],
    );
    assert.match(ok(cli(s, ['episode', 'list', '--outcome', 'failure'])), new RegExp(`${id}  .*failure  Fix the flaky vitest run`));
    assert.match(ok(cli(s, ['episode', 'list', '--outcome', 'success'])), /No episodes\./);
    refused(cli(s, ['episode', 'remove', id]), /unknown subcommand "remove": record, list, find, show/);
  });

  it('checks facts against the ontology file, disputes a contradiction, and a person resolves it', () => {
    const s = path.join(tmpDir(), '.agent-memory');
    fs.mkdirSync(s, { recursive: true });
    fs.writeFileSync(
      path.join(s, 'ontology.yaml'),
      'types: [service, team]\nrelations:\n  - name: owned_by\n    from: service\n    to: team\n    cardinality: one\n  - name: depends_on\n    from: service\n    to: service\n    cardinality: many\n',
    );
    assert.match(ok(cli(s, ['ontology', 'check'])), /owned_by: service → team \(one\)/);
    const assertFact = (object: string, source: string) =>
      cli(s, [
        '--json',
        'fact',
        'assert',
        '--subject',
        'service:billing',
        '--predicate',
        'owned_by',
        '--object',
        object,
        '--source',
        source,
        '--confidence',
        '0.8',
      ]);
    refused(
      cli(s, [
        'fact',
        'assert',
        '--subject',
        'service:billing',
        '--predicate',
        'maintained_by',
        '--object',
        'team:a',
        '--source',
        'x',
        '--confidence',
        '1',
      ]),
      /allowed relations: .*owned_by/,
    );
    refused(
      cli(s, [
        'fact',
        'assert',
        '--subject',
        'team:a',
        '--predicate',
        'owned_by',
        '--object',
        'service:billing',
        '--source',
        'x',
        '--confidence',
        '1',
      ]),
      /owned_by goes from service to team, .*reversed: did you mean "service:billing owned_by team:a"/,
    );
    const first = json<{ id: string; outcome: string }>(assertFact('team:payments', 'CODEOWNERS'));
    assert.equal(first.outcome, 'created');
    const second = json<{ id: string; outcome: string; disputes: Array<{ id: string; status: string; source: string }> }>(
      assertFact('team:platform', 'wiki/ownership'),
    );
    assert.equal(second.outcome, 'disputed');
    assert.deepEqual(second.disputes.map((d) => [d.status, d.source]).sort(), [
      ['disputed', 'CODEOWNERS'],
      ['disputed', 'wiki/ownership'],
    ]);
    ok(cli(s, ['fact', 'resolve', first.id, second.id, '--decision', 'keep-one', '--keep', second.id, '--reason', 'CODEOWNERS is stale']));
    const facts = json<{ items: Array<{ id: string; status: string }> }>(
      cli(s, ['--json', 'fact', 'query', '--subject', 'Service:Billing']),
    );
    assert.deepEqual(
      facts.items.map((f) => [f.id, f.status]),
      [[second.id, 'active']],
    );
    const all = json<{ items: Array<{ id: string; status: string }> }>(
      cli(s, ['--json', 'fact', 'query', '--subject', 'service:billing', '--all']),
    );
    assert.deepEqual(all.items.map((f) => f.status).sort(), ['active', 'retracted']);
    // A broken ontology is reported with its line; memory commands keep working.
    fs.writeFileSync(path.join(s, 'ontology.yaml'), 'types: [service]\nrelations:\n  - name: owned_by\n    from: service\n    to: team\n');
    refused(cli(s, ['fact', 'query', '--subject', 'service:billing']), /ontology\.yaml line \d+: .*team/);
    ok(cli(s, ['search', 'billing']));
  });

  it('saves skills from YAML (a broken one refused with its line), finds, reads with success rates, exports', () => {
    const dir = tmpDir();
    const s = path.join(dir, '.agent-memory');
    const file = path.join(dir, 'skill.yaml');
    fs.writeFileSync(file, SKILL.replace('    expect: the failing test and the test before it\n', ''));
    refused(cli(s, ['skill', 'save', file]), /line \d+: steps\[0\]\.expect is missing/);
    fs.writeFileSync(file, SKILL);
    assert.match(ok(cli(s, ['skill', 'save', file])), /Saved fix-flaky-vitest version 1/);
    assert.match(ok(cli(s, ['skill', 'save', '-'], { input: SKILL })), /Nothing changed/);
    assert.match(ok(cli(s, ['skill', 'find', 'a', 'flaky', 'vitest', 'test', 'in', 'CI'])), /^fix-flaky-vitest@1/);
    assert.match(ok(cli(s, ['skill', 'find', 'deploy', 'the', 'docs', 'site'])), /No skill matches/);
    for (const outcome of ['success', 'success', 'failure'])
      ok(
        cli(s, [
          'episode',
          'record',
          '--task',
          'flaky vitest',
          '--outcome',
          outcome,
          '--source',
          'issue:#7',
          '--skill',
          'fix-flaky-vitest@1',
        ]),
      );
    const read = ok(cli(s, ['skill', 'read', 'fix-flaky-vitest']));
    assert.match(read, /^name: fix-flaky-vitest$/m);
    assert.match(read, /7 days 67%, .*all time 67% \(3 episodes\)/);
    assert.equal(ok(cli(s, ['skill', 'export', 'fix-flaky-vitest'])).includes('- do: Run the suite with --sequence.shuffle'), true);
  });

  it('promotes repeated successes recorded by two authors into a pending draft that a person approves', () => {
    const s = path.join(tmpDir(), '.agent-memory');
    const record = (author: string, extra: string[] = []) =>
      ok(
        cli(
          s,
          [
            'episode',
            'record',
            '--task',
            'Upgrade the node version in the CI workflow',
            '--outcome',
            'success',
            '--source',
            'pull-request:12',
            '--tags',
            'ci,node',
            '--tools',
            'gh,npm',
            '--error',
            'engine mismatch',
            ...extra,
          ],
          { author },
        ),
      );
    record('ana@example.com');
    record('ana@example.com');
    assert.match(ok(cli(s, ['skill', 'promote'])), /No group of episodes is ready/);
    record('ana@example.com', ['--executor', 'bo@example.com']);
    assert.match(
      ok(cli(s, ['skill', 'promote'])),
      /No group of episodes is ready/,
      '--executor is a label: one author naming another executor is still one author',
    );
    record('bo@example.com');
    const { proposals } = json<{ proposals: string[] }>(cli(s, ['--json', 'skill', 'promote']));
    assert.equal(proposals.length, 1);
    assert.match(ok(cli(s, ['pending', 'list'])), new RegExp(`${proposals[0]}  pending .*skill: new skill`));
    refused(cli(s, ['pending', 'reject', proposals[0]!]), /reason/);
    const approved = json<{ state: string; resultId: string; by: string }>(
      cli(s, ['--json', 'pending', 'approve', proposals[0]!], { author: 'lead@example.com' }),
    );
    assert.deepEqual([approved.state, approved.by], ['approved', 'lead@example.com']);
    const skills = json<{ items: Array<{ id: string; author: string }> }>(cli(s, ['--json', 'skill', 'list']));
    assert.deepEqual(
      skills.items.map((k) => [k.id, k.author]),
      [[approved.resultId, 'lead@example.com']],
    );
    assert.match(ok(cli(s, ['skill', 'promote'])), /No group of episodes is ready/, 'a covered group is not proposed again');
  });

  it("a forgetting run forgets episodes past the policy file's TTL (gone from the journal) and reports; a bad policy file is refused with its line", () => {
    const s = path.join(tmpDir(), '.agent-memory');
    const old = json<{ id: string }>(
      cli(s, [
        '--json',
        'episode',
        'record',
        '--task',
        'Old thing',
        '--outcome',
        'success',
        '--source',
        'issue:#1',
        '--timestamp',
        daysAgo(40),
      ]),
    );
    const fresh = json<{ id: string }>(
      cli(s, ['--json', 'episode', 'record', '--task', 'New thing', '--outcome', 'success', '--source', 'issue:#2']),
    );
    fs.writeFileSync(path.join(s, 'policy.yaml'), 'episodic:\n  ttl_days: 30\n');
    assert.match(ok(cli(s, ['policy', 'show'])), /ttl_days: 30/);
    const report = json<{ forgottenEpisodes: number; trigger: string }>(cli(s, ['--json', 'lifecycle', 'run']));
    assert.deepEqual([report.forgottenEpisodes, report.trigger], [1, 'cli']);
    refused(cli(s, ['episode', 'show', old.id]), /not|no episode/i);
    ok(cli(s, ['episode', 'show', fresh.id]));
    assert.equal(
      fs.readFileSync(path.join(s, 'journal.jsonl'), 'utf8').includes('Old thing'),
      false,
      'forgotten means gone from the journal',
    );
    const reports = json<Array<{ forgottenEpisodes: number }>>(cli(s, ['--json', 'lifecycle', 'report']));
    assert.equal(reports[0]!.forgottenEpisodes, 1);
    fs.writeFileSync(path.join(s, 'policy.yaml'), 'episodic:\n  ttl_dayz: 30\n');
    refused(cli(s, ['lifecycle', 'run']), /policy\.yaml line 2: .*ttl_dayz/);
  });

  it('packs a context within the budget, with provenance', () => {
    const s = path.join(tmpDir(), '.agent-memory');
    ok(
      cli(s, [
        'create',
        '--description',
        'Vitest hangs when a test leaves an open handle',
        '--tags',
        'vitest,ci',
        '--content',
        'x'.repeat(3000),
      ]),
    );
    ok(
      cli(s, [
        'fact',
        'assert',
        '--subject',
        'vitest',
        '--predicate',
        'configured_in',
        '--object',
        'vitest.config.ts',
        '--source',
        'repo',
        '--confidence',
        '1',
      ]),
    );
    const c = json<{
      usedTokens: number;
      budget: number;
      items: Array<{ provenance: { kind: string } }>;
      omitted: { memoryDetails: number };
    }>(cli(s, ['--json', 'context', 'vitest', 'hangs', 'in', 'CI', '--max-tokens', '300']));
    assert.ok(c.usedTokens <= 300, `used ${c.usedTokens}`);
    assert.deepEqual(c.items.map((i) => i.provenance.kind).sort(), ['fact', 'memory']);
    assert.equal(c.omitted.memoryDetails, 1, 'the 3000-character content does not fit 300 tokens');
    refused(cli(s, ['context', 'x', '--max-tokens', '50']), /--max-tokens: is at least 200/); // the flag as typed, not the contract's maxTokens
  });
});
