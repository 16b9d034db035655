import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConflictError } from '../../../src/core/errors';
import { MemoryService } from '../../../src/core/memoryService';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory, openService } from '../../helpers/builders';
import { tmpDir } from '../../helpers/tmp';

const journal = (dir: string) => path.join(dir, 'journal.jsonl');
const lines = (dir: string) => fs.readFileSync(journal(dir), 'utf8').split('\n').filter(Boolean);
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const at = (minutes: number) => () => new Date(T0 + minutes * 60_000);

/** A second store that starts from a copy of `dir`'s journal, as a git clone would. */
async function cloneOf(dir: string, now: () => Date) {
  const copy = tmpDir();
  fs.copyFileSync(journal(dir), journal(copy));
  return openService({ dir: copy, now, author: 'clone@example.com' });
}

async function reopen(dir: string) {
  const store = await SqlJsStore.open({ dir });
  return { store, service: new MemoryService(store, { author: 'reopen', now: at(60) }) };
}

describe('sql.js store: a journal rewritten underneath it (git pull, merge, rebase)', () => {
  it('a long-lived store picks up lines inserted before its position, even in the same file (same inode)', async () => {
    const { dir, store, service } = await openService();
    await service.create(memory({ description: 'first local note' }));
    const b = await service.create(memory({ description: 'second local note' }));
    assert.equal((await service.list({})).items.length, 2); // the store has read to the end
    const other = await openService();
    const z = await other.service.create(memory({ description: 'Zanzibar from the other clone' }));
    await other.store.close();

    // What a union merge (or a rebase) can produce: the other side's line in the middle.
    const [first, second] = lines(dir);
    const inode = fs.statSync(journal(dir)).ino;
    fs.writeFileSync(journal(dir), `${first}\n${lines(other.dir)[0]}\n${second}\n`); // truncates in place: same inode
    assert.equal(fs.statSync(journal(dir)).ino, inode, 'the test needs the file rewritten in place');

    assert.deepEqual(
      (await service.search({ keywords: ['zanzibar'] })).map((h) => h.id),
      [z.id],
    );
    assert.equal((await service.read({ id: z.id })).description, 'Zanzibar from the other clone');
    assert.equal(await store.countVersions(), 3);
    assert.equal((await service.read({ id: b.id })).version, 1);
    assert.deepEqual(
      store.warnings().filter((w) => w.code === 'bad-journal-line'),
      [],
      'no line was read from the middle',
    );
    // Its next write continues the rewritten file, and a fresh process agrees.
    await service.edit({ id: b.id, content: 'after the merge' });
    await store.close();
    const again = await reopen(dir);
    assert.equal(await again.store.countVersions(), 4);
    assert.equal((await again.service.read({ id: b.id })).content, 'after the merge');
    await again.store.close();
  });

  it('a store opened after such a rewrite catches its saved index up with the inserted line, and replays the journal over the snapshot', async () => {
    const { dir, store, service } = await openService();
    await service.create(memory({ description: 'kept one' }));
    await service.create(memory({ description: 'kept two' }));
    store.checkpoint(); // snapshot.sqlite and search-index.bin at the end of both lines
    await store.close();
    const other = await openService();
    const z = await other.service.create(memory({ description: 'Zanzibar inserted while nobody ran' }));
    await other.store.close();
    const [first, second] = lines(dir);
    fs.writeFileSync(journal(dir), `${first}\n${lines(other.dir)[0]}\n${second}\n`);

    const again = await reopen(dir);
    assert.deepEqual(
      (await again.service.search({ keywords: ['zanzibar'] })).map((h) => h.id),
      [z.id],
    );
    assert.equal(await again.store.countVersions(), 3);
    assert.deepEqual(
      again.store
        .warnings()
        .map((w) => w.code)
        .sort(),
      // The saved index's lines are all still there: only the inserted one is applied to it.
      ['stale-snapshot'],
    );
    await again.store.close();
  });

  it('applies a line that appears twice (same rowId) once', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory());
    await service.edit({ id, content: 'second' });
    await store.close();
    const [create, edit] = lines(dir);
    fs.writeFileSync(journal(dir), `${create}\n${edit}\n${create}\n${edit}\n`);
    const again = await reopen(dir);
    assert.equal(await again.store.countVersions(), 2);
    assert.deepEqual(
      (await again.service.history({ id })).map((h) => h.version),
      [1, 2],
    );
    assert.equal((await again.service.read({ id })).content, 'second');
    await again.store.close();
  });

  describe('two clones that each edited the same version', () => {
    /** Base v1; clone A edits at minute 1, clone B at minute 2: two rows numbered 2. Returns both merge orders. */
    async function diverged() {
      const base = await openService({ now: at(0) });
      const { id } = await base.service.create(memory({ content: 'base' }));
      await base.store.close();
      const a = await cloneOf(base.dir, at(1));
      await a.service.edit({ id, content: 'edited on A' });
      await a.store.close();
      const b = await cloneOf(base.dir, at(2));
      await b.service.edit({ id, content: 'edited on B' });
      await b.store.close();
      const [baseLine, aLine, bLine] = [lines(base.dir)[0], lines(a.dir)[1], lines(b.dir)[1]];
      // A union merge keeps ours first: A's result and B's result differ in order only.
      fs.writeFileSync(journal(a.dir), `${baseLine}\n${aLine}\n${bLine}\n`);
      fs.writeFileSync(journal(b.dir), `${baseLine}\n${bLine}\n${aLine}\n`);
      return { id, dirs: [a.dir, b.dir] };
    }

    it('keeps both rows; history, current and read --version agree in either merge order', async () => {
      const { id, dirs } = await diverged();
      const seen = [];
      for (const dir of dirs) {
        const s = await reopen(dir);
        const history = await s.service.history({ id });
        const current = await s.service.read({ id });
        const v2 = await s.service.read({ id, version: 2 });
        seen.push({ history: history.map((h) => [h.version, h.content]), current: [current.version, current.content], v2: v2.content });
        await s.store.close();
      }
      assert.deepEqual(seen[0], {
        history: [
          [1, 'base'],
          [2, 'edited on A'],
          [2, 'edited on B'],
        ],
        current: [2, 'edited on B'], // the later changedAt
        v2: 'edited on B',
      });
      assert.deepEqual(seen[1], seen[0], 'both merge orders give the same answers');
    });

    it('the next edit gets the highest number + 1; an expected version is checked against the current row', async () => {
      const { id, dirs } = await diverged();
      const s = await reopen(dirs[0]!);
      await assert.rejects(s.service.edit({ id, content: 'stale', expectedVersion: 1 }), ConflictError);
      const e = await s.service.edit({ id, content: 'merged by hand', expectedVersion: 2 });
      assert.equal(e.version, 3);
      assert.equal((await s.service.read({ id })).content, 'merged by hand');
      // Restoring "version 2" brings back the same row read shows as version 2 (B's).
      const r = await s.service.restore({ id, version: 2 });
      assert.deepEqual(r, { id, version: 4, restoredFrom: 2 });
      assert.equal((await s.service.read({ id })).content, 'edited on B');
      await s.store.close();
    });
  });
});
