import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../src/core/memoryService';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { ms, summarize, type Summary } from './stats';

/** The bundle measured unless --cli names another (say, an older build to compare with). */
export const DEFAULT_CLI = path.resolve(__dirname, '..', 'dist', 'cli.js');
const MEMORIES = 50;
const TARGETS = { search: 1.5, create: 2 };

export interface CliResult {
  runs: number;
  cli: string;
  /** Whether dist/cli.js is the release build (`--production`: minified, no source map). */
  production: boolean;
  node: Figures;
  search: Figures;
  create: Figures;
  /** The same commands with the compiled code not kept (AGENT_MEMORY_NO_CODE_CACHE): every first run after an install or upgrade. */
  searchCold: Figures;
  createCold: Figures;
}

interface Figures {
  wall: Summary;
  cpu: Summary;
}

const CPU_PRELOAD = path.join(__dirname, 'cpuAtExit.cjs');

interface Timed {
  wall: number[];
  cpu: number[];
}

/** One whole process, spawn to exit: its wall time, and the CPU time it reported at exit. */
function timeProcess(args: string[], cwd: string, into: Timed, env: NodeJS.ProcessEnv = process.env): void {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--require', CPU_PRELOAD, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  into.wall.push(performance.now() - t);
  const cpu = /BENCH_CPU_US (\d+)/.exec(r.stderr)?.[1];
  if (r.status !== 0 || cpu === undefined) throw new Error(`node ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  into.cpu.push(Number(cpu) / 1000);
}

/**
 * An agent without MCP calls the CLI once per operation: the whole process counts. On a
 * store of 50 memories, `runs` times each (interleaved, so a busy moment of the machine hits
 * all three alike): `node -e 0`, `agent-memory search`, `agent-memory create`.
 */
export async function runCliStart(runs: number, root: string, cli = DEFAULT_CLI): Promise<CliResult> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (or node esbuild.mjs --production) first`);
  const dir = path.join(root, 'cli-store');
  const store = await SqlJsStore.open({ dir });
  const service = new MemoryService(store, { author: 'bench' });
  for (let i = 0; i < MEMORIES; i++) {
    await service.create({
      description: `memory ${i} about widget ${i % 7}`,
      tags: [`t${i % 5}`, 'widget'],
      content: `content ${i} `.repeat(10),
    });
  }
  await store.close();
  const node: Timed = { wall: [], cpu: [] };
  const search: Timed = { wall: [], cpu: [] };
  const create: Timed = { wall: [], cpu: [] };
  const searchCold: Timed = { wall: [], cpu: [] };
  const createCold: Timed = { wall: [], cpu: [] };
  // The compiled code is kept in a folder of this run (src/cli/codeCache.ts), written by a first call.
  const warm = { ...process.env, XDG_CACHE_HOME: path.join(root, 'cli-cache') };
  const cold = { ...process.env, AGENT_MEMORY_NO_CODE_CACHE: '1' };
  const searchArgs = [cli, '--store', dir, 'search', 'widget', '--limit', '3'];
  const createArgs = (i: number, kind: string) => [
    cli,
    '--store',
    dir,
    'create',
    '--description',
    `bench ${kind} ${i}`,
    '--tags',
    'bench',
    '--content',
    'x',
  ];
  timeProcess(searchArgs, root, { wall: [], cpu: [] }, warm);
  for (let i = 0; i < runs; i++) {
    timeProcess(['-e', '0'], root, node);
    timeProcess(searchArgs, root, search, warm);
    timeProcess(createArgs(i, 'kept'), root, create, warm);
    timeProcess(searchArgs, root, searchCold, cold);
    timeProcess(createArgs(i, 'cold'), root, createCold, cold);
  }
  const figures = (t: Timed): Figures => ({ wall: summarize(t.wall), cpu: summarize(t.cpu) });
  return {
    runs,
    cli,
    production: !fs.readFileSync(bundleOf(cli), 'utf8').includes('//# sourceMappingURL='),
    node: figures(node),
    search: figures(search),
    create: figures(create),
    searchCold: figures(searchCold),
    createCold: figures(createCold),
  };
}

/** The bundle the launcher runs (cli-main.js beside it), or the file itself for a build of one file. */
function bundleOf(cli: string): string {
  const main = path.join(path.dirname(cli), 'cli-main.js');
  return fs.existsSync(main) ? main : cli;
}

export function cliTable(r: CliResult): string {
  const x = (f: Figures, k: keyof Figures) => `${(f[k].p50 / r.node[k].p50).toFixed(2)}x`;
  const row = (what: string, f: Figures) => `| ${what} | ${ms(f.wall.p50)} | ${x(f, 'wall')} | ${ms(f.cpu.p50)} | ${x(f, 'cpu')} |`;
  const target = (what: keyof typeof TARGETS, f: Figures) =>
    `| CLI ${what}, whole process, <= ${TARGETS[what]}x node -e 0 (wall, medians) | ${x(f, 'wall')} | ${f.wall.p50 / r.node.wall.p50 <= TARGETS[what] ? 'PASS' : 'FAIL'} |`;
  return [
    `## One-shot CLI, whole process, ${MEMORIES}-memory store (${r.runs} runs each; ${path.relative(process.cwd(), r.cli)}, ${r.production ? 'release build' : 'development build, not minified'})`,
    '',
    'Medians. CPU time (user + system, as the process reported it at exit) varies less than wall time on a busy machine. ' +
      'The CLI keeps V8\'s compiled code of its bundle between runs (src/cli/codeCache.ts); "no kept code" is a first run after an install or upgrade.',
    '',
    '| process | wall ms | vs node -e 0 | CPU ms | vs node -e 0 |',
    '| --- | --- | --- | --- | --- |',
    row('node -e 0', r.node),
    row('agent-memory search widget --limit 3', r.search),
    row('agent-memory create', r.create),
    row('agent-memory search widget --limit 3, no kept code', r.searchCold),
    row('agent-memory create, no kept code', r.createCold),
    '',
    '| target | measured | result |',
    '| --- | --- | --- |',
    target('search', r.search),
    target('create', r.create),
  ].join('\n');
}
