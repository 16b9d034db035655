import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BEGIN_MARKER, END_MARKER, instructionsBlock, newInstructionsFile } from '../../src/core/agentInstructions';
import { freshProject, requirePostgres } from '../helpers/postgres';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const COPILOT = path.join('.github', 'instructions', 'agent-memory.instructions.md');
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };

function run(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...GIT_ENV, AGENT_MEMORY_AUTHOR: 'cli@example.com' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A git repository with a sub-folder to run the CLI from. */
function repo(): { root: string; sub: string } {
  const root = fs.realpathSync(tmpDir('am-init-'));
  assert.equal(spawnSync('git', ['init', '-q', root], { env: GIT_ENV }).status, 0);
  const sub = path.join(root, 'packages', 'app');
  fs.mkdirSync(sub, { recursive: true });
  return { root, sub };
}

describe('agent-memory init --instructions (dist/cli.js)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('writes the chosen files at the top of the git repository, from a sub-folder, and prepares the store for git too', () => {
    const { root, sub } = repo();
    const r = run(sub, 'init', '--instructions', 'copilot,claude');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\.gitattributes: created with/);
    assert.ok(r.stdout.includes(`${path.join(root, COPILOT)}: created\n`), r.stdout);
    assert.ok(r.stdout.includes(`${path.join(root, 'CLAUDE.md')}: created\n`), r.stdout);
    assert.equal(fs.readFileSync(path.join(root, COPILOT), 'utf8'), newInstructionsFile('copilot'));
    assert.equal(fs.readFileSync(path.join(root, 'CLAUDE.md'), 'utf8'), newInstructionsFile('claude'));
    assert.ok(!fs.existsSync(path.join(root, 'AGENTS.md')));
    assert.ok(!fs.existsSync(path.join(sub, '.github')), 'written in the sub-folder');
  });

  it("updates AGENTS.md in place, keeping the person's text, and reports 'already up to date' on a re-run (--json too)", () => {
    const { root } = repo();
    const mine = '# How we work\n\nSmall commits.\n';
    const tail = '\n## More of ours\n';
    fs.writeFileSync(path.join(root, 'AGENTS.md'), `${mine}${BEGIN_MARKER}\nold\n${END_MARKER}${tail}`);
    const first = run(root, '--json', 'init', '--instructions', 'agents');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).instructions, [{ file: path.join(root, 'AGENTS.md'), outcome: 'updated' }]);
    assert.equal(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), `${mine}${instructionsBlock()}${tail}`);
    const again = run(root, 'init', '--instructions', 'agents');
    assert.match(again.stdout, /AGENTS\.md: already up to date\n$/);
  });

  it('refuses unbalanced markers and an unknown file kind with exit 2, writing nothing', () => {
    const { root } = repo();
    const broken = `${BEGIN_MARKER}\nno end marker\n`;
    fs.writeFileSync(path.join(root, 'CLAUDE.md'), broken);
    const r = run(root, 'init', '--instructions', 'copilot,claude');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^agent-memory: CLAUDE\.md: has 1 "<!-- agent-memory:begin -->" and 0 "<!-- agent-memory:end -->".*nothing was written\n$/,
    );
    assert.equal(fs.readFileSync(path.join(root, 'CLAUDE.md'), 'utf8'), broken);
    assert.ok(!fs.existsSync(path.join(root, '.github')));

    const unknown = run(root, 'init', '--instructions', 'copilot,cursor');
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, 'agent-memory: --instructions: "cursor" is not one of copilot, agents, claude\n');
  });

  describe('with a team database', () => {
    let url: string;
    before(async function () {
      url = await requirePostgres(this);
    });

    it("writes only the instructions (the git files are the workspace store's); without --instructions it refuses", () => {
      const { root } = repo();
      const store = ['--store', url, '--project', freshProject()];
      const r = run(root, ...store, 'init', '--instructions', 'agents');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${path.join(root, 'AGENTS.md')}: created\nCommit them so every teammate's agent reads them.\n`);
      assert.ok(!fs.existsSync(path.join(root, '.agent-memory')), 'git files written for a database store');

      const plain = run(root, ...store, 'init');
      assert.equal(plain.code, 2);
      assert.match(
        plain.stderr,
        /a PostgreSQL store is shared through its server \(init --instructions still writes the agent instructions\)/,
      );
    });
  });
});
