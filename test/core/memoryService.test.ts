import { strict as assert } from 'node:assert';
import { ConflictError, NotFoundError, SecretError, ValidationError } from '../../src/core/errors';
import { BACKENDS, memory, openService, prepareBackend } from '../helpers/builders';
import { rejects } from '../helpers/assertions';

for (const backend of BACKENDS)
  describe(`MemoryService [${backend}] (type-2 semantics through the Store interface)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });
    const open = (options: { author?: string; now?: () => Date } = {}) => openService({ ...options, backend });

    it('creates and reads a memory with author and version 1', async () => {
      const { service, store } = await open({ author: 'ana@example.com' });
      const { id } = await service.create(memory({ tags: ['Build', 'cache'] }));
      const m = await service.read({ id });
      assert.equal(m.version, 1);
      assert.equal(m.author, 'ana@example.com');
      assert.deepEqual(m.tags, ['build', 'cache']);
      assert.equal(m.deletedAt, undefined);
      assert.match(m.changedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      await store.close();
    });

    it('appends a version per edit, keeps the old one, and reports the changed fields', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory());
      const e = await service.edit({ id, content: 'New content', tags: ['build', 'ci'] });
      assert.deepEqual(e, { id, version: 2, changed: true, changedFields: ['tags', 'content'] });
      assert.equal((await service.read({ id })).content, 'New content');
      assert.equal((await service.read({ id, version: 1 })).content, 'Cleared the cache key.');
      assert.deepEqual(
        (await service.history({ id })).map((h) => [h.version, h.op]),
        [
          [1, 'create'],
          [2, 'edit'],
        ],
      );
      await store.close();
    });

    it('writes nothing for an edit that changes nothing, and says so', async () => {
      const { service, store, footprint } = await open();
      const { id } = await service.create(memory());
      const before = await footprint();
      const e = await service.edit({ id, description: memory().description, tags: ['cache', 'build'].reverse() });
      assert.deepEqual(e, { id, version: 1, changed: false, changedFields: [] });
      assert.equal(await footprint(), before);
      await store.close();
    });

    it('keeps changedAt strictly increasing even when the clock stands still or goes back', async () => {
      let t = Date.parse('2026-01-01T00:00:00.000Z');
      const { service, store } = await open({ now: () => new Date(t) });
      const { id } = await service.create(memory());
      await service.edit({ id, content: 'a' });
      t -= 60_000;
      await service.edit({ id, content: 'b' });
      await service.delete({ id });
      const times = (await service.history({ id })).map((h) => Date.parse(h.changedAt));
      for (let i = 1; i < times.length; i++) assert.ok(times[i]! > times[i - 1]!, `version ${i + 1} is not later`);
      await store.close();
    });

    it('refuses an edit with a stale expected version, naming the current version', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory());
      await service.edit({ id, content: 'second' });
      const err = await rejects(service.edit({ id, content: 'third', expectedVersion: 1 }), ConflictError, /at version 2, not 1/);
      assert.equal(err.currentVersion, 2);
      assert.equal((await service.read({ id })).content, 'second');
      await service.edit({ id, content: 'third', expectedVersion: 2 });
      await store.close();
    });

    it('soft-deletes: hidden from search and list, readable with deletedAt, restorable', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory({ description: 'Unique zebra crossing note' }));
      const d = await service.delete({ id });
      assert.equal(d.version, 2);
      assert.deepEqual(await service.search({ keywords: ['zebra'] }), []);
      assert.equal((await service.list({})).items.length, 0);
      assert.equal((await service.list({ deleted: true })).items[0]?.id, id);
      assert.equal((await service.read({ id })).deletedAt, d.deletedAt);
      await rejects(service.edit({ id, content: 'x' }), ConflictError, /was deleted/);
      await rejects(service.delete({ id }), ConflictError, /was deleted/);
      const r = await service.restore({ id });
      assert.deepEqual(r, { id, version: 3, restoredFrom: 1 });
      assert.equal((await service.search({ keywords: ['zebra'] }))[0]?.id, id);
      await store.close();
    });

    it('restores an older version as a new version and refuses a restore that changes nothing', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory({ content: 'first' }));
      await service.edit({ id, content: 'second' });
      assert.deepEqual(await service.restore({ id, version: 1 }), { id, version: 3, restoredFrom: 1 });
      assert.equal((await service.read({ id })).content, 'first');
      await rejects(service.restore({ id, version: 1 }), ConflictError, /same data/);
      await rejects(service.restore({ id, version: 2, expectedVersion: 2 }), ConflictError, /is at version 3, not 2/);
      await rejects(service.restore({ id }), ConflictError, /not deleted/);
      await rejects(service.restore({ id, version: 9 }), NotFoundError, /no version 9/);
      await store.close();
    });

    it('gives a clear not-found for unknown ids', async () => {
      const { service, store } = await open();
      const id = '00000000-0000-4000-8000-000000000000';
      await rejects(service.read({ id }), NotFoundError, /does not exist; search/);
      await rejects(service.edit({ id, content: 'x' }), NotFoundError);
      await rejects(service.delete({ id }), NotFoundError);
      await rejects(service.history({ id }), NotFoundError);
      await store.close();
    });

    it('refuses secrets in any field and writes nothing', async () => {
      const { service, store, footprint } = await open();
      const { id } = await service.create(memory());
      const before = await footprint();
      const token = ['xoxb-', '123456789012-abcdefghijkl'].join('');
      await rejects(service.create(memory({ content: `use ${token}` })), SecretError, /content: line 1 .* Slack token/);
      await rejects(service.edit({ id, description: `token ${token}` }), SecretError, /^description:/);
      assert.equal(await footprint(), before);
      await store.close();
    });

    it('refuses NUL and unpaired surrogates in any field of create and edit, naming the field, and writes nothing', async () => {
      // sql.js would keep them; PostgreSQL refused NUL with a misleading storage error; neither could be migrated.
      const { service, store, footprint } = await open();
      const { id } = await service.create(memory());
      const before = await footprint();
      await rejects(
        service.create(memory({ content: 'line one\nbefore\u0000after' })),
        ValidationError,
        /^content: line 2 contains a NUL character \(\\u0000\)/,
      );
      await rejects(
        service.create(memory({ description: 'cut emoji \uD83D' })),
        ValidationError,
        /^description: line 1 contains half of a UTF-16 surrogate pair \(\\uD83D\)/,
      );
      await rejects(
        service.edit({ id, content: 'stray \uDE00 low half' }),
        ValidationError,
        /^content: line 1 contains half of a UTF-16 surrogate pair \(\\uDE00\)/,
      );
      await rejects(service.edit({ id, description: 'a\u0000b' }), ValidationError, /^description: /);
      assert.equal(await footprint(), before);
      // A whole emoji (a surrogate pair) is ordinary text.
      await service.edit({ id, content: 'shipped 🚀' });
      assert.equal((await service.read({ id })).content, 'shipped 🚀');
      await store.close();
    });

    it('refuses a secret used as a tag, before lower-casing, without echoing it', async () => {
      const { service, store, footprint } = await open();
      const key = ['AIza', 'SyA1234567890abcdefghijklmnopqrstuv'].join('');
      const err = await rejects(
        service.create(memory({ tags: ['ok', key] })),
        ValidationError,
        /tags\[1\]: tag contains what looks like a Google API key/,
      );
      assert.ok(!err.message.toLowerCase().includes(key.toLowerCase().slice(4)));
      const url = ['pg://admin:', 'hunter2pass@db'].join('');
      const e2 = await rejects(service.create(memory({ tags: [url] })), ValidationError, /password inside a URL/);
      assert.ok(!e2.message.includes('hunter2pass'));
      assert.equal(await footprint(), 0);
      await store.close();
    });

    it('refuses a restore when the memory changed after its history was read', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory({ content: 'A' }));
      await service.delete({ id });
      // Another writer gets in between the history read and the write of this restore.
      const realHistory = store.history.bind(store);
      store.history = async (hid: string) => {
        const h = await realHistory(hid);
        store.history = realHistory;
        await service.restore({ id });
        await service.edit({ id, content: 'C' });
        await service.delete({ id });
        return h;
      };
      await rejects(service.restore({ id }), ConflictError, /changed while it was being restored/);
      await service.restore({ id });
      assert.equal((await service.read({ id })).content, 'C', 'undo-delete brings back the latest data');
      await store.close();
    });

    it('refuses an edit without any field to change', async () => {
      const { service, store } = await open();
      const { id } = await service.create(memory());
      await rejects(service.edit({ id }), ValidationError, /at least one of description, tags, content or citations/);
      await store.close();
    });

    it('lists a page at a time with a cursor, newest change first', async () => {
      let t = Date.parse('2026-01-01T00:00:00.000Z');
      const { service, store } = await open({ now: () => new Date((t += 1000)) });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await service.create(memory({ description: `memory ${i}` }))).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await service.list({ limit: 3, ...(cursor ? { cursor } : {}) });
        assert.ok(page.items.length <= 3);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, [...ids].reverse());
      await rejects(service.list({ cursor: 'garbage' }), ValidationError, /cursor/);
      await store.close();
    });

    it('reports the tag vocabulary with counts and suggestions close to proposed tags', async () => {
      const { service, store } = await open();
      await service.create(memory({ tags: ['build', 'cache'] }));
      await service.create(memory({ tags: ['build', 'build-system'] }));
      const t = await service.tags({ proposed: ['Builds', 'cache'] });
      assert.deepEqual(t.tags.slice(0, 1), [{ tag: 'build', count: 2 }]);
      assert.equal(t.totalTags, 3);
      assert.equal(t.suggestions[0]!.normalized, 'builds');
      assert.equal(t.suggestions[0]!.exists, false);
      assert.equal(t.suggestions[0]!.similar[0]!.tag, 'build');
      assert.equal(t.suggestions[1]!.exists, true);
      await store.close();
    });

    it('purges every version from wherever the store keeps it, and refuses later edits as not found', async () => {
      const { service, upkeep, store, persist, leftovers, purgedBy } = await open({ author: 'ana@example.com' });
      const keep = await service.create(memory({ content: 'keep me' }));
      const { id } = await service.create(memory({ content: 'MARKER-leaked-value' }));
      await service.edit({ id, content: 'MARKER-leaked-value again' });
      await persist();
      assert.ok((await leftovers('MARKER-leaked-value')).length > 0, 'the marker is stored before the purge');
      assert.deepEqual(await upkeep.purge({ id }), { id, versionsRemoved: 2 });
      assert.equal(await purgedBy(id), 'ana@example.com', 'the tombstone names who purged');
      assert.deepEqual(await leftovers('MARKER-leaked-value'), [], 'still holds the purged content');
      await rejects(service.read({ id }), NotFoundError);
      assert.equal((await service.read({ id: keep.id })).content, 'keep me');
      await store.close();
    });

    it('exports every version and imports them idempotently into another store', async () => {
      const a = await open();
      const { id } = await a.service.create(memory());
      await a.service.edit({ id, content: 'v2' });
      await a.service.delete({ id });
      const rows: unknown[] = [];
      for await (const r of a.upkeep.exportVersions()) rows.push(r);
      assert.equal(rows.length, 3);
      const b = await open();
      assert.deepEqual(await b.upkeep.importVersions(rows), { added: 3, skipped: 0 });
      assert.deepEqual(await b.upkeep.importVersions(rows), { added: 0, skipped: 3 });
      assert.deepEqual(
        (await b.service.history({ id })).map((h) => h.op),
        ['create', 'edit', 'delete'],
      );
      const bad = [{ ...(rows[0] as object), rowId: '11111111-1111-4111-8111-111111111111', tags: ['no spaces!'] }];
      await rejects(
        b.upkeep.importVersions(bad, (i) => `line ${i + 1}`),
        ValidationError,
        /^line 1: tags\[0\]/,
      );
      await a.store.close();
      await b.store.close();
    });
  });
