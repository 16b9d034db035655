import { strict as assert } from 'node:assert';
import { CopyRows } from '../../../src/store/postgres/copyRows';
import { HeadCounts, headLine, type LoadedHead } from '../../../src/store/postgres/loadLines';
import { LineEncoder } from '../../../src/store/postgres/loadThreads';
import { syntheticRows } from '../../helpers/builders';

describe("A load's worker threads (loadThreads.ts)", function () {
  this.timeout(60_000);

  it('write the rows and counts this thread would, batch by batch in the order asked, over two threads', async () => {
    const heads: LoadedHead[] = syntheticRows(300).map((row, i) => ({ row, seq: i + 1, maxVersion: row.version }));
    const out = new CopyRows();
    const counts = new HeadCounts();
    for (const h of heads) headLine(out, 'p', h, 77n, counts);
    const expected = Buffer.concat(out.take());

    const encoder = new LineEncoder({ project: 'p', xid: '77' }, 2);
    try {
      const batches = [heads.slice(0, 120), heads.slice(120, 121), heads.slice(121)];
      const written = await Promise.all(batches.map((b) => encoder.lines(b)));
      assert.ok(expected.length > 300 * 50, `${expected.length} bytes`);
      assert.ok(Buffer.concat(written.flat()).equals(expected), 'the same bytes');
      const sum = (c: { terms: string[]; counts: number[] }) => new Map(c.terms.map((t, i) => [t, c.counts[i]]));
      assert.deepEqual(sum(await encoder.counts()), sum(counts.columns()));
    } finally {
      await encoder.close();
    }
  });

  it('fail the call waiting and every later one when a thread fails', async () => {
    const encoder = new LineEncoder({ project: 'p', xid: '1' }, 1);
    try {
      // A head without a row: the thread's handler throws, and the thread ends.
      await assert.rejects(encoder.lines([{ seq: 1, maxVersion: 1 } as LoadedHead]), TypeError);
      await assert.rejects(encoder.lines([]), TypeError);
      await assert.rejects(encoder.counts(), TypeError);
    } finally {
      await encoder.close();
    }
  });
});
