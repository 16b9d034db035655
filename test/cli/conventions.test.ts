import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const VERSION = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI (dist/cli.js) in its own process, as a user would. */
function cli(args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MEMORY_AUTHOR: 'cli-test@example.com' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: Run): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  assert.equal(r.stderr, '');
  return r.stdout;
}

function refused(r: Run): string {
  assert.equal(r.code, 2, `expected exit 2, got ${r.code}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line on stderr, got:\n${r.stderr}`);
  return r.stderr;
}

describe('CLI conventions of git and gh (dist/cli.js in a child process)', function () {
  this.timeout(60_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first'));

  it('help, help COMMAND, COMMAND --help and -h print only what was asked, with exit 0', () => {
    const full = ok(cli(['help']));
    assert.equal(full, ok(cli(['--help'])));
    assert.match(full, /^Usage: agent-memory /);
    assert.match(full, /\n {2}episode record --task/);

    const create = ok(cli(['create', '--help']));
    assert.equal(create, ok(cli(['help', 'create'])));
    assert.equal(create, ok(cli(['create', '-h'])));
    assert.match(create, /^Usage: agent-memory create --description D/);
    assert.match(create, /save a new memory; prints its id/);
    assert.match(create, /\n {2}--content-file F\n/);
    assert.doesNotMatch(create, /episode record|\n {2}list /, 'only the create command');

    // A help flag after a command's other flags still asks for help; no store is opened.
    const store = tmpDir();
    assert.match(ok(cli(['--store', store, 'list', '--limit', '5', '--help'])), /^Usage: agent-memory list /);
    assert.equal(fs.existsSync(path.join(store, 'journal.jsonl')), false);
  });

  it("episode --help lists the group's subcommands; episode record --help names the --source types", () => {
    const group = ok(cli(['episode', '--help']));
    assert.equal(group, ok(cli(['help', 'episode'])));
    assert.match(group, /^Usage: agent-memory episode <subcommand>/);
    for (const sub of ['record', 'list', 'show']) assert.match(group, new RegExp(`\\n {2}episode ${sub}\\b`));
    assert.doesNotMatch(group, /fact assert/);

    const record = ok(cli(['episode', 'record', '--help']));
    assert.match(record, /TYPE is one of commit, issue, pull-request, chat, url, file, other/);
    assert.match(record, /--input I +\(may be repeated\)/);

    assert.match(refused(cli(['help', 'nonsense'])), /help: no command "nonsense"/);
  });

  it('--version prints the version of package.json', () => {
    assert.equal(ok(cli(['--version'])), `${VERSION}\n`);
  });

  it('takes a value that begins with a dash as the value of the flag before it', () => {
    const s = tmpDir();
    const pem = '-----BEGIN NOTES-----\nnot a key, just dashes\n-----END NOTES-----';
    const { id } = JSON.parse(
      ok(cli(['--store', s, '--json', 'create', '--description', '--watch makes jest hang in CI', '--tags', 'jest', '--content', pem])),
    ) as { id: string };
    const read = JSON.parse(ok(cli(['--store', s, '--json', 'read', id]))) as { description: string; content: string };
    assert.equal(read.description, '--watch makes jest hang in CI');
    assert.equal(read.content, pem);
    // A negative number reaches the contract's check instead of the parser's "ambiguous".
    assert.match(refused(cli(['--store', s, 'list', '--limit', '-1'])), /limit/);
    assert.doesNotMatch(refused(cli(['--store', s, 'list', '--limit', '-1'])), /ambiguous/);
  });

  it('refuses an unknown flag naming the closest valid one, in our words', () => {
    const r = refused(cli(['create', '--taggs', 'a']));
    assert.match(r, /^agent-memory: create: unknown flag --taggs; did you mean --tags\? usage: agent-memory create /);
    assert.doesNotMatch(r, /positional argument|ERR_PARSE_ARGS/);
    assert.match(refused(cli(['search', 'x', '--limt', '3'])), /unknown flag --limt; did you mean --limit\?/);
    assert.match(refused(cli(['list', '--zzzzzz'])), /unknown flag --zzzzzz; usage: agent-memory list/);
    assert.match(refused(cli(['--jsn', 'list'])), /unknown flag --jsn; did you mean --json\?/);
    assert.match(refused(cli(['list', '--json=yes'])), /--json is a switch; it takes no value/);
    assert.match(refused(cli(['create', '--description'])), /--description needs a value/);
    assert.match(refused(cli(['lst'])), /unknown command "lst"; did you mean list\?/);
    assert.match(refused(cli(['episode', 'recrod'])), /unknown subcommand "recrod" \(did you mean record\?\)/);
  });

  it('ends quietly with exit 0 when the reader of its output goes away (list | head)', async () => {
    const s = tmpDir();
    ok(cli(['--store', s, 'create', '--description', 'd', '--tags', 'a', '--content', 'x'.repeat(30_000)]));
    for (const args of [['help'], ['--store', s, 'export']]) {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy(); // the reader is gone before the first write, as when head has exited
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.equal(stderr, '', `${args.join(' ')}: quiet`);
      assert.equal(code, 0, `${args.join(' ')}: exit 0`);
    }
  });

  it('prints bash and zsh completion that completes command words and flags from the registry', function () {
    const bash = ok(cli(['completion', 'bash']));
    assert.match(bash, /complete -o filenames -F _agent_memory agent-memory/);
    const zsh = ok(cli(['completion', 'zsh']));
    assert.match(zsh, /^#compdef agent-memory/);
    assert.match(zsh, /'episode record'\) flags='--task --outcome --source /);
    assert.match(refused(cli(['completion', 'fish'])), /give bash or zsh/);

    // Run the bash function as bash's completion would, where bash is installed.
    if (spawnSync('bash', ['--version']).status !== 0) return this.skip();
    const complete = (line: string) => {
      const words = line.split(' ');
      const script = `${bash}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _agent_memory; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim().split('\n').sort();
    };
    assert.deepEqual(complete('agent-memory epi'), ['episode']);
    assert.deepEqual(complete('agent-memory episode r'), ['record']);
    assert.deepEqual(complete('agent-memory --store /tmp/x episode record --ta'), ['--tags', '--task']);
    assert.deepEqual(complete('agent-memory create --tags a --con'), ['--content', '--content-file']);
    assert.deepEqual(complete('agent-memory help com'), ['completion']);
  });
});
