import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { describedTerms } from '../../../src/core/search/analysis';
import { SearchIndex } from '../../../src/core/search/searchIndex';
import { PLAN_FOR_ANY_PROJECT } from '../../../src/store/postgres/connection';
import { readCommonTerms, similarOnServer } from '../../../src/store/postgres/serverSimilar';
import type { StoredVersion } from '../../../src/core/ports/store';
import { corpusRows, createdRow, liveMemories, openPg } from '../../helpers/builders';
import { requirePostgres, withClient } from '../../helpers/postgres';

/** Version 1 of a memory changed at minute `minute` of a fixed day. */
const created = (description: string, tags: string[], minute: number, id = randomUUID()): StoredVersion =>
  createdRow(id, description, tags, new Date(Date.UTC(2025, 5, 1, 0, minute)).toISOString());

/**
 * Likely duplicates on a team database without a local index (a one-shot CLI create, an MCP
 * server before its index loads): serverSimilar.ts must answer exactly as SearchIndex.similar
 * does over the same memories, and read only the memories holding one of the rarer terms.
 */
describe('PostgreSQL store: likely duplicates found on the server', function () {
  this.timeout(180_000);
  let url: string;
  before(async function () {
    url = await requirePostgres(this);
  });

  it('answers as SearchIndex.similar does (ids, similarity, order) on both evaluation corpora and near-copies', async () => {
    const rows = [...corpusRows('eval'), ...corpusRows('eval2').map((r) => ({ ...r, id: r.id.replace(/^0{8}/, '20000000') }))];
    // Near-copies (a word dropped, a tag added, the same minute as another), so high thresholds find something and ties occur.
    const copies = rows
      .slice(0, 40)
      .map((r, i) =>
        created(
          r.description.split(' ').slice(1).join(' '),
          [...r.tags, 'copy'],
          i % 4,
          `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        ),
      );
    const all = [...rows, ...copies, { ...created('deleted twin', ['copy'], 1), deletedAt: new Date().toISOString() }];
    const pg = await openPg({ url, localIndex: 'off' });
    try {
      await pg.store.importVersions(all);
      const index = new SearchIndex();
      for (const m of liveMemories(all)) index.put(m);
      const compare = async (what: string) => {
        let found = 0;
        for (const min of [0.2, 0.4, 0.595, 0.8, 1]) {
          for (const r of all.filter((_, i) => i % 5 === 0)) {
            const mine = describedTerms(r);
            for (const limit of [3, 1000]) {
              const server = await pg.store.similar(mine, min, limit);
              const local = index.similar(mine, min, limit);
              assert.deepEqual(
                server.map((h) => [h.id, h.similarity, h.changedAt]),
                local.map((h) => [h.id, h.similarity, h.changedAt]),
                `${what}: ${r.description} at ${min}, limit ${limit}`,
              );
              found += server.length;
            }
          }
        }
        assert.ok(found > 300, `${what}: the thresholds find something (${found})`);
      };
      await compare('own terms kept by the write path');
      // Each head's own terms (schema 11's trigger) are its description and tag terms.
      const { rows: own } = await withClient(url, (c) =>
        c.query<{ own_terms: number; described: number }>(
          `SELECT own_terms, (SELECT count(*)::int FROM unnest(search_vector) AS u WHERE NOT starts_with(u.lexeme, '~')) AS described
         FROM memory_heads WHERE project = $1`,
          [pg.project],
        ),
      );
      assert.ok(
        own.length > 0 && own.every((r) => r.own_terms === r.described),
        JSON.stringify(own.find((r) => r.own_terms !== r.described)),
      );
      // Heads written before schema 11 have none kept: the check counts them itself, and answers the same.
      await withClient(url, (c) => c.query('UPDATE memory_heads SET own_terms = NULL WHERE project = $1 AND id < $2', [pg.project, '2']));
      await compare('heads of one corpus without own terms kept');
      assert.deepEqual(await pg.store.similar(new Set(), 0.5, 10), []);
      assert.deepEqual(await pg.store.similar(new Set(['zzzunknownterm']), 0.1, 10), []);
    } finally {
      await pg.store.close();
    }
  });

  it('reads only the memories holding one of the rarer terms, not every memory a common word reaches', async () => {
    const pg = await openPg({ url, localIndex: 'off' });
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      // 20,000 memories share "gateway" and "service" (enough that reading them all is not the
      // planner's cheapest way, as at a team's size); two hold the rare words too.
      const common = Array.from({ length: 20_000 }, (_, i) => created(`Gateway service note ${i % 50} kumquat${i}`, ['gateway'], i % 600));
      const target = created('Gateway service drops websocket upgrades behind the quokka proxy', ['gateway', 'websocket'], 700);
      const near = created('Gateway service drops websocket upgrades behind quokka', ['gateway'], 701);
      await pg.store.importVersions([...common, target, near]);
      await client.query('VACUUM ANALYZE memory_heads');

      const mine = describedTerms(target);
      const headsRead = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE relname = 'memory_heads'`,
            )
          ).rows[0]!.n,
        );
      // As the store runs it: one statement planned for any value (the store's connections), on
      // statistics read beforehand; in a transaction here only so the reads can be counted.
      await client.query(`BEGIN; SET LOCAL plan_cache_mode = ${PLAN_FOR_ANY_PROJECT}`);
      const stats = await readCommonTerms(client, pg.project);
      const before = await headsRead();
      const hits = await similarOnServer(client, pg.project, mine, 0.595, 21, stats);
      const read = (await headsRead()) - before;
      await client.query('COMMIT');
      assert.deepEqual(
        hits.map((h) => h.id),
        [target.id, near.id],
      );
      // The rarer terms (quokka, websocket, upgrade, drop, proxy) reach the two, and the memories
      // of other projects in this database that hold them (the GIN index is one for all
      // projects); "gateway" and "service" would reach 20,002.
      assert.ok(read <= 200, `read ${read} heads`);
    } finally {
      await client.end();
      await pg.store.close();
    }
  });

  it('a create on a team database without a local index names the likely duplicate', async () => {
    const pg = await openPg({ url, localIndex: 'off' });
    try {
      const first = await pg.service.create({
        description: 'Vite HMR websocket fails behind the dev proxy; set server.hmr.clientPort',
        tags: ['vite', 'hmr', 'proxy'],
        content: 'x',
      });
      const second = await pg.service.create({
        description: 'Vite HMR websocket fails behind a proxy: set server.hmr.clientPort to the proxy port',
        tags: ['vite', 'hmr'],
        content: 'y',
      });
      assert.deepEqual(
        second.similar?.map((s) => s.id),
        [first.id],
      );
    } finally {
      await pg.store.close();
    }
  });
});
