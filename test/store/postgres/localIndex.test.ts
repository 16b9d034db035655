import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { ANALYZER_VERSION } from '../../../src/core/search/analysis';
import { analyzeQuery } from '../../../src/core/search/query';
import { LocalIndex } from '../../../src/store/postgres/localIndex';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import { createdRow, memory, openPg } from '../../helpers/builders';
import { requirePostgres, withClient } from '../../helpers/postgres';

type Pg = Awaited<ReturnType<typeof openPg>>;

/** Through the store, so a search may return more than the tools' 50. */
const ids = async (o: Pg, keywords: string[], limit = 1000) => (await o.store.search(analyzeQuery(keywords, [], limit))).map((h) => h.id);

/**
 * The local search index of long-lived PostgreSQL clients (localIndex.ts): it must follow
 * every change other clients make, including a transaction that commits after a later one,
 * and rank exactly as the server does.
 */
describe('PostgreSQL local search index: catching up with other clients', function () {
  this.timeout(120_000);
  before(async function () {
    await requirePostgres(this);
  });

  it('finds a memory whose writer took its transaction id first and committed last', async () => {
    const reader = await openPg({ localIndex: 'eager' });
    const writer = await openPg({ project: reader.project, localIndex: 'off' });
    await writer.service.create(memory({ description: 'seed note about kafka', tags: ['kafka'] }));
    assert.equal((await ids(reader, ['kafka'])).length, 1);
    assert.equal(reader.store.localIndexSize, 1, 'the reader ranks locally');

    // A transaction holding an early id, still open while another client writes and the reader looks.
    const late = new Client({ connectionString: reader.url });
    await late.connect();
    await late.query('BEGIN');
    const lateId = randomUUID();
    await advanceHeads(
      late,
      reader.project,
      await insertVersions(late, reader.project, [createdRow(lateId, 'late zeppelin note', ['zeppelin'])]),
    );
    const early = await writer.service.create(memory({ description: 'early zeppelin note', tags: ['zeppelin'] }));
    assert.deepEqual(await ids(reader, ['zeppelin']), [early.id]);
    await late.query('COMMIT');
    await late.end();
    assert.deepEqual((await ids(reader, ['zeppelin'])).sort(), [early.id, lateId].sort());
    await writer.store.close();
    await reader.store.close();
  });

  it('follows edits, deletes, restores and purges made by another client', async () => {
    const reader = await openPg({ localIndex: 'eager' });
    const server = await openPg({ project: reader.project, localIndex: 'off' });
    const other = await openPg({ project: reader.project, localIndex: 'off' });
    const a = await other.service.create(memory({ description: 'grpc deadline exceeded', tags: ['grpc'] }));
    const b = await other.service.create(memory({ description: 'grpc keepalive pings', tags: ['grpc', 'network'] }));
    const c = await other.service.create(memory({ description: 'grpc reflection service', tags: ['grpc'] }));
    const same = async (keywords: string[]) => {
      const local = await ids(reader, keywords);
      assert.deepEqual(local, await ids(server, keywords), `local and server ranking of ${keywords.join(' ')}`);
      return local;
    };
    assert.equal((await same(['grpc'])).length, 3);
    await other.service.edit({ id: a.id, description: 'protobuf schema evolution', tags: ['protobuf'] });
    assert.deepEqual((await same(['grpc'])).sort(), [b.id, c.id].sort());
    assert.deepEqual(await same(['protobuf']), [a.id]);
    await other.service.delete({ id: b.id });
    assert.deepEqual(await same(['keepalive']), []);
    await other.service.restore({ id: b.id });
    assert.deepEqual(await same(['keepalive']), [b.id]);
    await other.store.purge(c.id, 'tester@example.com');
    assert.deepEqual(await same(['reflection']), []);
    assert.equal(reader.store.localIndexSize, 2);
    for (const o of [reader, server, other]) await o.store.close();
  });

  it('finds every memory two clients wrote while a third kept searching', async () => {
    const reader = await openPg({ localIndex: 'eager' });
    const server = await openPg({ project: reader.project, localIndex: 'off' });
    const writers = await Promise.all([1, 2].map(() => openPg({ project: reader.project, localIndex: 'off' })));
    let writing = true;
    const searching = (async () => {
      let n = 0;
      while (writing || n === 0) {
        await ids(reader, ['concurrent', 'note']);
        n++;
      }
      return n;
    })();
    const created = await Promise.all(
      writers.flatMap((w, k) =>
        Array.from({ length: 40 }, (_, i) =>
          w.service.create(memory({ description: `concurrent note ${k} ${i}`, tags: ['concurrent', `writer-${k}`] })),
        ),
      ),
    );
    // Edits and deletes racing each other too.
    await Promise.all(
      created.slice(0, 20).map((m, i) => writers[i % 2]!.service.edit({ id: m.id, description: `concurrent edited note ${i}` })),
    );
    await Promise.all(created.slice(20, 30).map((m, i) => writers[i % 2]!.service.delete({ id: m.id })));
    writing = false;
    assert.ok((await searching) > 0);
    const live = created
      .slice(0, 20)
      .concat(created.slice(30))
      .map((m) => m.id);
    const found = await ids(reader, ['concurrent']);
    assert.deepEqual([...found].sort(), [...live].sort());
    assert.deepEqual(found, await ids(server, ['concurrent']), 'the same order as the server');
    assert.deepEqual(await ids(reader, ['edited']), await ids(server, ['edited']));
    assert.equal((await ids(reader, ['edited'])).length, 20);
    assert.equal(reader.store.localIndexSize, live.length);
    for (const o of [reader, server, ...writers]) await o.store.close();
  });

  it('analyses the memories itself when the stored terms were made by another analyser version', async () => {
    const server = await openPg({ localIndex: 'off' });
    for (const d of ['Webpack polyfills for buffer', 'Buffer overflow in the parser', 'Vite env prefix'])
      await server.service.create(
        memory({ description: d, tags: ['bundler'], content: `Seen with ERR_OSSL_EVP_UNSUPPORTED in ${d.split(' ')[0]}.` }),
      );
    const local = await openPg({ project: server.project, localIndex: 'eager' });
    const setAnalyzer = (v: string) =>
      withClient(local.url, (c) => c.query(`UPDATE agent_memory_meta SET value = $1 WHERE key = 'analyzer'`, [v]));
    await setAnalyzer('stale');
    try {
      for (const q of [['buffer'], ['bundler', 'vite'], ['polyfill'], ['ERR_OSSL_EVP_UNSUPPORTED'], ['unsupported', 'parser']])
        assert.deepEqual(await ids(local, q), await ids(server, q), q.join(' '));
      assert.equal((await ids(local, ['ERR_OSSL_EVP_UNSUPPORTED'])).length, 3, 'the content, read from the version rows');
      assert.equal(local.store.localIndexSize, 3);
    } finally {
      await setAnalyzer(String(ANALYZER_VERSION));
    }
    await local.store.close();
    await server.store.close();
  });

  it('re-analyses the heads from their version rows, content included, when the analyser changed', async () => {
    const o = await openPg({ localIndex: 'off' });
    const { id } = await o.service.create(
      memory({ description: 'Build broke on the new runtime', tags: ['node'], content: 'webpack said ERR_OSSL_EVP_UNSUPPORTED.' }),
    );
    await withClient(o.url, async (c) => {
      // As an older release left it: no content terms, another analyser version.
      await c.query(`UPDATE memory_heads SET search_vector = array_to_tsvector(ARRAY['build']) WHERE project = $1`, [o.project]);
      await c.query(`UPDATE agent_memory_meta SET value = '1' WHERE key = 'analyzer'`);
    });
    assert.deepEqual(await ids(o, ['ERR_OSSL_EVP_UNSUPPORTED']), []);
    await o.store.close();
    const reopened = await openPg({ project: o.project, localIndex: 'off' });
    assert.deepEqual(await ids(reopened, ['ERR_OSSL_EVP_UNSUPPORTED']), [id]);
    assert.deepEqual(await ids(reopened, ['runtime']), [id]);
    await reopened.store.close();
  });

  it('stays on the server when the project has more live memories than maxLocalIndex', async () => {
    const small = await openPg({ localIndex: 'eager', maxLocalIndex: 3 });
    for (let i = 0; i < 3; i++) await small.service.create(memory({ description: `bounded note ${i}`, tags: ['bounded'] }));
    assert.equal((await ids(small, ['bounded'])).length, 3);
    assert.equal(small.store.localIndexSize, 3);
    await small.service.create(memory({ description: 'bounded note 3', tags: ['bounded'] }));
    assert.equal((await ids(small, ['bounded'])).length, 4, 'grown past the bound: answered by the server');
    assert.equal(small.store.localIndexSize, undefined);
    const large = await openPg({ project: small.project, localIndex: 'eager', maxLocalIndex: 3 });
    assert.equal((await ids(large, ['bounded'])).length, 4);
    assert.equal(large.store.localIndexSize, undefined, 'too large from the start: never held');
    await small.store.close();
    await large.store.close();
  });

  it('reads no heads when the project already has more live memories than maxLocalIndex', async () => {
    const o = await openPg({ localIndex: 'off' });
    for (let i = 0; i < 4; i++) await o.service.create(memory({ description: `large note ${i}`, tags: ['large'] }));
    const pool = new Pool({ connectionString: o.url, max: 1 });
    const texts: string[] = [];
    const spy = { query: (text: string, values?: unknown[]) => (texts.push(text), pool.query(text, values)) } as unknown as Pool;
    const local = new LocalIndex(spy, o.project, 'eager', 3, (err) => assert.fail(err as Error));
    assert.equal(await local.search(analyzeQuery(['large'], [], 10)), undefined, 'the server answers');
    assert.equal(local.size, undefined);
    assert.ok(texts.length > 0 && !texts.some((t) => t.includes('FROM memory_heads')), texts.join('\n'));
    await local.stop();
    await pool.end();
    await o.store.close();
  });

  it('answers the first search on the server while loading in the background, then locally', async () => {
    const o = await openPg();
    const made = await o.service.create(memory({ description: 'background loaded note', tags: ['background'] }));
    assert.deepEqual(await ids(o, ['background']), [made.id]);
    for (let i = 0; i < 200 && o.store.localIndexSize === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(o.store.localIndexSize, 1);
    assert.deepEqual(await ids(o, ['background']), [made.id]);
    // Closing right after a first search stops a load in progress without an error.
    const oneShot = await openPg({ project: o.project });
    assert.deepEqual(await ids(oneShot, ['background']), [made.id]);
    await oneShot.store.close();
    assert.deepEqual(oneShot.store.warnings(), []);
    await o.store.close();
  });
});
