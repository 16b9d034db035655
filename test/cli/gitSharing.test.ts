import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../src/core/memoryService';
import { writeGitFiles } from '../../src/store/sqljs/gitSharing';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { memory } from '../helpers/builders';
import { tmpDir } from '../helpers/tmp';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const STORE = '.agent-memory';
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const minute = (n: number) => new Date(T0 + n * 60_000);

/** The machine's and the user's git configuration stay out of it (and untouched). */
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: GIT_ENV,
  });
  assert.equal(r.status, 0, `git ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

function cli(cwd: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...GIT_ENV, AGENT_MEMORY_AUTHOR: 'cli@example.com' },
  });
  assert.equal(r.status, 0, `agent-memory ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** A store and service in a clone's store folder, with a clock the test moves. */
async function open(repo: string) {
  const clock = { now: minute(0) };
  const store = await SqlJsStore.open({ dir: path.join(repo, STORE) });
  const service = new MemoryService(store, { author: `${path.basename(repo)}@example.com`, now: () => clock.now });
  return { store, service, clock };
}

const journalOf = (repo: string) => fs.readFileSync(path.join(repo, STORE, 'journal.jsonl'), 'utf8');
const exported = (repo: string) =>
  cli(repo, 'export')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { rowId: string });

/** What a clone's store says about each memory: the current row and the history, by content. */
async function answers(service: MemoryService, ids: string[]) {
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const r = await service.read({ id });
    const h = await service.history({ id });
    out[id] = { current: [r.version, r.content, r.deletedAt ?? null], history: h.map((v) => [v.version, v.op, v.content]) };
  }
  return out;
}

