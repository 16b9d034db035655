import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { ANALYZER_VERSION } from '../../../src/core/search/analysis';
import { PackWriter } from '../../../src/core/packed';
import { StorageError } from '../../../src/core/errors';
import { MemoryService } from '../../../src/core/memoryService';
import { migrate, SCHEMA_VERSION } from '../../../src/store/sqljs/schema';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory, openService } from '../../helpers/builders';

const journal = (dir: string) => path.join(dir, 'journal.jsonl');
const snapshot = (dir: string) => path.join(dir, 'snapshot.sqlite');

async function reopen(dir: string) {
  const store = await SqlJsStore.open({ dir });
  return { store, service: new MemoryService(store, { author: 'reopen' }) };
}

describe('sql.js store: durability, corruption, schema', () => {
  it('a durable write appends one journal line and does not export the database', async () => {
    const { dir, store, service } = await openService();
    await service.create(memory());
    store.checkpoint();
    const snapBefore = fs.readFileSync(snapshot(dir));
    const linesBefore = fs.readFileSync(journal(dir), 'utf8').split('\n').length;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await service.create(memory({ description: `write ${i}` }))).id);
    assert.ok(fs.readFileSync(snapshot(dir)).equals(snapBefore), 'the snapshot was rewritten by a write');
    assert.equal(fs.readFileSync(journal(dir), 'utf8').split('\n').length, linesBefore + 20);
    // Durable without a checkpoint: a second instance reads every write from the journal.
    const other = await reopen(dir);
    for (const id of ids) assert.equal((await other.service.read({ id })).version, 1);
    await other.store.close();
    await store.close();
  });

  it('checkpoints after the configured number of lines, off the write path, and reopens from it', async () => {
    const { dir, store, service } = await openService({ checkpointEvery: 10 });
    for (let i = 0; i < 12; i++) await service.create(memory({ description: `cp ${i}` }));
    await new Promise((r) => setImmediate(r));
    assert.ok(fs.existsSync(snapshot(dir)), 'no snapshot after 12 writes with checkpointEvery 10');
    await store.close();
    const again = await reopen(dir);
    assert.equal(await again.store.countVersions(), 12);
    assert.deepEqual(again.store.warnings(), []);
    await again.store.close();
  });

  it('a corrupt snapshot is moved aside, reported, and the data rebuilt from the journal', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory({ content: 'survives' }));
    store.checkpoint();
    await store.close();
    fs.writeFileSync(snapshot(dir), Buffer.from('this is not a database at all'.repeat(100)));

    const again = await reopen(dir);
    // The snapshot is loaded by the first operation that needs the database.
    assert.equal((await again.service.read({ id })).content, 'survives');
    const [w] = again.store.warnings();
    assert.equal(w?.code, 'corrupt-snapshot');
    assert.match(w!.message, /could not be read/);
    assert.equal(fs.readFileSync(w!.keptAt!, 'utf8').slice(0, 11), 'this is not', 'the unreadable bytes were kept');
    await again.store.close();
  });

  it('a torn last journal line is set aside and reported; earlier writes and new writes are fine', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory({ content: 'before the crash' }));
    await store.close();
    const torn = '{"v":1,"type":"memory.version","row":{"rowId":"9b1';
    fs.appendFileSync(journal(dir), torn);

    const again = await reopen(dir);
    const [w] = again.store.warnings();
    assert.equal(w?.code, 'torn-journal-tail');
    assert.equal(fs.readFileSync(w!.keptAt!, 'utf8'), torn);
    assert.ok(fs.readFileSync(journal(dir), 'utf8').endsWith('\n'), 'the journal ends on a whole line again');
    assert.equal((await again.service.read({ id })).content, 'before the crash');
    const second = await again.service.create(memory());
    await again.store.close();

    const third = await reopen(dir);
    assert.deepEqual(third.store.warnings(), []);
    assert.equal((await third.service.read({ id: second.id })).version, 1);
    await third.store.close();
  });

  it('a damaged line in the middle is reported and skipped; the file is left as it is', async () => {
    const { dir, store, service } = await openService();
    const a = await service.create(memory({ description: 'first' }));
    await store.close();
    fs.appendFileSync(journal(dir), 'garbage that is not json\n{"v":9,"type":"memory.future","x":1}\n');
    const s2 = await reopen(dir);
    const b = await s2.service.create(memory({ description: 'after the damage' }));
    await s2.store.close();
    const bytes = fs.readFileSync(journal(dir), 'utf8');

    const s3 = await reopen(dir);
    const codes = s3.store
      .warnings()
      .map((w) => w.code)
      .sort();
    assert.deepEqual(codes, ['bad-journal-line', 'unknown-journal-entry']);
    assert.match(s3.store.warnings().find((w) => w.code === 'unknown-journal-entry')!.message, /format 9, newer than this release/);
    assert.equal((await s3.service.read({ id: a.id })).description, 'first');
    assert.equal((await s3.service.read({ id: b.id })).description, 'after the damage');
    assert.equal(fs.readFileSync(journal(dir), 'utf8'), bytes);
    await s3.store.close();
  });

  it('replays the whole journal over a snapshot that no longer matches it, losing neither side', async () => {
    const { dir, store, service } = await openService();
    const one = await service.create(memory({ description: 'one' }));
    store.checkpoint();
    await store.close();
    // Another history under the same snapshot: e.g. the journal was replaced by a git checkout.
    const other = await openService();
    const { id } = await other.service.create(memory({ description: 'from the other journal' }));
    await other.store.close();
    fs.copyFileSync(journal(other.dir), journal(dir));

    const again = await reopen(dir);
    assert.deepEqual(
      again.store
        .warnings()
        .map((w) => w.code)
        .sort(),
      ['index-rebuilt', 'stale-snapshot'],
    );
    assert.equal(await again.store.countVersions(), 2);
    assert.equal((await again.service.read({ id })).description, 'from the other journal');
    assert.equal((await again.service.read({ id: one.id })).description, 'one', 'rows only the snapshot held are kept');
    await again.store.close();
  });

  it('refuses a snapshot from a newer schema and leaves it untouched', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory());
    store.checkpoint();
    await store.close();
    const SQL = await initSqlJs();
    const db = new SQL.Database(fs.readFileSync(snapshot(dir)));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    fs.writeFileSync(snapshot(dir), db.export());
    db.close();
    const bytes = fs.readFileSync(snapshot(dir));
    const again = await reopen(dir);
    await assert.rejects(
      again.service.read({ id }),
      (err: Error) => err instanceof StorageError && /newer than this release/.test(err.message),
    );
    await assert.rejects(again.service.create(memory()), StorageError, 'nothing is written over a newer store');
    await again.store.close();
    assert.ok(fs.readFileSync(snapshot(dir)).equals(bytes));
  });

  it('answers searches from the saved index without loading the database, and catches up on newer lines', async () => {
    const { dir, store, service } = await openService();
    const a = await service.create(memory({ description: 'Saved index answers alpha' }));
    store.checkpoint();
    await store.close();
    // A line appended after the saved index, by another process.
    const other = await reopen(dir);
    const b = await other.service.create(memory({ description: 'Appended later beta' }));
    await other.store.close();
    // Break the snapshot: only an operation that loads the database can notice.
    fs.writeFileSync(snapshot(dir), 'not a database');

    const again = await reopen(dir);
    assert.deepEqual(
      (await again.service.search({ keywords: ['alpha'] })).map((h) => h.id),
      [a.id],
    );
    assert.deepEqual(
      (await again.service.search({ keywords: ['beta'] })).map((h) => h.id),
      [b.id],
    );
    assert.deepEqual(again.store.warnings(), [], 'the database was not loaded for searches');
    assert.equal((await again.service.read({ id: b.id })).version, 1);
    assert.deepEqual(
      again.store.warnings().map((w) => w.code),
      ['corrupt-snapshot'],
    );
    await again.store.close();
  });

  it('creates from the saved index without loading the database; the database replays the line when it loads', async () => {
    const { dir, store, service } = await openService();
    const a = await service.create(memory({ description: 'Before the checkpoint' }));
    store.checkpoint();
    await store.close();
    // Only an operation that loads the database can notice a broken snapshot.
    fs.writeFileSync(snapshot(dir), 'not a database');

    const one = await reopen(dir);
    const b = await one.service.create(memory({ description: 'Created without sql.js' }));
    assert.deepEqual(one.store.warnings(), [], 'the database was not loaded for a create');
    assert.deepEqual(
      (await one.service.search({ keywords: ['sql.js'] })).map((h) => h.id),
      [b.id],
    );
    await one.store.close();

    const two = await reopen(dir);
    // A known id is decided by the database: the edit numbers past version 1.
    assert.equal((await two.service.edit({ id: b.id, content: 'edited' })).version, 2);
    assert.deepEqual(
      two.store.warnings().map((w) => w.code),
      ['corrupt-snapshot'],
    );
    assert.deepEqual(
      (await two.service.history({ id: b.id })).map((h) => h.version),
      [1, 2],
    );
    assert.equal((await two.service.read({ id: a.id })).version, 1);
    await two.store.close();
  });

  it('rebuilds a saved index made by another analysis, and says so', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory({ description: 'Rebuilt gamma' }));
    store.checkpoint();
    await store.close();
    const file = path.join(dir, 'search-index.bin');
    // The analysis version is in the file's first section, as JSON: made by the next analysis.
    const bytes = fs.readFileSync(file);
    const field = `"analyzer":${ANALYZER_VERSION},`;
    const at = bytes.indexOf(field);
    assert.ok(at > 0 && ANALYZER_VERSION < 9);
    bytes.write(`"analyzer":${ANALYZER_VERSION + 1},`, at);
    fs.writeFileSync(file, bytes);

    const again = await reopen(dir);
    assert.deepEqual(
      again.store.warnings().map((w) => w.code),
      ['index-rebuilt'],
    );
    assert.deepEqual(
      (await again.service.search({ keywords: ['gamma'] })).map((h) => h.id),
      [id],
    );
    await again.store.close();
  });

  it('rebuilds a saved index cut short or damaged, says why, and removes the JSON file older releases saved', async () => {
    const { dir, store, service } = await openService();
    const { id } = await service.create(memory({ description: 'Damaged delta', tags: ['delta-tag'] }));
    store.checkpoint();
    await store.close();
    const file = path.join(dir, 'search-index.bin');
    const whole = fs.readFileSync(file);
    const flipped = Buffer.from(whole);
    flipped.writeUInt32LE(0xfffffff0, 12); // the first section's length: past the end of the file
    for (const [bytes, reason] of [
      [whole.subarray(0, whole.length - 9), /it is damaged \(.*cut short|does not end/],
      [flipped, /could not be read \(the file is cut short\)/],
      [Buffer.from('{"format":5}'), /could not be read \(not a packed file\)/],
      // A packed file of the release before (format 6: no term counts): read no further than its header.
      [Buffer.concat(new PackWriter().json({ format: 6, analyzer: ANALYZER_VERSION }).chunks()), /made by another release/],
    ] as const) {
      fs.writeFileSync(file, bytes);
      fs.writeFileSync(path.join(dir, 'search-index.json'), '{"format":5}');
      const again = await reopen(dir);
      const warning = again.store.warnings().find((w) => w.code === 'index-rebuilt');
      assert.match(warning?.message ?? '', reason);
      assert.deepEqual(
        (await again.service.search({ keywords: ['delta'], tags: ['delta-tag'] })).map((h) => h.id),
        [id],
      );
      // The rebuilt index knows each memory's term count: the same memory written again is named as its duplicate.
      assert.deepEqual(
        (await again.service.similarTo({ description: 'Damaged delta', tags: ['delta-tag'] })).map((d) => [d.id, d.similarity]),
        [[id, 1]],
      );
      again.store.checkpoint();
      assert.ok(!fs.existsSync(path.join(dir, 'search-index.json')), "the older release's file is gone once the new one is saved");
      await again.store.close();
      const next = await reopen(dir);
      assert.deepEqual(next.store.warnings(), [], 'the index saved again is used');
      await next.store.close();
    }
  });

  it('migrates step by step and rolls back a failed migration', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    assert.equal(migrate(db), SCHEMA_VERSION);
    db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')");
    const next = { version: SCHEMA_VERSION + 1, sql: 'ALTER TABLE meta ADD COLUMN note TEXT' };
    const broken = { version: SCHEMA_VERSION + 2, sql: 'CREATE TABLE x (a); SELECT * FROM no_such_table' };
    assert.throws(
      () => migrate(db, [{ version: 1, sql: '' }, next, broken]),
      new RegExp(`migration to schema version ${SCHEMA_VERSION + 2} failed`),
    );
    assert.equal(db.exec('PRAGMA user_version')[0]!.values[0]![0], SCHEMA_VERSION + 1, 'the good step stays, the bad one is rolled back');
    assert.deepEqual(db.exec("SELECT value, note FROM meta WHERE key = 'k'")[0]!.values, [['v', null]]);
    assert.equal(db.exec("SELECT name FROM sqlite_master WHERE name = 'x'").length, 0);
    db.close();
  });
});
