import { strict as assert } from 'node:assert';
import type { CliIo } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { allCommands, MEMORY_REGISTRY, type Registry } from '../../src/cli/registry';
import { tmpDir } from '../helpers/tmp';

/** Runs the CLI in this process with captured output; none of these calls opens a store. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => undefined };
  const code = await main(argv, io, {}, tmpDir());
  return { code, stdout, stderr };
}

/** The registry key a --help line names: the longest one its usage starts with. */
function named(line: string): string | undefined {
  return [...COMMANDS.keys()].filter((k) => line === k || line.startsWith(`${k} `)).sort((a, b) => b.length - a.length)[0];
}

let COMMANDS: Registry;

describe('CLI registry (src/cli/registry.ts) and --help', () => {
  before(async () => {
    COMMANDS = await allCommands();
  });

  it('runs a memory command from the memory commands alone, the same command objects as the whole registry', async () => {
    assert.ok(MEMORY_REGISTRY.size >= 5 && MEMORY_REGISTRY.has('search') && MEMORY_REGISTRY.has('create'));
    for (const [name, command] of MEMORY_REGISTRY) assert.equal(COMMANDS.get(name), command, name);
    // A memory command's help and refusals come from its own entry, as from the whole registry.
    const r = await run(['--json', 'search', '--no-such-flag']);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(`usage: agent-memory ${MEMORY_REGISTRY.get('search')!.usage}`), r.stderr);
    // Any other first word loads every group: a command of another group, and an unknown one with its suggestion.
    assert.equal((await run(['help', 'doctor'])).code, 0);
    assert.match((await run(['--store', 'x', 'serch'])).stderr, /unknown command "serch"; did you mean search\?/);
  });
  it('--help lists every command of the registry once, in registry order, and no other', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim());
    assert.deepEqual(lines.map(named), [...COMMANDS.keys()]);
    // migrate opens its own stores: it is in the one registry, and in the help, all the same.
    assert.equal(COMMANDS.get('migrate')?.opensStores, true);
    assert.ok(lines.some((l) => l.startsWith('migrate --from')));
  });

  it("reaches every command by its words, and refuses an unknown flag with that command's usage", async () => {
    for (const [name, command] of COMMANDS) {
      const r = await run([...name.split(' '), '--no-such-flag']);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`usage: agent-memory ${command.usage}`), `${name}: ${r.stderr}`);
    }
  });

  it("names exactly the registry's subcommands when a group word comes alone", async () => {
    const groups = new Set([...COMMANDS.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]!));
    assert.ok(groups.has('episode') && groups.has('pending'));
    for (const group of groups) {
      const subs = [...COMMANDS.keys()].filter((k) => k.startsWith(`${group} `)).map((k) => k.split(' ')[1]);
      const r = await run([group]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `agent-memory: ${group}: give a subcommand: ${subs.join(', ')}; run agent-memory --help\n`);
    }
  });

  it('finds no command on Object.prototype', async () => {
    const r = await run(['constructor']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "constructor"/);
  });
});