describe('sharing the store through git (real git, union merge)', function () {
  this.timeout(120_000);
  before(() => assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `npm run build` first'));

  it('two clones edit the same memory, delete one, merge in either order: no conflict, every version, one answer', async () => {
    const root = tmpDir('am-git-');
    const origin = path.join(root, 'origin.git');
    const seed = path.join(root, 'seed');
    git(root, 'init', '-q', '--bare', '-b', 'main', origin);
    git(root, 'init', '-q', '-b', 'main', seed);

    const init = cli(seed, 'init');
    assert.match(init, /\.gitattributes: created with "journal\.jsonl merge=union -text"/);
    assert.match(
      init,
      /\.gitignore: created with "\*", "!journal\.jsonl", "!\.gitignore", "!\.gitattributes", "!policy\.yaml", "!ontology\.yaml"/,
    );
    const written = ['.gitattributes', '.gitignore'].map((f) => fs.readFileSync(path.join(seed, STORE, f), 'utf8'));
    assert.match(cli(seed, 'init'), /\.gitattributes: already up to date\n.*\.gitignore: already up to date/s);
    assert.deepEqual(
      ['.gitattributes', '.gitignore'].map((f) => fs.readFileSync(path.join(seed, STORE, f), 'utf8')),
      written,
    );

    const s = await open(seed);
    const shared = (await s.service.create(memory({ description: 'Shared note both clones edit', content: 'base' }))).id;
    const doomed = (await s.service.create(memory({ description: 'Note one clone deletes', content: 'base' }))).id;
    s.store.checkpoint(); // snapshot.sqlite and search-index.bin exist: they must not be committed
    await s.store.close();
    git(seed, 'add', '-A');
    git(seed, 'commit', '-q', '-m', 'memories');
    assert.deepEqual(git(seed, 'ls-files').trim().split('\n'), [
      `${STORE}/.gitattributes`,
      `${STORE}/.gitignore`,
      `${STORE}/journal.jsonl`,
    ]);
    assert.match(git(seed, 'check-attr', 'merge', '--', `${STORE}/journal.jsonl`), /merge: union/);
    git(seed, 'push', '-q', origin, 'main');

    const [a, b] = ['a', 'b'].map((n) => path.join(root, n));
    for (const c of [a!, b!]) git(root, 'clone', '-q', origin, c);

    // Clone A: a long-lived store (like the VS Code extension), open across the merge.
    const A = await open(a!);
    A.clock.now = minute(1);
    await A.service.edit({ id: shared, content: 'edited on A' });
    const onlyA = (await A.service.create(memory({ description: 'Written only on clone A: aardvark', content: 'a' }))).id;
    A.clock.now = minute(3);
    await A.service.delete({ id: doomed });
    A.store.checkpoint(); // caches on disk that the merge will make stale
    git(a!, 'add', '-A');
    git(a!, 'commit', '-q', '-m', 'A');

    const B = await open(b!);
    B.clock.now = minute(2);
    await B.service.edit({ id: shared, content: 'edited on B' });
    await B.service.edit({ id: doomed, content: 'edited on B before A deleted it' });
    const onlyB = (await B.service.create(memory({ description: 'Written only on clone B: bison', content: 'b' }))).id;
    await B.store.close();
    git(b!, 'add', '-A');
    git(b!, 'commit', '-q', '-m', 'B');

    // Each merges the other's commit: the same lines, each clone's own first.
    const [commitA, commitB] = [git(a!, 'rev-parse', 'HEAD').trim(), git(b!, 'rev-parse', 'HEAD').trim()];
    git(a!, 'fetch', '-q', b!, 'main');
    git(a!, 'merge', '-q', '--no-edit', commitB);
    git(b!, 'fetch', '-q', a!, 'main');
    git(b!, 'merge', '-q', '--no-edit', commitA);
    for (const c of [a!, b!]) {
      assert.doesNotMatch(journalOf(c), /^(<<<<<<<|=======|>>>>>>>)/m, 'conflict markers in the journal');
      assert.equal(git(c, 'status', '--porcelain'), '', 'the caches show up in git status');
    }
    assert.notEqual(journalOf(a!), journalOf(b!), 'the two merges should order the lines differently');
    assert.deepEqual(journalOf(a!).split('\n').sort(), journalOf(b!).split('\n').sort());

    // 2 base rows + 3 written on A + 3 on B, none lost, none doubled.
    for (const c of [a!, b!]) assert.equal(new Set(exported(c).map((r) => r.rowId)).size, 8);
    assert.equal(exported(a!).length, 8);

    const ids = [shared, doomed, onlyA, onlyB];
    const expected = {
      [shared]: {
        current: [2, 'edited on B', null],
        history: [
          [1, 'create', 'base'],
          [2, 'edit', 'edited on A'],
          [2, 'edit', 'edited on B'],
        ],
      },
      [doomed]: {
        current: [2, 'base', minute(3).toISOString()],
        history: [
          [1, 'create', 'base'],
          [2, 'edit', 'edited on B before A deleted it'],
          [2, 'delete', 'base'],
        ],
      },
      [onlyA]: { current: [1, 'a', null], history: [[1, 'create', 'a']] },
      [onlyB]: { current: [1, 'b', null], history: [[1, 'create', 'b']] },
    };
    // The store open since before the merge sees it on its next read, without reopening.
    assert.deepEqual(
      (await A.service.search({ keywords: ['bison'] })).map((h) => h.id),
      [onlyB],
    );
    assert.deepEqual(await answers(A.service, ids), expected);
    await A.store.close();
    // Fresh stores over the stale caches each clone has on disk.
    for (const c of [a!, b!]) {
      const fresh = await open(c);
      assert.deepEqual(await answers(fresh.service, ids), expected, `clone ${path.basename(c)}`);
      assert.deepEqual((await fresh.service.search({ keywords: ['written', 'only'] })).map((h) => h.id).sort(), [onlyA, onlyB].sort());
      await fresh.store.close();
    }
    // The next edit after the merge numbers past both version 2 rows.
    const after = await open(a!);
    after.clock.now = minute(5);
    assert.equal((await after.service.edit({ id: shared, content: 'settled', expectedVersion: 2 })).version, 3);
    await after.store.close();
  });

  it('a rebase puts the other side first: an open store sees the lines that moved in front of it', async () => {
    const root = tmpDir('am-git-');
    const upstream = path.join(root, 'up');
    git(root, 'init', '-q', '-b', 'main', upstream);
    cli(upstream, 'init');
    const u = await open(upstream);
    const base = (await u.service.create(memory({ description: 'Base note', content: 'base' }))).id;
    git(upstream, 'add', '-A');
    git(upstream, 'commit', '-q', '-m', 'base');
    const mine = path.join(root, 'mine');
    git(root, 'clone', '-q', upstream, mine);

    const M = await open(mine);
    M.clock.now = minute(2);
    const local = (await M.service.create(memory({ description: 'Local rebased note', content: 'local' }))).id;
    // A CLI run in the same clone (an agent outside VS Code) appends too; the open store catches up.
    const viaCli = cli(mine, 'create', '--description', 'Noted by the command line', '--tags', 'cli', '--content', 'c').trim();
    assert.equal((await M.service.read({ id: viaCli })).content, 'c');
    M.store.checkpoint();
    git(mine, 'add', '-A');
    git(mine, 'commit', '-q', '-m', 'mine');

    u.clock.now = minute(1);
    await u.service.edit({ id: base, content: 'edited upstream' });
    const theirs = (await u.service.create(memory({ description: 'Upstream zeppelin note', content: 'up' }))).id;
    await u.store.close();
    git(upstream, 'commit', '-q', '-am', 'upstream');

    const before = journalOf(mine);
    git(mine, 'pull', '-q', '--rebase', 'origin', 'main');
    const merged = journalOf(mine);
    assert.ok(!merged.startsWith(before), 'the rebase should have put upstream lines before the local ones');
    assert.doesNotMatch(merged, /^(<<<<<<<|=======|>>>>>>>)/m);

    assert.deepEqual(
      (await M.service.search({ keywords: ['zeppelin'] })).map((h) => h.id),
      [theirs],
    );
    assert.equal((await M.service.read({ id: base })).content, 'edited upstream');
    assert.equal((await M.service.read({ id: local })).content, 'local');
    assert.equal(await M.store.countVersions(), 5);
    assert.deepEqual(
      M.store.warnings().filter((w) => w.code === 'bad-journal-line'),
      [],
    );
    // A fresh process while the caches on disk still describe the journal before the rebase.
    assert.equal(exported(mine).length, 5);
    await M.store.close();
  });

  it('episodes and facts written on two clones merge too: both see every record, a long-lived store without reopening', async () => {
    const root = tmpDir('am-git-');
    const origin = path.join(root, 'origin.git');
    git(root, 'init', '-q', '--bare', '-b', 'main', origin);
    const [a, b] = ['a', 'b'].map((n) => path.join(root, n)) as [string, string];
    git(root, 'init', '-q', '-b', 'main', a);
    cli(a, 'episode', 'record', '--task', 'Seed episode', '--outcome', 'success', '--source', 'issue:#1');
    git(a, 'add', '-A');
    git(a, 'commit', '-q', '-m', 'seed');
    git(a, 'push', '-q', origin, 'main');
    git(root, 'clone', '-q', origin, b);
    const longLived = await SqlJsStore.open({ dir: path.join(a, STORE) });
    assert.equal(await longLived.records.count({ kind: 'episode' }), 1);
    cli(a, 'episode', 'record', '--task', 'Written on A', '--outcome', 'failure', '--source', 'issue:#2');
    cli(b, 'fact', 'assert', '--subject', 'billing', '--predicate', 'uses', '--object', 'ledger', '--source', 'b', '--confidence', '1');
    cli(b, 'episode', 'record', '--task', 'Written on B', '--outcome', 'success', '--source', 'issue:#3');
    for (const c of [a, b]) {
      git(c, 'add', '-A');
      git(c, 'commit', '-q', '-m', path.basename(c));
    }
    git(a, 'fetch', '-q', b, 'main');
    git(a, 'merge', '-q', '--no-edit', 'FETCH_HEAD');
    assert.doesNotMatch(journalOf(a), /^(<<<<<<<|=======|>>>>>>>)/m);
    const tasks = (c: string) =>
      (JSON.parse(cli(c, '--json', 'episode', 'list')) as { items: Array<{ task: string }> }).items.map((e) => e.task).sort();
    assert.deepEqual(tasks(a), ['Seed episode', 'Written on A', 'Written on B']);
    assert.deepEqual(
      (JSON.parse(cli(a, '--json', 'fact', 'query', '--subject', 'billing')) as { items: Array<{ object: string }> }).items.map(
        (f) => f.object,
      ),
      ['ledger'],
    );
    assert.equal(await longLived.records.count({ kind: 'episode' }), 3, 'the open store picks up the merged records');
    assert.equal(await longLived.records.count({ kind: 'fact' }), 1);
    await longLived.close();
  });

  describe('the git files', () => {
    const ignored = (repo: string, file: string) =>
      spawnSync('git', ['check-ignore', '-q', '--', file], { cwd: repo, env: GIT_ENV }).status === 0;

    it('are written by the store when it creates its folder: only the journal, the policy, the ontology and the git files are committed', async () => {
      const repo = tmpDir('am-git-');
      git(repo, 'init', '-q', '-b', 'main');
      const s = await open(repo);
      assert.equal(fs.existsSync(path.join(repo, STORE)), false, 'no folder before the first write');
      await s.service.create(memory());
      s.store.checkpoint();
      await s.store.close();
      for (const f of ['journal.jsonl', '.gitignore', '.gitattributes', 'policy.yaml', 'ontology.yaml'])
        assert.equal(ignored(repo, `${STORE}/${f}`), false, f);
      for (const f of ['snapshot.sqlite', 'search-index.bin', 'write.lock', 'journal.torn-2025.jsonl', 'snapshot.corrupt-1.sqlite']) {
        assert.equal(ignored(repo, `${STORE}/${f}`), true, f);
      }
      assert.match(cli(repo, 'init'), /already up to date\n.*already up to date/s);
    });

    it('are written at the first write into a folder a person made first (for ontology.yaml, say)', async () => {
      const repo = tmpDir('am-git-');
      git(repo, 'init', '-q', '-b', 'main');
      fs.mkdirSync(path.join(repo, STORE));
      fs.writeFileSync(path.join(repo, STORE, 'ontology.yaml'), 'types: [service]\nrelations: []\n');
      const s = await open(repo);
      await s.service.create(memory());
      await s.store.close();
      assert.match(fs.readFileSync(path.join(repo, STORE, '.gitattributes'), 'utf8'), /journal\.jsonl merge=union -text/);
      assert.equal(ignored(repo, `${STORE}/snapshot.sqlite`), true);
      assert.equal(ignored(repo, `${STORE}/ontology.yaml`), false);
    });

    it('keep the lines a person added, and put the exceptions after the last "*"', () => {
      const repo = tmpDir('am-git-');
      git(repo, 'init', '-q', '-b', 'main');
      const dir = path.join(repo, STORE);
      fs.mkdirSync(dir);
      // A hand-written file where "*" comes last would hide the journal.
      fs.writeFileSync(path.join(dir, '.gitignore'), '!journal.jsonl\nnotes.txt\n*');
      fs.writeFileSync(path.join(dir, '.gitattributes'), '*.md diff=markdown\n');
      const [attrs, ignore] = writeGitFiles(dir);
      assert.deepEqual(attrs!.added, ['journal.jsonl merge=union -text']);
      assert.deepEqual(ignore!.added, ['!journal.jsonl', '!.gitignore', '!.gitattributes', '!policy.yaml', '!ontology.yaml']);
      assert.match(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8'), /^!journal\.jsonl\nnotes\.txt\n\*\n# Agent Memory/);
      assert.match(fs.readFileSync(path.join(dir, '.gitattributes'), 'utf8'), /^\*\.md diff=markdown\n/);
      assert.equal(ignored(repo, `${STORE}/journal.jsonl`), false);
      assert.equal(ignored(repo, `${STORE}/notes.txt`), true);
      const again = writeGitFiles(dir);
      assert.deepEqual(
        again.map((r) => r.added),
        [[], []],
        'a second run adds nothing',
      );
    });
  });
});
