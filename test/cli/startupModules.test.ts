import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = 'src/cli/index.ts';

/**
 * The modules every CLI start runs (their top level), as the bundle has them: what the entry
 * reaches through static imports. A dynamic `import()` in the bundle runs its module on the call,
 * so what only some commands need stays out of every other command's start.
 */
async function startupModules(): Promise<{ reached: Set<string>; from: Map<string, string>; builtins: Map<string, string> }> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode', 'pg-native'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    outfile: 'out.js',
  });
  const inputs = result.metafile.inputs;
  const reached = new Set([ENTRY]);
  const from = new Map<string, string>();
  /** Each Node module imported at start (`node:crypto`), and by which file first. */
  const builtins = new Map<string, string>();
  const queue = [ENTRY];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement' && i.kind !== 'require-call') continue;
      if (i.external && i.kind === 'import-statement' && !builtins.has(i.path)) builtins.set(i.path, file);
      if (i.external || reached.has(i.path)) continue;
      reached.add(i.path);
      from.set(i.path, file);
      queue.push(i.path);
    }
  }
  return { reached, from, builtins };
}

/** How the entry reaches `file`: each importer, entry first. */
function chain(from: Map<string, string>, file: string): string {
  const out = [file];
  for (let f = from.get(file); f; f = from.get(f)) out.unshift(f);
  return out.join(' > ');
}

describe('CLI start: what every command loads (esbuild module graph of src/cli/index.ts)', function () {
  this.timeout(60_000);

  it("loads neither the playbook's services and schemas nor the MCP server or PostgreSQL until a command asks for them", async () => {
    const { reached, from } = await startupModules();
    // The playbook's contract (its zod schemas take about a fifth of a one-shot search), its
    // services, the workspace's policy/ontology reader, the MCP server and PostgreSQL.
    const notAtStart = [
      'src/core/playbook/playbook.ts',
      'src/core/services.ts',
      'src/core/contract/index.ts',
      'src/core/contract/episodes.ts',
      'src/core/contract/facts.ts',
      'src/core/contract/skills.ts',
      'src/core/contract/pending.ts',
      'src/core/contract/context.ts',
      'src/core/contract/playbookTools.ts',
      'src/platform/playbookConfig.ts',
      'src/cli/mcp/server.ts',
      'src/store/postgres/pgStore.ts',
    ];
    for (const f of notAtStart) assert.ok(!reached.has(f), `every CLI start loads ${f}: ${chain(from, f)}`);
    // The memory tier's schemas are zod/mini's (contract/fields.ts): zod's classic API, whose schemas cost
    // about three times as much to build, is loaded with the playbook's contract only.
    const classic = [...reached].find((f) => f.includes('node_modules/zod/v4/classic/'));
    assert.equal(classic, undefined, `every CLI start loads zod's classic API: ${classic ? chain(from, classic) : ''}`);
    assert.ok(
      [...reached].some((f) => f.includes('node_modules/zod/v4/mini/')),
      'zod/mini is reached (the check would pass vacuously otherwise)',
    );
    // What a memory command does need is in the graph (the check would pass vacuously otherwise).
    for (const f of ['src/core/memoryService.ts', 'src/core/contract/memories.ts', 'src/store/sqljs/sqljsStore.ts'])
      assert.ok(reached.has(f), `${f} is not reached from ${ENTRY}`);
  });

  it("runs only the memory commands' group at start: the other groups load when their command is named", async () => {
    const { reached, from } = await startupModules();
    const others = [
      'src/cli/commandGroups.ts',
      'src/cli/commands/backup.ts',
      'src/cli/commands/doctor.ts',
      'src/cli/commands/episodes.ts',
      'src/cli/commands/help.ts',
      'src/cli/commands/init.ts',
      'src/cli/commands/migrate.ts',
      'src/cli/completion.ts',
      'src/store/sqljs/storeDoctor.ts',
      'src/core/agentInstructions.ts',
    ];
    for (const f of others) assert.ok(!reached.has(f), `every CLI start loads ${f}: ${chain(from, f)}`);
    assert.ok(reached.has('src/cli/commands/memories.ts'), 'the memory commands are reached (the check would pass vacuously otherwise)');
  });

  it('loads neither node:crypto nor node:child_process at start: a search uses neither (a write loads crypto for its ids, git commands child_process)', async () => {
    const { from, builtins } = await startupModules();
    for (const m of ['node:crypto', 'crypto', 'node:child_process', 'child_process']) {
      const by = builtins.get(m);
      assert.equal(by, undefined, `every CLI start loads ${m}: imported by ${by ? chain(from, by) : ''}`);
    }
    assert.ok(builtins.has('node:fs'), 'Node modules imported at start are seen (the check would pass vacuously otherwise)');
  });
});
