import { strict as assert } from 'node:assert';
import { CsvLines } from '../../../src/store/postgres/csvLines';

/** The same line built as strings: what COPY's CSV format reads. */
function expected(fields: Array<string | null>): string {
  return `${fields.map((f) => (f === null ? '' : `"${f.replace(/"/g, '""')}"`)).join(',')}\n`;
}

describe('CsvLines: CSV lines for COPY, written into buffers', () => {
  it('writes what the string form says, across chunk boundaries, with text of several bytes a character', () => {
    const out = new CsvLines();
    const lines: Array<Array<string | null>> = [];
    // Fields of every size up to a few megabytes: some end a chunk, some are larger than one.
    const sizes = [0, 1, 7, 1_000, 300_000, 1_400_000, 2_500_000, 5_000_000, 3];
    let text = '';
    sizes.forEach((n, i) => {
      const unit = ['a', 'é', '"q"', '😀', 'x,y\n'][i % 5]!;
      const big = unit.repeat(Math.ceil(n / unit.length));
      const line = [big, null, `"${i}"`, ''];
      lines.push(line);
      for (const f of line) out.text(f);
      out.end();
      text += expected(line);
    });
    out.raw('12').raw('').raw('t').end();
    text += '12,,t\n';
    const chunks = out.take();
    assert.ok(chunks.length > 1, 'the lines span several chunks');
    assert.equal(Buffer.concat(chunks).toString('utf8'), text);
    // Taken: the next take starts empty.
    assert.deepEqual(out.take(), []);
    out.text('after').end();
    assert.equal(Buffer.concat(out.take()).toString('utf8'), '"after"\n');
  });
});
