import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from '../helpers/mcpClient';
import { tmpDir } from '../helpers/tmp';

const SEEDS = path.join(__dirname, '..', 'data', 'seeds');

function cli(store: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, '--store', store, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'seed@example.com' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the playbook seed's files through the CLI (dist/cli.js)", function () {
  this.timeout(60_000);

  it('policy show reads the seed configuration and lists the keys it does not use, with why; ontology check reads entities:', () => {
    const store = tmpDir();
    fs.mkdirSync(store, { recursive: true });
    fs.copyFileSync(path.join(SEEDS, 'policy.yaml'), path.join(store, 'policy.yaml'));
    fs.copyFileSync(path.join(SEEDS, 'ontology.yaml'), path.join(store, 'ontology.yaml'));
    const shown = cli(store, 'policy', 'show');
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /max_tokens: 12000/);
    assert.match(shown.stdout, /Not used:\n {2}working\.keep_recent_turns \(line 4\): the chat client keeps/);
    assert.match(shown.stdout, / {2}semantic\.backend \(line 9\): every tier lives in one store/);
    const json = JSON.parse(cli(store, '--json', 'policy', 'show').stdout) as { notUsed: Array<{ key: string }> };
    assert.equal(json.notUsed.length, 4);
    const onto = cli(store, 'ontology', 'check');
    assert.equal(onto.status, 0, onto.stderr);
    assert.match(onto.stdout, /owns: user → project \(many\)/);
    assert.match(onto.stdout, /deployed_as: service → deployment \(many\)/);
  });

  it('episode record --source conversation:abc (the seed episode) is a chat pointer, with the time as written', () => {
    const store = tmpDir();
    const e = JSON.parse(fs.readFileSync(path.join(SEEDS, 'episode.jsonl'), 'utf8')) as Record<string, string | string[]>;
    const r = cli(
      store,
      'episode',
      'record',
      '--task',
      String(e.task),
      '--outcome',
      String(e.outcome),
      '--source',
      String(e.source),
      '--tools',
      (e.tools as string[]).join(','),
      '--error',
      (e.errors as string[])[0]!,
      '--resolution',
      String(e.resolution),
      '--tags',
      (e.tags as string[]).join(','),
      '--timestamp',
      String(e.timestamp),
    );
    assert.equal(r.status, 0, r.stderr);
    const shown = JSON.parse(cli(store, '--json', 'episode', 'show', r.stdout.trim()).stdout) as { source: object; timestamp: string };
    assert.deepEqual(shown.source, { type: 'chat', ref: 'abc' });
    assert.equal(shown.timestamp, '2026-09-15T09:00:00.000Z');
  });

  it('skill save reads the seed skill as written and says how; skill read shows it by either spelling of its name', () => {
    const store = tmpDir();
    const file = path.join(SEEDS, 'skill.yaml');
    const saved = cli(store, 'skill', 'save', file);
    assert.equal(saved.status, 0, saved.stderr);
    assert.match(
      saved.stdout,
      /^Saved diagnose-frontend-build version 1\.\nRead in the playbook seed's shape: success is read as success_checks; /,
    );
    assert.match(saved.stdout, /5 step\(s\) written as plain text are steps without "expect"/);
    const shown = cli(store, 'skill', 'read', 'diagnose_frontend_build');
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /^name: diagnose-frontend-build\nversion: 1\n/m);
    assert.match(
      shown.stdout,
      /steps:\n {2}- capture the exact error and current commit\n {2}- inspect the referenced file and import path\n/,
    );
    assert.match(
      shown.stdout,
      /success_checks:\n {2}- targeted check passes\n {2}- build passes\nfailure_handling:\n {2}- preserve error output\n/,
    );
    // Saved again, as written or as read back: nothing changes.
    assert.match(cli(store, 'skill', 'save', file).stdout, /Nothing changed: diagnose-frontend-build is still at version 1/);
    const back = path.join(store, 'back.yaml');
    fs.writeFileSync(back, shown.stdout);
    assert.match(cli(store, 'skill', 'save', back).stdout, /Nothing changed/);
  });
});
