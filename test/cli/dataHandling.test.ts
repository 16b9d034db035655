import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { CLI, cli, ok, refused } from '../helpers/cliRun';
import { tmpDir } from '../helpers/tmp';

/** Issue 15's data-handling items as the CLI shows them (dist/cli.js in a child process). */

const SKILL = `name: fix-flaky-vitest
description: Make a flaky vitest suite deterministic
trigger:
  - flaky vitest test
tools:
  - vitest
steps:
  - do: Run the suite with --sequence.shuffle to find order dependence
    tool: vitest
    expect: the failing test and the test before it
success_checks:
  - 20 runs in a row pass
`;

describe('CLI: data handling (issue 15)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('skill save of a document with a stale version: exits 2 naming the current version, and keeps the teammate’s', () => {
    const s = tmpDir();
    ok(cli(s, ['skill', 'save', '-'], { input: SKILL }));
    const exported = ok(cli(s, ['skill', 'export', 'fix-flaky-vitest']));
    assert.match(exported, /^version: 1$/m);
    ok(cli(s, ['skill', 'save', '-'], { input: exported.replace('deterministic', 'deterministic again'), author: 'bo@example.com' }));
    refused(
      cli(s, ['skill', 'save', '-'], { input: exported.replace('vitest suite', 'vitest test suite') }),
      /skill "fix-flaky-vitest" is at version 2 \(saved by bo@example\.com at .*\), but this document says version 1/,
    );
    assert.match(ok(cli(s, ['skill', 'read', 'fix-flaky-vitest'])), /deterministic again/);
  });

  it('episode record --skill of an unknown skill or version: exits 2 naming the closest skills, writing nothing', () => {
    const s = tmpDir();
    ok(cli(s, ['skill', 'save', '-'], { input: SKILL }));
    const record = (ref: string) =>
      cli(s, ['episode', 'record', '--task', 'Fix CI', '--outcome', 'success', '--source', 'issue:#1', '--skill', ref]);
    refused(record('nonexistent@1'), /skill\.name: there is no skill "nonexistent" \(known skills: fix-flaky-vitest\)/);
    refused(record('fix-flaky-vitests@1'), /there is no skill "fix-flaky-vitests" \(closest known skills: fix-flaky-vitest\)/);
    refused(record('fix-flaky-vitest@2'), /skill "fix-flaky-vitest" has no version 2 \(its current version is 1; versions: 1\)/);
    assert.match(ok(cli(s, ['episode', 'list'])), /No episodes/);
    ok(record('fix-flaky-vitest@1'));
  });

  it('fact assert from another source of a verified fact says it needs verifying again', () => {
    const s = tmpDir();
    const triple = ['--subject', 'billing', '--predicate', 'uses', '--object', 'postgres', '--confidence', '0.8'];
    const { id } = JSON.parse(ok(cli(s, ['--json', 'fact', 'assert', ...triple, '--source', 'docs/architecture.md']))) as { id: string };
    ok(cli(s, ['fact', 'verify', id, '--evidence', 'https://grafana/d/billing-db'], { author: 'lead@example.com' }));
    assert.doesNotMatch(ok(cli(s, ['fact', 'assert', ...triple, '--source', 'docs/architecture.md'])), /verifying again/);
    assert.match(
      ok(cli(s, ['fact', 'assert', ...triple, '--source', 'https://chat/thread/42'])),
      new RegExp(
        `It was verified by lead@example\\.com \\(evidence: https://grafana/d/billing-db\\); from another source it needs verifying again: agent-memory fact verify ${id}`,
      ),
    );
  });

  it('skill promote says why no group is ready: too few authors, and episodes without a tag', () => {
    const s = tmpDir();
    const record = (task: string, tags: string[]) =>
      ok(
        cli(s, [
          'episode',
          'record',
          '--task',
          task,
          '--outcome',
          'success',
          '--source',
          'issue:#7',
          ...(tags.length ? ['--tags', tags.join(',')] : []),
        ]),
      );
    for (const t of ['Fix the flaky login test in CI', 'Fix the flaky signup test in CI', 'Fix the flaky cart test in CI'])
      record(t, ['ci']);
    record('Write the release notes', []);
    const out = ok(cli(s, ['skill', 'promote']));
    assert.match(out, /^No group of episodes is ready for a skill\. A group is successful episodes with a shared tag/);
    assert.match(out, /^ {2}3 successes of tag ci by 1 author; needs 2 authors$/m);
    assert.match(out, /^ {2}1 successful episode\(s\) without tags: episodes without a shared tag are not grouped/m);
  });

  it("skill read shows the success rate by task type (the episodes' tags) beside the windows", () => {
    const s = tmpDir();
    ok(cli(s, ['skill', 'save', '-'], { input: SKILL }));
    for (const [outcome, tags] of [
      ['success', 'ci'],
      ['failure', 'ci'],
      ['success', 'vitest'],
    ])
      ok(
        cli(s, [
          'episode',
          'record',
          '--task',
          'flaky vitest',
          '--outcome',
          outcome!,
          '--source',
          'issue:#7',
          '--tags',
          tags!,
          '--skill',
          'fix-flaky-vitest@1',
        ]),
      );
    const read = ok(cli(s, ['skill', 'read', 'fix-flaky-vitest']));
    assert.match(read, /^# success rate of version 1: .*all time 67% \(3 episodes\)$/m);
    assert.match(read, /^# by task type \(episode tags\), all time: ci 50% of 2, vitest 100% of 1$/m);
    const json = JSON.parse(ok(cli(s, ['--json', 'skill', 'read', 'fix-flaky-vitest']))) as {
      outcomesByTag: { tags: Array<{ tag: string }> };
    };
    assert.deepEqual(
      json.outcomesByTag.tags.map((t) => t.tag),
      ['ci', 'vitest'],
    );
  });
});
