import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ChunkPool, copyChunks } from '../../../src/store/postgres/copyChunks';
import { CHUNK, CopyRows, framed } from '../../../src/store/postgres/copyRows';
import { freshDatabase, postgresSuite, withClient } from '../../helpers/postgres';

/** A line's text: long and different for every line, so a buffer written in again too soon shows in what the server stored. */
function text(n: number): string {
  return `${n}:${createHash('sha256').update(String(n)).digest('hex').repeat(40)}`;
}

describe('PostgreSQL: COPY lines in buffers used again once sent (copyChunks.ts)', function () {
  this.timeout(120_000);
  const cleanup = postgresSuite();

  async function table(c: Client): Promise<void> {
    await c.query('CREATE TABLE lines (n integer NOT NULL CHECK (n >= 0), s text NOT NULL)');
  }

  it('stores every byte of 100 MB written through a few buffers, each used again only once sent', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await table(c);
      const pool = new ChunkPool(CHUNK);
      const out = new CopyRows(pool);
      const buffers = new Set<ArrayBufferLike>();
      let chunks = 0;
      const expected = createHash('md5');
      const N = 40_000;
      async function* batches(): AsyncIterable<Buffer[]> {
        for (let n = 0; n < N; n++) {
          out.row(2).int4(n).text(text(n));
          expected.update(text(n));
          if (n % 2000 === 1999 || n === N - 1) {
            const taken = out.take();
            for (const chunk of taken) buffers.add(chunk.buffer);
            chunks += taken.length;
            yield taken;
          }
        }
      }
      await copyChunks(c.query(copyFrom('COPY lines (n, s) FROM STDIN (FORMAT binary)')), framed(batches()), pool);
      const { rows } = await c.query<{ n: number; md5: string }>(
        "SELECT count(*)::int AS n, md5(string_agg(s, '' ORDER BY n)) AS md5 FROM lines",
      );
      assert.deepEqual(rows[0], { n: N, md5: expected.digest('hex') });
      assert.ok(chunks >= 20, `${chunks} chunks`);
      assert.ok(buffers.size < chunks, `${buffers.size} buffers for ${chunks} chunks: none was used again`);
    });
  });

  it('uses a small chunk again only once the socket has sent it, when the server reads slower than lines are written', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await table(c);
      // The server takes its time over each row, so the socket holds chunks it has not sent.
      await c.query(`CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN PERFORM md5(repeat(NEW.s, 50)); RETURN NEW; END'`);
      await c.query('CREATE TRIGGER slow BEFORE INSERT ON lines FOR EACH ROW EXECUTE FUNCTION slow()');
      const SIZE = 1024;
      const pool = new ChunkPool(SIZE);
      const expected = createHash('md5');
      const N = 20_000;
      async function* batches(): AsyncIterable<Buffer[]> {
        for (let n = 0; n < N; n += 100) {
          const batch: Buffer[] = [];
          for (let k = n; k < n + 100; k++) {
            // One row a chunk, filling it: 2 fields, k (4 bytes), the text (the rest).
            const buffer = pool.take();
            const s = text(k).slice(0, SIZE - 14);
            buffer.writeInt16BE(2, 0);
            buffer.writeInt32BE(4, 2);
            buffer.writeInt32BE(k, 6);
            buffer.writeInt32BE(s.length, 10);
            buffer.write(s, 14, 'latin1');
            expected.update(s);
            batch.push(buffer);
          }
          yield batch;
        }
      }
      await copyChunks(c.query(copyFrom('COPY lines (n, s) FROM STDIN (FORMAT binary)')), framed(batches()), pool);
      const { rows } = await c.query<{ n: number; md5: string }>(
        "SELECT count(*)::int AS n, md5(string_agg(s, '' ORDER BY n)) AS md5 FROM lines",
      );
      assert.deepEqual(rows[0], { n: N, md5: expected.digest('hex') });
    });
  });

  it('stops reading the batches when the server refuses a line, and throws its error', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await table(c);
      const copy = c.query(copyFrom('COPY lines (n, s) FROM STDIN (FORMAT binary)'));
      const refused = new Promise((resolve) => copy.once('error', resolve));
      let read = 0;
      let stopped = false;
      async function* batches(): AsyncIterable<Buffer[]> {
        try {
          for (let b = 0; b < 10; b++) {
            read++;
            const out = new CopyRows();
            out
              .row(2)
              .int4(b === 1 ? -1 : b)
              .text('x');
            yield out.take();
            // Once the server has said no, the next batch is the last one asked for.
            if (b >= 1) await refused;
          }
        } finally {
          stopped = true;
        }
      }
      await assert.rejects(copyChunks(copy, framed(batches()), new ChunkPool(CHUNK)), /lines_n_check/);
      assert.equal(stopped, true);
      assert.ok(read <= 3, `${read} batches read`);
      assert.equal((await c.query('SELECT count(*)::int AS n FROM lines')).rows[0].n, 0);
    });
  });

  it('cancels the COPY when the batches fail, storing nothing, and the connection takes the next statement', async () => {
    const url = await freshDatabase(cleanup);
    await withClient(url, async (c) => {
      await table(c);
      async function* batches(): AsyncIterable<Buffer[]> {
        const out = new CopyRows();
        out.row(2).int4(1).text('x');
        yield out.take();
        throw new Error('the source failed');
      }
      await assert.rejects(
        copyChunks(c.query(copyFrom('COPY lines (n, s) FROM STDIN (FORMAT binary)')), framed(batches()), new ChunkPool(CHUNK)),
        /the source failed/,
      );
      assert.equal((await c.query('SELECT count(*)::int AS n FROM lines')).rows[0].n, 0);
    });
  });

  it('hands out again the buffer a chunk was cut from, and only a buffer of its size', () => {
    const pool = new ChunkPool(1024);
    const a = pool.take();
    pool.give(Buffer.alloc(2048).subarray(0, 1024));
    pool.give(a.subarray(0, 10));
    const b = pool.take();
    assert.equal(b.buffer, a.buffer);
    assert.equal(b.length, 1024);
    assert.notEqual(pool.take().buffer, a.buffer);
  });
});
