import { strict as assert } from 'node:assert';
import { PackReader, PackWriter } from '../../src/core/packed';
import { fileOf } from '../helpers/packed';

describe("packed files (the saved view's container)", () => {
  const strings = ['', 'plain', 'naïve café', '漢字', '🙂 emoji', '\uFEFFa leading BOM', 'line\nbreak', 'x'.repeat(70_000)];

  it('reads back every kind of section in order, and checks the end', () => {
    const w = new PackWriter()
      .json({ a: 1, b: ['x'] })
      .strings(strings)
      .u32([0, 1, 0xffffffff])
      .f64([1.5, 2 ** 40, -3])
      .bytes(Uint8Array.of(1, 2, 3))
      .strings([]);
    const r = new PackReader(fileOf(w));
    assert.deepEqual(r.json(), { a: 1, b: ['x'] });
    const column = r.strings();
    assert.deepEqual(column.all(), strings);
    assert.deepEqual(
      strings.map((_, i) => column.get(i)),
      strings,
      'one at a time',
    );
    assert.deepEqual([...r.u32()], [0, 1, 0xffffffff]);
    assert.deepEqual([...r.f64()], [1.5, 2 ** 40, -3]);
    assert.deepEqual([...r.bytes()], [1, 2, 3]);
    assert.deepEqual(r.strings().all(), []);
    r.end();
  });

  it('finds a string in a column by value (the first of equal ones), in both forms a column takes', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `id-${(i * 7919).toString(36)}`);
    // Two strings of one length and one FNV-1a hash (found by search): only their bytes tell them apart.
    const utf8 = [...strings, 'yaczfa', ...many, 'glbppa', 'plain', '\uFFFD replacement'];
    const read = new PackReader(fileOf(new PackWriter().strings(utf8))).strings();
    const lone = ['ok', 'half \uD83D pair', '\uDE42', 'ok'];
    const json = new PackReader(fileOf(new PackWriter().strings(lone))).strings();
    for (const [column, list] of [
      [read, utf8],
      [json, lone],
    ] as const) {
      for (let i = 0; i < list.length; i++)
        assert.equal(column.indexOf(list[i]!), list.indexOf(list[i]!), JSON.stringify(list[i]).slice(0, 40));
      for (const absent of ['absent', 'id-', 'plai', 'plainx', 'x'.repeat(69_999)])
        assert.equal(column.indexOf(absent), -1, absent.slice(0, 20));
    }
    assert.equal(read.indexOf('plain'), 1, 'the first of equal strings');
    assert.equal(read.indexOf('\uD800 replacement'), -1, 'a lone surrogate is not the U+FFFD the encoder would make of it');
  });

  it('keeps a string with a lone surrogate as it was (saved as JSON, which can hold it)', () => {
    const odd = ['ok', 'half \uD83D pair', '\uDE42'];
    const r = new PackReader(fileOf(new PackWriter().strings(odd)));
    assert.deepEqual(r.strings().all(), odd);
    r.end();
  });

  it('refuses a file that is not one, is cut short, is read as another kind or has more than was read', () => {
    const file = fileOf(new PackWriter().strings(['abc', 'def']).u32([7]));
    assert.throws(() => new PackReader(Buffer.from('{"format":5}')), /not a packed file/);
    assert.throws(() => new PackReader(file.subarray(0, 26)).strings(), /cut short/, 'inside the strings');
    const cut = new PackReader(file.subarray(0, file.length - 12));
    cut.strings();
    assert.throws(() => cut.u32(), /cut short/);
    assert.throws(() => new PackReader(file).u32(), /expected section kind/);
    const early = new PackReader(file);
    early.strings();
    assert.throws(() => early.end(), /does not end/);
    const whole = new PackReader(file);
    whole.strings();
    assert.deepEqual([...whole.u32()], [7]);
    whole.end();
  });
});
