import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../../src/core/memoryService';
import { JournalSync } from '../../../src/store/sqljs/journalSync';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { tmpDir } from '../../helpers/tmp';

/**
 * The journal shared through real git (a bare repository, two clones, `merge=union`): after a
 * pull, merge or rebase the store applies only what is new, and ends where a full rebuild from
 * the journal alone ends; when history was rewritten, it rebuilds.
 */

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=git@example.com', '-c', 'user.name=git', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const WORDS = ['cache', 'build', 'docker', 'retry', 'timeout', 'flaky', 'config', 'index', 'parser', 'deploy', 'lint', 'auth'];

function memoryInput(i: number, side: string) {
  const w = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length]!;
  return {
    description: `${side} note ${i}: ${w(0)} ${w(1)} fix`,
    tags: [w(2), side],
    content: `The ${w(0)} step failed with ${w(3)} until ${w(1)} was changed (${side} ${i}).`,
  };
}

interface Side {
  repo: string;
  dir: string;
  store: SqlJsStore;
  service: MemoryService;
}

async function openSide(repo: string, author: string): Promise<Side> {
  const dir = path.join(repo, '.agent-memory');
  const store = await SqlJsStore.open({ dir });
  return { repo, dir, store, service: new MemoryService(store, { author }) };
}

async function writeSome(side: Side, from: number, creates: number, edits: string[], deletes: string[] = []): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + creates; i++) ids.push((await side.service.create(memoryInput(i, path.basename(side.repo)))).id);
  for (const id of edits) await side.service.edit({ id, content: `edited on ${path.basename(side.repo)}: cache retry` });
  for (const id of deletes) await side.service.delete({ id });
  return ids;
}

function commit(repo: string, message: string): void {
  git(repo, 'add', '.agent-memory');
  git(repo, 'commit', '-q', '-m', message);
}

/** Everything a client can read: every id's history, the live and deleted lists, searches, tags. */
async function stateOf(store: SqlJsStore) {
  const service = new MemoryService(store, { author: 'reader' });
  const live = await store.list({ deleted: false, limit: 100_000 });
  const deleted = await store.list({ deleted: true, limit: 100_000 });
  const histories: Record<string, unknown> = {};
  for (const m of [...live, ...deleted].sort((a, b) => a.id.localeCompare(b.id)))
    histories[m.id] = (await store.history(m.id)).map((v) => [v.rowId, v.version, v.content, v.deletedAt]);
  const searches = [];
  for (const keywords of [['cache'], ['docker', 'retry'], ['edited', 'cache'], ['flaky'], ['parser', 'deploy'], ['b']])
    searches.push((await service.search({ keywords, limit: 20 })).map((h) => h.id));
  return { live: live.map((m) => m.id), deleted: deleted.map((m) => m.id), histories, searches, tags: await store.tagCounts() };
}

/** The state a store built from nothing but a copy of `dir`'s journal reaches. */
async function rebuiltFrom(dir: string) {
  const copy = tmpDir();
  fs.copyFileSync(path.join(dir, 'journal.jsonl'), path.join(copy, 'journal.jsonl'));
  const store = await SqlJsStore.open({ dir: copy });
  const state = await stateOf(store);
  await store.close();
  return state;
}

const codes = (store: SqlJsStore) => store.warnings().map((w) => w.code);

/** Counts the times any store (re)loads its caches from disk while `fn` runs. */
async function reloadsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; reloads: number }> {
  const load = JournalSync.prototype.load;
  let reloads = 0;
  JournalSync.prototype.load = function (this: JournalSync) {
    reloads++;
    return load.call(this);
  };
  try {
    return { result: await fn(), reloads };
  } finally {
    JournalSync.prototype.load = load;
  }
}

