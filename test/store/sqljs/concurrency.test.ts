import { strict as assert } from 'node:assert';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { MemoryService } from '../../../src/core/memoryService';
import { memory } from '../../helpers/builders';
import { killWriterAfter, runWriter } from '../../helpers/processes';
import { tmpDir } from '../../helpers/tmp';

describe('sql.js store across processes', function () {
  this.timeout(180_000);

  it('loses nothing when 4 processes each create 100 memories at once', async () => {
    const dir = tmpDir();
    const runs = await Promise.all([1, 2, 3, 4].map((i) => runWriter([dir, 'create', '100', `proc-${i}`])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const acked = runs.flatMap((r) => r.acks.map((a) => a.split(' ')[1]!));
    assert.equal(acked.length, 400);
    assert.equal(new Set(acked).size, 400);

    const store = await SqlJsStore.open({ dir });
    const service = new MemoryService(store, { author: 'checker' });
    assert.equal(await store.countVersions(), 400);
    for (const id of acked) assert.equal((await service.read({ id })).version, 1);
    const tags = await service.tags({});
    assert.deepEqual(
      tags.tags.map((t) => t.count),
      [100, 100, 100, 100],
    );
    assert.deepEqual(store.warnings(), []);
    await store.close();
  });

  it('keeps every version when 4 processes edit the same memory concurrently', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const service = new MemoryService(store, { author: 'setup' });
    const { id } = await service.create(memory());
    const runs = await Promise.all([1, 2, 3, 4].map(() => runWriter([dir, 'edit', '25', id])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const versions = runs.flatMap((r) => r.acks.map((a) => Number(a.split(' ')[2])));
    assert.equal(new Set(versions).size, 100, 'each acknowledged edit got its own version number');

    // The long-lived store sees the other processes' writes without reopening.
    const history = await service.history({ id });
    assert.deepEqual(
      history.map((h) => h.version),
      Array.from({ length: 101 }, (_, i) => i + 1),
    );
    for (let i = 1; i < history.length; i++) assert.ok(history[i]!.changedAt > history[i - 1]!.changedAt);
    assert.equal(new Set(history.slice(1).map((h) => h.author)).size, 4);
    await store.close();
  });

  it('sees a write made by another process without reopening', async () => {
    const dir = tmpDir();
    const reader = await SqlJsStore.open({ dir });
    const service = new MemoryService(reader, { author: 'reader' });
    assert.deepEqual(await service.search({ keywords: ['memory'] }), []);
    const r = await runWriter([dir, 'create', '3', 'elsewhere']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await service.search({ keywords: ['elsewhere'] })).length, 3);
    assert.equal((await service.list({})).items.length, 3);
    await reader.close();
  });

  it("a search applies another process's writes to the index first; the database takes them, in order, at its next use", async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const service = new MemoryService(store, { author: 'here' });
    const { id: mine } = await service.create(memory({ description: 'Kept here, edited elsewhere' }));
    await service.read({ id: mine }); // the database is loaded
    const other = await SqlJsStore.open({ dir });
    const elsewhere = new MemoryService(other, { author: 'there' });
    const { id: theirs } = await elsewhere.create(memory({ description: 'Written elsewhere first' }));
    await elsewhere.edit({ id: mine, content: 'their edit' });
    // The search catches up (the index only), then our own write queues behind what the database has not taken yet.
    assert.deepEqual((await service.search({ keywords: ['elsewhere'] })).map((h) => h.id).sort(), [mine, theirs].sort());
    assert.equal((await service.edit({ id: mine, content: 'our edit' })).version, 3, 'decided with their edit applied');
    assert.equal((await service.read({ id: theirs })).description, 'Written elsewhere first');
    assert.deepEqual(
      (await service.history({ id: mine })).map((v) => v.content),
      [memory().content, 'their edit', 'our edit'],
    );
    await other.close();
    await store.close(); // saves the snapshot with every line taken
    const reopened = await SqlJsStore.open({ dir });
    assert.equal((await new MemoryService(reopened, { author: 'x' }).read({ id: mine })).version, 3);
    assert.deepEqual(reopened.warnings(), []);
    await reopened.close();
  });

  it('many in-flight writes from one process are serialised, none lost', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const service = new MemoryService(store, { author: 'burst' });
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => service.create(memory({ description: `burst ${i}` }))));
    assert.equal(new Set(ids.map((r) => r.id)).size, 50);
    const { id } = ids[0]!;
    const edits = await Promise.all(Array.from({ length: 20 }, (_, i) => service.edit({ id, content: `edit ${i}` })));
    assert.deepEqual(
      edits.map((e) => e.version).sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    await store.close();
  });

  it('a process killed at any moment leaves a store with every acknowledged write', async () => {
    const dir = tmpDir();
    const acked: string[] = [];
    for (const ms of [150, 400, 50, 700, 300]) acked.push(...(await killWriterAfter(dir, ms)));
    assert.ok(acked.length > 20, `only ${acked.length} writes acknowledged before the kills`);
    const store = await SqlJsStore.open({ dir, lockStaleMs: 2000 });
    const service = new MemoryService(store, { author: 'checker' });
    for (const id of acked) assert.equal((await service.read({ id })).version, 1, `acknowledged ${id} is missing`);
    // Whatever a kill left behind (a torn line, a stale lock), the store takes writes again.
    const { id } = await service.create(memory());
    assert.equal((await service.read({ id })).version, 1);
    for (const w of store.warnings()) assert.equal(w.code, 'torn-journal-tail', w.message);
    await store.close();
  });
});
