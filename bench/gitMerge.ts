/**
 * "1,000 versions merged in by git, next search": a store folder committed to a real git
 * repository (merge=union), a branch `theirs` that adds 1,000 versions (500 creates, 500 edits of
 * live memories), and, in a fresh child process per figure, a long-lived store that loaded its
 * caches and its database, wrote 10 edits of its own, saved its caches, committed, and then
 * `git rebase theirs` (what `git pull --rebase` does): its own lines move after theirs, before the
 * position it had read. The figure is the next search (catch-up included), with the store catching
 * up incrementally and, as the baseline, as before (`incrementalCatchUp: false`: a rebuild).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../src/core/memoryService';
import type { StoredVersion } from '../src/core/ports/store';
import { versionLine } from '../src/store/sqljs/entries';
import { VIEW_FILE } from '../src/store/sqljs/currentView';
import { writeGitFiles } from '../src/store/sqljs/gitSharing';
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { MemoryWriter, prng, uuid } from './generate';
import type { Plan } from './plan';

export interface MergePlan {
  repo: string;
  /** The folder whose snapshot and saved view (at the base commit's journal) each child starts from. */
  caches: string;
  keywords: string[];
  /** Live memories the local side edits before the rebase. */
  localEdits: string[];
  /** A memory of theirs, read after the search. */
  theirId: string;
}

export interface MergeFigures {
  /** The first search after the rebase: catch-up + search. */
  searchMs: number;
  /** Then a read of one of their memories (the database caught up). */
  readMs: number;
  warnings: string[];
}

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });

/** Builds the repository once per N (not timed): base commit, and `theirs` with 1,000 more versions. */
export function prepareMerge(plan: Plan, dir: string): MergePlan {
  const repo = path.join(dir, 'git');
  const store = path.join(repo, '.agent-memory');
  fs.mkdirSync(store, { recursive: true });
  fs.copyFileSync(path.join(plan.storeDir, 'journal.jsonl'), path.join(store, 'journal.jsonl'));
  writeGitFiles(store);
  git(repo, 'init', '-q', '-b', 'main');
  // The journal is hundreds of MB: no compression, no automatic gc.
  for (const [k, v] of [
    ['core.compression', '0'],
    ['core.looseCompression', '0'],
    ['gc.auto', '0'],
  ])
    git(repo, 'config', k!, v!);
  git(repo, 'add', '.agent-memory');
  git(repo, 'commit', '-q', '-m', 'base');
  git(repo, 'tag', 'base');
  git(repo, 'checkout', '-q', '-b', 'theirs');
  const rnd = prng(plan.seed + 11);
  const writer = new MemoryWriter(rnd, Math.max(50, Math.floor(plan.n / 4)));
  const at = Date.parse('2030-01-01T00:00:00.000Z');
  const rows: StoredVersion[] = [];
  const edited = plan.editIds.slice(-500);
  for (let i = 0; i < 1000; i++) {
    const edit = i % 2 === 1 && edited[i >> 1];
    rows.push({
      rowId: uuid(rnd),
      id: edit || uuid(rnd),
      // Their edit's number: above any generated history (the order is decided by changedAt first).
      version: edit ? 50 : 1,
      op: edit ? 'edit' : 'create',
      ...writer.memory(),
      changedAt: new Date(at + i * 1000).toISOString(),
      deletedAt: null,
      author: 'them@example.com',
      restoredFrom: null,
    });
  }
  fs.appendFileSync(path.join(store, 'journal.jsonl'), rows.map((r) => `${versionLine(r)}\n`).join(''));
  git(repo, 'commit', '-q', '-am', 'theirs');
  git(repo, 'checkout', '-q', 'main');
  return { repo, caches: plan.storeDir, keywords: plan.selective[0]!, localEdits: plan.editIds.slice(0, 10), theirId: rows[0]!.id };
}

/** One child: the long-lived store, its local edits, the rebase, the next search (see the file's comment). */
export async function runMerge(plan: MergePlan, incremental: boolean): Promise<MergeFigures> {
  const { repo } = plan;
  const dir = path.join(repo, '.agent-memory');
  git(repo, 'checkout', '-q', '-f', '-B', 'local', 'base');
  for (const f of ['snapshot.sqlite', VIEW_FILE]) fs.copyFileSync(path.join(plan.caches, f), path.join(dir, f));
  const store = await SqlJsStore.open({ dir, incrementalCatchUp: incremental, checkpointEvery: Number.MAX_SAFE_INTEGER });
  const service = new MemoryService(store, { author: 'local@example.com' });
  await service.search({ keywords: plan.keywords });
  await service.read({ id: plan.localEdits[0]! });
  for (const id of plan.localEdits) await service.edit({ id, content: `a local edit of ${id}` });
  store.checkpoint();
  git(repo, 'commit', '-q', '-am', 'ours');
  git(repo, 'rebase', '-q', 'theirs');

  let t = performance.now();
  await service.search({ keywords: plan.keywords });
  const searchMs = performance.now() - t;
  t = performance.now();
  const theirs = await service.read({ id: plan.theirId });
  const readMs = performance.now() - t;
  if (theirs.author !== 'them@example.com') throw new Error('their memory was not read after the merge');
  return { searchMs, readMs, warnings: store.warnings().map((w) => w.code) };
}
