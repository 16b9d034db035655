import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import type { StoredRecord } from '../../../src/core/ports/records';
import { MemoryService } from '../../../src/core/memoryService';
import { sha1 } from '../../../src/store/sqljs/journal';
import { RecordTable } from '../../../src/store/sqljs/recordTable';
import { migrate, MIGRATIONS } from '../../../src/store/sqljs/schema';
import { writeSnapshot } from '../../../src/store/sqljs/snapshot';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory } from '../../helpers/builders';
import { runWriter } from '../../helpers/processes';
import { tmpDir } from '../../helpers/tmp';

function rec(over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    rowId: randomUUID(),
    kind: 'episode',
    id: randomUUID(),
    version: 1,
    op: 'create',
    status: 'success',
    keys: ['', 'ana', ''],
    rank: 0,
    dueAt: '2026-01-01T00:00:00.000Z',
    data: { task: 'Fix the flaky build' },
    changedAt: new Date().toISOString(),
    deletedAt: null,
    author: 'ana',
    ...over,
  };
}

describe('sql.js store: records in the journal', function () {
  this.timeout(120_000);

  it('counts by the first key through its index, whatever else filters (SQLite has no statistics to choose it)', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    migrate(db);
    const table = new RecordTable(db);
    for (let i = 0; i < 60; i++) {
      table.insert(
        rec({
          keys: [`skill-${i % 6}`, 'ana', String(1 + (i % 2))],
          status: i % 3 ? 'success' : 'failure',
          dueAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        }),
      );
    }
    const prepare = db.prepare.bind(db);
    let sql = '';
    db.prepare = (text, params) => ((sql = text), prepare(text, params));
    // A skill version's successes before a window's start: skill name, version, outcome, due time.
    assert.equal(
      table.count({ kind: 'episode', keys: ['skill-1', undefined, '2'], status: ['success'], dueBefore: '2026-02-01T00:00:00.000Z' }),
      5,
    );
    const plan = db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0]!.values.map((v) => String(v[3]));
    assert.deepEqual(
      plan.map((p) => /USING (COVERING )?INDEX record_heads_key0 /.test(p)),
      [true],
      plan.join('; '),
    );
    db.close();
  });

  it('queries by a key (or a due time) through that index, not by walking the order index (no statistics to choose it)', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    migrate(db);
    const table = new RecordTable(db);
    for (let i = 0; i < 60; i++) {
      table.insert(
        rec({
          kind: 'fact',
          keys: [`subject-${i % 6}`, `p-${i % 3}`, `o-${i % 10}`],
          rank: (i % 7) / 7,
          dueAt: i % 2 ? null : new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        }),
      );
    }
    const prepare = db.prepare.bind(db);
    let sql = '';
    db.prepare = (text, params) => ((sql = text), prepare(text, params));
    const cases: Array<[Parameters<RecordTable['query']>[0], RegExp, number]> = [
      [{ kind: 'fact', keys: ['subject-1'], limit: 5 }, /SCAN h USING INDEX record_heads_key0|SEARCH h USING INDEX record_heads_key0/, 5],
      [{ kind: 'fact', keys: [undefined, 'p-2', 'o-5'], limit: 50 }, /INDEX record_heads_key2/, 2],
      [{ kind: 'fact', keys: [undefined, 'p-2'], limit: 50 }, /INDEX record_heads_key1/, 20],
      [{ kind: 'fact', keys: [undefined, undefined, 'o-3'], limit: 50 }, /INDEX record_heads_key2/, 6],
      [{ kind: 'fact', dueBefore: '2026-01-11T00:00:00.000Z', limit: 50 }, /INDEX record_heads_due/, 5],
    ];
    for (const [q, index, n] of cases) {
      // EXPLAIN needs the statement's parameters: bind them as the query did.
      assert.equal(table.query(q).length, n, JSON.stringify(q));
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const params = (sql.match(/\?/g) ?? []).map(() => null);
      explain.bind(params);
      const plan: string[] = [];
      while (explain.step()) plan.push(String(explain.get()[3]));
      explain.free();
      assert.match(plan.join('; '), index, `${JSON.stringify(q)}: ${plan.join('; ')}`);
    }
    db.close();
  });

  it('keeps records across reopening, from the journal alone and from a checkpoint', async () => {
    const dir = tmpDir();
    const a = rec();
    let store = await SqlJsStore.open({ dir });
    await store.records.write('e', () => [a]);
    await store.close();
    fs.rmSync(path.join(dir, 'snapshot.sqlite'), { force: true });
    store = await SqlJsStore.open({ dir });
    assert.deepEqual(await store.records.get('episode', a.id), a);
    store.checkpoint();
    await store.close();
    store = await SqlJsStore.open({ dir });
    assert.deepEqual(await store.records.history('episode', a.id), [a]);
    assert.deepEqual(store.warnings(), []);
    await store.close();
  });

  it('writes a multi-row write as one journal line, and a long-lived reader sees another process’s records', async () => {
    const dir = tmpDir();
    const reader = await SqlJsStore.open({ dir });
    const writer = await SqlJsStore.open({ dir });
    await writer.records.write('e', () => [rec(), rec()]);
    const lines = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]!).type, 'records');
    assert.equal(await reader.records.count({ kind: 'episode' }), 2);
    await Promise.all([reader.close(), writer.close()]);
  });

  it('serialises read-then-write decisions of 3 processes: 3 × 20 increments, versions 1..61 without gaps', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const counter = rec({ kind: 'report', status: 'run', keys: ['counter', '', ''], data: { n: 0 } });
    await store.records.write('counter', () => [counter]);
    const runs = await Promise.all([1, 2, 3].map(() => runWriter([dir, 'count', '20', counter.id])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal((await store.records.get('report', counter.id))!.data.n, 60);
    assert.deepEqual(
      (await store.records.history('report', counter.id)).map((r) => r.version),
      Array.from({ length: 61 }, (_, i) => i + 1),
    );
    await store.close();
  });

  it('picks up record lines an older release skipped (a schema-1 snapshot saved past them): the journal is replayed once', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const service = new MemoryService(store, { author: 'ana' });
    const { id } = await service.create(memory());
    const a = rec();
    await store.records.write('e', () => [a]);
    await store.close();
    // What a release before records leaves behind: a schema-1 snapshot positioned after the records line.
    const journal = path.join(dir, 'journal.jsonl');
    const text = fs.readFileSync(journal, 'utf8');
    const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    const db = new (await initSqlJs()).Database();
    migrate(db, MIGRATIONS, 1);
    writeSnapshot(
      db,
      path.join(dir, 'snapshot.sqlite'),
      { ino: 0, offset: Buffer.byteLength(text), tailSha: sha1(last), tailLength: Buffer.byteLength(last) },
      () => true,
    );
    fs.rmSync(path.join(dir, 'search-index.bin'), { force: true });
    const again = await SqlJsStore.open({ dir });
    assert.deepEqual(await again.records.get('episode', a.id), a);
    assert.equal((await new MemoryService(again, { author: 'ana' }).read({ id })).version, 1);
    await again.close();
  });

  it('purging rewrites the journal and the snapshot without the purged records, keeping everything else', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const gone = rec({ data: { task: 'UNIQUE-PURGED-TEXT' } });
    const kept = rec({ data: { task: 'kept episode' } });
    await store.records.write('e', () => [gone, kept]);
    store.checkpoint();
    assert.equal(await store.records.purge('episode', [gone.id], 'tester@example.com'), 1);
    await store.close();
    for (const f of ['journal.jsonl', 'snapshot.sqlite']) assert.ok(!fs.readFileSync(path.join(dir, f)).includes('UNIQUE-PURGED-TEXT'), f);
    const again = await SqlJsStore.open({ dir });
    assert.deepEqual(await again.records.get('episode', kept.id), kept);
    assert.equal(await again.records.get('episode', gone.id), undefined);
    assert.deepEqual(again.warnings(), []);
    await again.close();
  });
});
