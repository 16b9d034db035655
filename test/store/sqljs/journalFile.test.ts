import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { JournalFile, sha1 } from '../../../src/store/sqljs/journal';
import { tmpDir } from '../../helpers/tmp';

describe('JournalFile.readLines and scanLines (the journal read in chunks)', () => {
  it('gives every line with its byte offsets across chunk boundaries, a line longer than a chunk and multi-byte characters included', () => {
    // Lines of many lengths, so that chunk boundaries (every 4 MiB) fall inside lines, and one of 6 MiB.
    const lines: string[] = [];
    for (let i = 0, length = 0; length < 9 << 20; i++)
      length += lines[lines.push(`{"n":${i},"t":"${'é漢x'.repeat(i % 997)}"}`) - 1]!.length;
    lines.splice(1000, 0, 'y'.repeat(6 << 20));
    const text = `${lines.join('\n')}\n{"torn":`;
    const file = path.join(tmpDir(), 'journal.jsonl');
    fs.writeFileSync(file, text);
    const size = fs.statSync(file).size;
    const got: string[] = [];
    const it = new JournalFile(file).readLines(0, size);
    let r = it.next();
    let expectedStart = 0;
    for (; !r.done; r = it.next()) {
      assert.equal(r.value.start, expectedStart);
      assert.equal(r.value.end, expectedStart + Buffer.byteLength(r.value.text) + 1);
      expectedStart = r.value.end;
      got.push(r.value.text);
    }
    assert.equal(got.length, lines.length);
    assert.ok(
      got.every((l, i) => l === lines[i]),
      'every line as written',
    );
    assert.deepEqual(r.value, { end: size - Buffer.byteLength('{"torn":'), incomplete: true });
    // From the middle of the file: the lines after that offset.
    const from = got.slice(0, 1500).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    const rest = [...new JournalFile(file).readLines(from, size)].map((l) => l.text);
    assert.ok(rest.length === lines.length - 1500 && rest.every((l, i) => l === lines[1500 + i]));

    // scanLines: the same lines as bytes, the same end, and a copy of the last line read.
    const scanned: Array<[number, string]> = [];
    const scan = new JournalFile(file).scanLines(0, size, (data, start, end, base) =>
      scanned.push([base + start, data.toString('utf8', start, end)]),
    );
    assert.equal(scanned.length, lines.length);
    assert.ok(
      scanned.every(([at, l], i) => l === lines[i] && at === (i === 0 ? 0 : scanned[i - 1]![0] + Buffer.byteLength(lines[i - 1]!) + 1)),
    );
    assert.deepEqual(
      { end: scan.end, incomplete: scan.incomplete, last: scan.last?.toString('utf8') },
      { end: r.value.end, incomplete: true, last: `${lines[lines.length - 1]!}\n` },
    );
    // A callback that throws stops the scan and closes the file: no descriptor of this process is left on it.
    const openOnFile = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === fs.realpathSync(file);
        } catch {
          return false; // closed meanwhile (the directory's own descriptor)
        }
      }).length;
    assert.throws(
      () =>
        new JournalFile(file).scanLines(0, size, () => {
          throw new Error('stop');
        }),
      /stop/,
    );
    assert.equal(openOnFile(), 0);
  });
});

describe('sha1 (what identifies a consumed journal line)', () => {
  it('gives the same hex in JavaScript and by node:crypto, for text and bytes (saved positions stay valid whichever computed them)', () => {
    const texts = ['', 'a', '{"v":1}\n', 'ü€😀\n', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'y'.repeat(5000)];
    for (const text of texts) {
      const want = crypto.createHash('sha1').update(text, 'utf8').digest('hex');
      assert.equal(sha1(text, undefined), want, `JavaScript, text of ${text.length}`);
      assert.equal(sha1(text, crypto), want, `node:crypto, text of ${text.length}`);
      assert.equal(sha1(Buffer.from(text, 'utf8'), undefined), want, `JavaScript, bytes of ${text.length}`);
      assert.equal(sha1(Buffer.from(text, 'utf8'), crypto), want, `node:crypto, bytes of ${text.length}`);
    }
  });
});
