import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../src/core/memoryService';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { ms, summarize, type Summary } from './stats';

const CLI = path.resolve(__dirname, '..', 'dist', 'cli.js');
const MEMORIES = 50;
const TARGETS = { search: 1.5, create: 2 };

export interface CliResult {
  runs: number;
  /** Whether dist/cli.js is the release build (`--production`: minified, no source map). */
  production: boolean;
  node: Summary;
  search: Summary;
  create: Summary;
}

/** Wall time of one whole process, spawn to exit. */
function timeProcess(args: string[], cwd: string): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const elapsed = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return elapsed;
}

/**
 * An agent without MCP calls the CLI once per operation: the whole process counts. On a
 * store of 50 memories, `runs` times each (interleaved, so a busy moment of the machine hits
 * all three alike): `node -e 0`, `agent-memory search`, `agent-memory create`.
 */
export async function runCliStart(runs: number, root: string): Promise<CliResult> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (or node esbuild.mjs --production) first`);
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
  const node: number[] = [];
  const search: number[] = [];
  const create: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(timeProcess(['-e', '0'], root));
    search.push(timeProcess([CLI, '--store', dir, 'search', 'widget', '3'], root));
    create.push(timeProcess([CLI, '--store', dir, 'create', '--description', `bench ${i}`, '--tags', 'bench', '--content', 'x'], root));
  }
  return {
    runs,
    production: !fs.readFileSync(CLI, 'utf8').includes('//# sourceMappingURL='),
    node: summarize(node),
    search: summarize(search),
    create: summarize(create),
  };
}

export function cliTable(r: CliResult): string {
  const x = (s: Summary) => `${(s.p50 / r.node.p50).toFixed(2)}x`;
  const row = (what: string, s: Summary) => `| ${what} | ${ms(s.p50)} | ${ms(s.min)} | ${x(s)} |`;
  const target = (what: keyof typeof TARGETS, s: Summary) =>
    `| CLI ${what}, whole process, <= ${TARGETS[what]}x node -e 0 (medians) | ${x(s)} | ${s.p50 / r.node.p50 <= TARGETS[what] ? 'PASS' : 'FAIL'} |`;
  return [
    `## One-shot CLI, whole process, ${MEMORIES}-memory store (${r.runs} runs each; dist/cli.js ${r.production ? 'release build' : 'development build, not minified'})`,
    '',
    '| process | median ms | min ms | vs node -e 0 |',
    '| --- | --- | --- | --- |',
    row('node -e 0', r.node),
    row('agent-memory search widget 3', r.search),
    row('agent-memory create', r.create),
    '',
    '| target | measured | result |',
    '| --- | --- | --- |',
    target('search', r.search),
    target('create', r.create),
  ].join('\n');
}
