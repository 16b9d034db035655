import { strict as assert } from 'node:assert';
import type { LocalIndexMode } from '../../src/store/postgres/localIndex';
import type { PgStore } from '../../src/store/postgres/pgStore';
import { type Backend, BACKENDS, corpusQueries, corpusRows, memory, openService, prepareBackend, type Opened } from '../helpers/builders';

/**
 * Every backend, and PostgreSQL once more with each way it can rank: `eager` always through
 * the local index (core's SearchIndex fed from the server), `off` always on the server.
 */
const VARIANTS: Array<{ backend: Backend; localIndex?: LocalIndexMode; name: string }> = [
  ...BACKENDS.map((backend) => ({ backend, name: backend })),
  { backend: 'postgres', localIndex: 'eager', name: 'postgres, local index' },
  { backend: 'postgres', localIndex: 'off', name: 'postgres, server only' },
];

/**
 * Search through the Store interface, on every backend: the rules an agent relies on
 * (tag filter, deleted memories hidden, limit, tag matches first, inflections) must hold
 * whatever the store, and PostgreSQL must rank the evaluation corpus as the workspace store does.
 */
for (const { backend, localIndex, name } of VARIANTS.filter((v) => BACKENDS.includes(v.backend)))
  describe(`search [${name}] (through the Store interface)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });
    let t = Date.parse('2026-02-01T00:00:00.000Z');
    const open = () => openService({ backend, localIndex, now: () => new Date((t += 1000)) });
    const ids = async (o: Opened, keywords: string[], extra: { tags?: string[]; limit?: number } = {}) =>
      (await o.service.search({ keywords, ...extra })).map((h) => h.id);

    it('ranks an exact tag match above a newer description match', async () => {
      const o = await open();
      const tagged = (
        await o.service.create(memory({ description: 'Slow builds after upgrading the toolchain', tags: ['redis', 'builds'] }))
      ).id;
      const described = (await o.service.create(memory({ description: 'Redis connections leaked under load', tags: ['networking'] }))).id;
      assert.deepEqual(await ids(o, ['redis']), [tagged, described]);
      await o.store.close();
    });

    it('returns only memories carrying every tag of the filter, and none for an unknown tag', async () => {
      const o = await open();
      const both = (await o.service.create(memory({ description: 'cache eviction policy', tags: ['cache', 'redis'] }))).id;
      await o.service.create(memory({ description: 'cache warmup on deploy', tags: ['cache'] }));
      assert.deepEqual(await ids(o, ['cache'], { tags: ['cache', 'redis'] }), [both]);
      assert.deepEqual(await ids(o, ['cache'], { tags: ['Redis'] }), [both], 'filter tags are normalised');
      assert.deepEqual(await ids(o, ['cache'], { tags: ['nowhere'] }), []);
      await o.store.close();
    });

    it('hides deleted memories and shows them again once restored', async () => {
      const o = await open();
      const { id } = await o.service.create(memory({ description: 'Quartz scheduler misfire', tags: ['quartz'] }));
      await o.service.delete({ id });
      assert.deepEqual(await ids(o, ['quartz']), []);
      assert.deepEqual(await ids(o, ['misfire']), []);
      await o.service.restore({ id });
      assert.deepEqual(await ids(o, ['quartz']), [id]);
      await o.store.close();
    });

    it('returns at most limit results, the best first', async () => {
      const o = await open();
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await o.service.create(memory({ description: `webpack note ${i}`, tags: ['misc'] }))).id);
      const best = (await o.service.create(memory({ description: 'webpack chunk names', tags: ['webpack'] }))).id;
      const two = await ids(o, ['webpack'], { limit: 2 });
      assert.equal(two.length, 2);
      assert.equal(two[0], best);
      assert.equal((await ids(o, ['webpack'])).length, 6);
      await o.store.close();
    });

    it('matches inflections, compounds, tag prefixes, and follows edits', async () => {
      const o = await open();
      const { id } = await o.service.create(
        memory({ description: 'Cleared the build cache key; getByRole was flaky', tags: ['typescript-config'] }),
      );
      const other = (
        await o.service.create(
          memory({
            description: 'Unrelated docker playbook note',
            tags: ['docker'],
            content: 'The layer cache was cold: ERR_LAYER_MISSING.',
          }),
        )
      ).id;
      assert.deepEqual(await ids(o, ['caching']), [id, other], 'the description before the content');
      assert.deepEqual(await ids(o, ['role']), [id]);
      assert.deepEqual(await ids(o, ['type']), [id], 'a keyword that starts a tag');
      assert.deepEqual(await ids(o, ['the']), [], 'a stop word alone matches nothing');
      assert.deepEqual(await ids(o, ['ERR_LAYER_MISSING']), [other], 'an identifier of the content');
      await o.service.edit({ id, description: 'Pinned the node version', tags: ['node'], content: 'Pinned it.' });
      await o.service.edit({ id: other, content: 'Nothing to see.' });
      assert.deepEqual(await ids(o, ['caching']), []);
      assert.deepEqual(await ids(o, ['ERR_LAYER_MISSING']), []);
      assert.deepEqual(await ids(o, ['pinned']), [id]);
      await o.store.close();
    });
  });

/** The evaluation sets whose corpora both stores must rank alike. */
const EVAL_SETS = ['eval', 'eval2'];

// Compares the two backends: runs when both are selected (not in `npm run test:unit`).
for (const localIndex of BACKENDS.includes('postgres') ? ([undefined, 'eager', 'off'] as const) : [])
  describe(`search ranks alike on sql.js and PostgreSQL (the evaluation corpora, local index ${localIndex ?? 'background'})`, function () {
    before(async function () {
      await prepareBackend('postgres', this);
    });

    for (const set of EVAL_SETS)
      it(`gives the same results in the same order for every query of ${set}, with and without a tag filter`, async () => {
        const rows = corpusRows(set);
        const [a, b] = [await openService({ backend: 'sqljs' }), await openService({ backend: 'postgres', localIndex })];
        await a.upkeep.importVersions(rows);
        await b.upkeep.importVersions(rows);
        const queries = corpusQueries(set);
        let nonEmpty = 0;
        for (const q of queries) {
          const sqljs = await a.service.search({ keywords: q.keywords, limit: 20 });
          const pg = await b.service.search({ keywords: q.keywords, limit: 20 });
          assert.deepEqual(
            pg.map((h) => h.id),
            sqljs.map((h) => h.id),
            `query ${q.id} ${JSON.stringify(q.keywords)}`,
          );
          if (sqljs.length) nonEmpty++;
          const tag = sqljs[0]?.tags[0];
          if (tag) {
            const filtered = { keywords: q.keywords, tags: [tag], limit: 5 };
            assert.deepEqual(
              (await b.service.search(filtered)).map((h) => h.id),
              (await a.service.search(filtered)).map((h) => h.id),
              `query ${q.id} with tag ${tag}`,
            );
          }
        }
        assert.ok(nonEmpty > queries.length / 2, `only ${nonEmpty} of ${queries.length} queries found anything`);
        // The path under test was the one taken: eager ranks locally, off never loads an index.
        const local = (b.store as PgStore).localIndexSize;
        if (localIndex === 'eager') assert.equal(local, rows.length);
        if (localIndex === 'off') assert.equal(local, undefined);
        await a.store.close();
        await b.store.close();
      });
  });