describe('sql.js store: a journal shared through real git (union merge)', function () {
  this.timeout(120_000);

  /** origin (bare), clone a with 300 memories and 100 edits committed and pushed, clone b cloned from it. */
  async function setUp() {
    const root = tmpDir();
    const origin = path.join(root, 'origin.git');
    git(root, 'init', '-q', '--bare', origin);
    const a = path.join(root, 'a');
    git(root, 'clone', '-q', origin, a);
    const sideA = await openSide(a, 'a@example.com');
    const base = await writeSome(sideA, 0, 300, []);
    await writeSome(sideA, 0, 0, base.slice(0, 100));
    commit(a, 'base');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    const b = path.join(root, 'b');
    git(root, 'clone', '-q', '-b', 'main', origin, b);
    assert.match(fs.readFileSync(path.join(b, '.agent-memory', '.gitattributes'), 'utf8'), /journal\.jsonl merge=union/);
    return { sideA, base, b };
  }

  const journalOf = (side: Side) => fs.readFileSync(path.join(side.dir, 'journal.jsonl'), 'utf8');

  it('a long-lived store applies only the lines a merge or a rebase brought in, and ends where a full rebuild ends', async () => {
    const { sideA, base, b } = await setUp();
    // Both stores stay open, searched and read from (the database loaded), while both sides write.
    const sideB = await openSide(b, 'b@example.com');
    for (const side of [sideA, sideB]) {
      await side.service.search({ keywords: ['cache'] });
      await side.service.read({ id: base[0]! });
    }
    await writeSome(sideB, 1000, 60, base.slice(50, 80), base.slice(280, 285));
    commit(b, 'b writes');
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    await writeSome(sideA, 2000, 40, base.slice(60, 70), [base[290]!]);
    commit(sideA.repo, 'a writes');

    // A merges: the union driver keeps A's lines in place and adds B's after them.
    git(sideA.repo, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.ok(!journalOf(sideA).includes('<<<<<<<'), 'the union driver merged without conflict markers');
    const merged = await reloadsDuring(() => stateOf(sideA.store));
    assert.equal(merged.reloads, 0, 'the caches were not reloaded');
    assert.equal(merged.result.live.length, 300 + 60 + 40 - 6);
    assert.deepEqual(merged.result, await rebuiltFrom(sideA.dir));
    git(sideA.repo, 'push', '-q', 'origin', 'HEAD:main');

    // B wrote more and rebases onto A's merge: B's own lines move after A's, before its position.
    await writeSome(sideB, 3000, 20, base.slice(40, 45));
    commit(b, 'b writes again');
    const before = journalOf(sideB);
    git(b, 'pull', '-q', '--rebase', 'origin', 'main');
    assert.ok(!journalOf(sideB).startsWith(before), 'the rebase moved lines B had read');
    const rebased = await reloadsDuring(() => stateOf(sideB.store));
    assert.equal(rebased.reloads, 0, 'the caches were not reloaded');
    assert.deepEqual(codes(sideB.store), []);
    assert.deepEqual(rebased.result, await rebuiltFrom(sideB.dir));
    assert.equal(rebased.result.live.length, merged.result.live.length + 20);

    // B writes on after the rebase, and a fresh process agrees.
    await sideB.service.edit({ id: base[1]!, content: 'after the rebase' });
    const written = await stateOf(sideB.store);
    await sideB.store.close();
    await sideA.store.close();
    assert.deepEqual(written, await rebuiltFrom(sideB.dir));
  });

  it('a store opened after a pull catches its saved caches up instead of rebuilding them', async () => {
    const { sideA, base, b } = await setUp();
    await sideA.store.close();
    const sideB = await openSide(b, 'b@example.com');
    await writeSome(sideB, 1000, 50, base.slice(10, 20), base.slice(0, 3));
    await sideB.store.close();
    commit(b, 'b writes');
    git(b, 'push', '-q', 'origin', 'HEAD:main');

    // A writes; its caches are saved at the end of its own lines; then it rebases onto B's.
    const a = await openSide(sideA.repo, 'a@example.com');
    await writeSome(a, 2000, 30, base.slice(15, 25));
    a.store.checkpoint();
    await a.store.close();
    commit(sideA.repo, 'a writes');
    const before = journalOf(a);
    git(sideA.repo, 'pull', '-q', '--rebase', 'origin', 'main');
    assert.ok(!journalOf(a).startsWith(before), 'the rebase moved lines the saved caches had read');

    const again = await openSide(sideA.repo, 'a@example.com');
    const state = await stateOf(again.store);
    assert.ok(!codes(again.store).includes('index-rebuilt'), 'the saved index was caught up, not rebuilt');
    assert.deepEqual(state, await rebuiltFrom(again.dir));
    await again.store.close();
  });

  it('rebuilds when history was rewritten (a reset drops lines it had applied), as before', async () => {
    const { sideA, base } = await setUp();
    const dropped = await writeSome(sideA, 2000, 20, base.slice(0, 5));
    commit(sideA.repo, 'a writes');
    await sideA.store.close();
    const again = await openSide(sideA.repo, 'a@example.com');
    assert.equal((await again.service.read({ id: dropped[5]! })).version, 1);
    git(sideA.repo, 'reset', '-q', '--hard', 'HEAD~1');

    const { result: state, reloads } = await reloadsDuring(() => stateOf(again.store));
    assert.equal(reloads, 1);
    assert.ok(codes(again.store).includes('index-rebuilt'), 'the view was rebuilt');
    // A rebuild is what the store did before it caught up incrementally (rows only the snapshot holds are kept).
    const before = await SqlJsStore.open({ dir: again.dir, incrementalCatchUp: false });
    assert.deepEqual(state, await stateOf(before));
    await before.close();
    await again.store.close();
  });
});
