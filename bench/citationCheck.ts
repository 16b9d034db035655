/**
 * What checking citations adds to a search (issue: "a search at 10k memories stays within the
 * current budget"). Two stores of the same N memories, one where a share of them cites code in a
 * git repository of generated source files, searched with the same queries through the service:
 * the baseline is the store without citations, measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CitationChecker } from '../src/core/citations';
import { buildServices } from '../src/core/services';
import type { StoredVersion } from '../src/core/ports/store';
import { GitCodebase } from '../src/platform/gitCodebase';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { prng } from './generate';
import { ms, summarize, type Summary } from './stats';

const FILES = 300;
const LINES = 200;
const CITING_SHARE = 0.3;
const WORDS = ['cache', 'build', 'retry', 'timeout', 'token', 'parser', 'queue', 'worker', 'deploy', 'schema', 'index', 'lock'];
const TARGET_MS = { selective: 1, broad: 3 };

export interface CitationResult {
  n: number;
  citing: number;
  queries: number;
  plain: Summary;
  checked: Summary;
  /** The first search after every cited file changed state (files read and analysed again). */
  afterTouch: Summary;
}

function repo(dir: string, rnd: () => number): void {
  execFileSync('git', ['init', '-q', dir]);
  for (let f = 0; f < FILES; f++) {
    const lines = Array.from({ length: LINES }, (_, i) => `  const v${i} = ${Math.floor(rnd() * 1e6)}; // ${WORDS[i % WORDS.length]}`);
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', `f${f}.ts`), `export function f${f}() {\n${lines.join('\n')}\n}\n`);
  }
  execFileSync('git', ['-c', 'user.email=b@e.x', '-c', 'user.name=b', 'add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=b@e.x', '-c', 'user.name=b', 'commit', '-qm', 'code'], { cwd: dir });
}

function rows(n: number, rnd: () => number, checker: CitationChecker | undefined): StoredVersion[] {
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const cites = checker && rnd() < CITING_SHARE;
    const start = 2 + Math.floor(rnd() * (LINES - 20));
    return {
      rowId: randomUUID(),
      id: randomUUID(),
      version: 1,
      op: 'create',
      description: `${word()} ${word()} note ${i} about the ${word()} path`,
      tags: [word(), word()],
      content: 'c',
      changedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      deletedAt: null,
      author: 'bench',
      restoredFrom: null,
      ...(cites
        ? { citations: checker!.anchor([{ path: `src/f${Math.floor(rnd() * FILES)}.ts`, startLine: start, endLine: start + 10 }]) }
        : {}),
    };
  });
}

export async function runCitationCheck(n: number, root: string, seed = 42): Promise<CitationResult> {
  const dir = fs.mkdtempSync(path.join(root, 'citations-'));
  const code = path.join(dir, 'code');
  repo(code, prng(seed));
  const codebase = new GitCodebase(code);
  const open = async (name: string, checker: CitationChecker | undefined) => {
    const store = await SqlJsStore.open({ dir: path.join(dir, name) });
    await store.importVersions(rows(n, prng(seed + 1), checker));
    return store;
  };
  const plainStore = await open('plain', undefined);
  const citedStore = await open('cited', new CitationChecker(codebase));
  const plain = buildServices(plainStore, { author: 'bench' });
  const cited = buildServices(citedStore, { author: 'bench', codebase });
  const rnd = prng(seed + 2);
  const queries = Array.from({ length: 200 }, () => [WORDS[Math.floor(rnd() * WORDS.length)]!, WORDS[Math.floor(rnd() * WORDS.length)]!]);
  const time = async (s: typeof plain, qs: string[][]) => {
    const out: number[] = [];
    for (const q of qs) {
      const t = performance.now();
      await s.memories.search({ keywords: q, limit: 10 });
      out.push(performance.now() - t);
    }
    return out;
  };
  // Warm both (index loaded, files read once), then alternate so load affects both alike.
  await time(plain, queries.slice(0, 20));
  await time(cited, queries.slice(0, 20));
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < queries.length; i += 20) {
    a.push(...(await time(plain, queries.slice(i, i + 20))));
    b.push(...(await time(cited, queries.slice(i, i + 20))));
  }
  // Every file touched (a checkout): the next searches read and analyse the cited files again.
  const later = new Date(Date.now() + 5000);
  for (let f = 0; f < FILES; f++) fs.utimesSync(path.join(code, 'src', `f${f}.ts`), later, later);
  const touched = await time(cited, queries.slice(0, 20));
  const citing = (await citedStore.citationsOf((await cited.memories.list({ limit: 1000 })).items.map((m) => m.id))).size;
  await plainStore.close();
  await citedStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { n, citing, queries: queries.length, plain: summarize(a), checked: summarize(b), afterTouch: summarize(touched) };
}

export function citationTable(r: CitationResult): string {
  const pass = r.checked.p50 <= TARGET_MS.broad ? 'PASS' : 'FAIL';
  return (
    `## Citations checked in search (N=${r.n}, ${Math.round(CITING_SHARE * 100)}% of memories cite 11 lines of one of ${FILES} files; ${r.queries} two-word searches, limit 10)\n\n` +
    `| | p50 ms | p95 ms | max ms |\n| --- | ---: | ---: | ---: |\n` +
    `| baseline: the same memories without citations | ${ms(r.plain.p50)} | ${ms(r.plain.p95)} | ${ms(r.plain.max)} |\n` +
    `| with citations, each hit checked against the files | ${ms(r.checked.p50)} | ${ms(r.checked.p95)} | ${ms(r.checked.max)} |\n` +
    `| first searches after every file changed (re-read) | ${ms(r.afterTouch.p50)} | ${ms(r.afterTouch.p95)} | ${ms(r.afterTouch.max)} |\n\n` +
    `Ratio (p50, checked / baseline): ${(r.checked.p50 / r.plain.p50).toFixed(2)}×; budget for a broad search at 10k: ≤ ${TARGET_MS.broad} ms: ${pass}. ` +
    `(${r.citing} of the first 1000 listed memories cite code.)\n`
  );
}
