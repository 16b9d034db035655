import { strict as assert } from 'node:assert';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { StorageError } from '../../../src/core/errors';
import { ChunkPool, copyChunks } from '../../../src/store/postgres/copyChunks';
import { CHUNK, CopyRows, framed, storedTimeMs } from '../../../src/store/postgres/copyRows';
import { freshDatabase, postgresSuite, withClient } from '../../helpers/postgres';

/** Sends what `out` holds, between the binary form's header and trailer, as one COPY into `table`. */
async function copyInto(c: Client, table: string, out: CopyRows): Promise<void> {
  async function* batches(): AsyncIterable<Buffer[]> {
    yield out.take();
  }
  await copyChunks(c.query(copyFrom(`COPY ${table} FROM STDIN (FORMAT binary)`)), framed(batches()), new ChunkPool(CHUNK));
}

/** A stored time as the server gives it back, in the stored form. */
const STORED = `to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

describe("PostgreSQL: a load's rows in COPY's binary form (copyRows.ts), read by the server", function () {
  this.timeout(60_000);
  const cleanup = postgresSuite();

  it('stores text of every size and kind as written, across chunk boundaries and in fields larger than a chunk', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await c.query('CREATE TABLE t (n integer, s text, x text)');
      const out = new CopyRows();
      const sizes = [0, 1, 7, 1_000, 300_000, 1_400_000, 2_500_000, 5_000_000, 3];
      const expected: Array<{ n: number; s: string | null; x: string }> = [];
      sizes.forEach((size, n) => {
        const unit = ['a', 'é', '"q"', '😀', 'x,y\n\\.\n'][n % 5]!;
        const s = unit.repeat(Math.ceil(size / unit.length));
        out.row(3).int4(n).text(s).text('');
        expected.push({ n, s, x: '' });
      });
      out.row(3).int4(-2_147_483_648).text(null).text('NULL');
      expected.push({ n: -2_147_483_648, s: null, x: 'NULL' });
      await copyInto(c, 't', out);
      const { rows } = await c.query<{ n: number; s: string | null; x: string }>('SELECT n, s, x FROM t ORDER BY n');
      assert.deepEqual(
        rows,
        expected.sort((a, b) => a.n - b.n),
      );
      assert.deepEqual(out.take(), [], 'taken: the next take starts empty');
    });
  });

  it('stores numbers, booleans, times, text arrays, JSON and search vectors as the text forms say', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await c.query(`CREATE TABLE t (n integer, big bigint, x xid8, b boolean, t timestamptz, tags text[], j jsonb, v tsvector)`);
      const lexemes = ["it's", 'back\\slash', 'two words', 'x:1', 'a,b', '"q"', 'naïve', '#c++', 'b', "''", '😀'];
      const marked = ["o'k", 'back\\', 'c'];
      const tags = ['we"ird', 'back\\slash', 'com,ma', '{brace}', 'NULL', '', 'é'];
      const times = ['2026-01-01T09:30:00.123Z', '1999-12-31T23:59:59.999Z', '0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'];
      const out = new CopyRows();
      times.forEach((t, i) => {
        out
          .row(8)
          .int4(i)
          .int8(9007199254740993n)
          .int8(18446744073709551615n)
          .bool(i % 2 === 0)
          .timestamptz(t)
          .textArray(i === 0 ? [] : tags.slice(0, i * 2))
          .jsonb(i === 0 ? null : JSON.stringify({ path: 'src/a,b.ts', lines: [i, 'é"'] }))
          .tsvector(lexemes.slice(0, i * 3), marked.slice(0, i), '~');
      });
      out.row(8).int4(9).int8(0n).int8(1n).bool(false).timestamptz(null).textArray(tags).jsonb(null).tsvector([]);
      await copyInto(c, 't', out);
      const { rows } = await c.query(
        `SELECT n, big::text, x::text, b, ${STORED} AS t, tags, j,
           v = array_to_tsvector($1::text[]) AS same_vector, v::text AS v FROM t ORDER BY n`,
        [[]],
      );
      assert.equal(rows.length, 5);
      for (const [i, r] of rows.slice(0, 4).entries()) {
        assert.equal(r.big, '9007199254740993');
        assert.equal(r.x, '18446744073709551615');
        assert.equal(r.b, i % 2 === 0);
        assert.equal(r.t, times[i], 'the time as written');
        assert.deepEqual(r.tags, i === 0 ? [] : tags.slice(0, i * 2));
        assert.deepEqual(r.j, i === 0 ? null : { path: 'src/a,b.ts', lines: [i, 'é"'] });
        const words = [...lexemes.slice(0, i * 3), ...marked.slice(0, i).map((t) => `~${t}`)];
        const { rows: same } = await c.query('SELECT v = array_to_tsvector($1::text[]) AS same FROM t WHERE n = $2', [words, i]);
        assert.equal(same[0].same, true, `row ${i}: the vector array_to_tsvector makes of ${JSON.stringify(words)}`);
      }
      assert.deepEqual(
        { n: rows[4].n, big: rows[4].big, x: rows[4].x, t: rows[4].t, tags: rows[4].tags, j: rows[4].j, same: rows[4].same_vector },
        { n: 9, big: '0', x: '1', t: null, tags, j: null, same: true },
      );
    });
  });

  it('refuses a time that is not a stored one (another form, no such day, year 0), naming it, and writes nothing of it', () => {
    const out = new CopyRows();
    for (const t of [
      '2026-01-01T09:30:00Z',
      '2026-01-01T09:30:00.000+02:00',
      '2026-02-30T00:00:00.000Z',
      '2100-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T09:60:00.000Z',
      '2026-01-01 09:30:00.000Z',
      '2026-01-01T09:30:0x.000Z',
      '0000-06-01T00:00:00.000Z',
      '',
    ])
      assert.throws(
        () => out.timestamptz(t),
        (err: Error) => err instanceof StorageError && err.message.includes(JSON.stringify(t)),
        t,
      );
    assert.deepEqual(out.take(), []);
  });

  it('reads a stored time as the milliseconds it names, in every year from 1 to 9999 and on leap days', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const first = Date.parse('0001-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(first + random() * (last - first));
      const iso = new Date(ms).toISOString();
      assert.equal(storedTimeMs(iso), ms, iso);
    }
    for (const iso of ['0004-02-29T12:00:00.000Z', '2000-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '0099-12-31T23:59:59.999Z'])
      assert.equal(storedTimeMs(iso), Date.parse(iso), iso);
  });
});
