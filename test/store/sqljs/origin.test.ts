import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { buildServices } from '../../../src/core/services';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory } from '../../helpers/builders';
import { tmpDir } from '../../helpers/tmp';

/** A memory.version line as a release before channels wrote it: no channel, no proposer. */
function oldLine(id: string): string {
  const row = {
    rowId: randomUUID(),
    id,
    version: 1,
    op: 'create',
    description: 'Written by an older release',
    tags: ['old'],
    content: 'x',
    changedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    author: 'ana@example.com',
    restoredFrom: null,
  };
  return `${JSON.stringify({ v: 1, type: 'memory.version', row })}\n`;
}

describe('sql.js store: who did what in the journal and the snapshot (schema 4)', () => {
  it('reads journal lines without a channel as unknown, next to lines that have one', async () => {
    const dir = tmpDir();
    const old = randomUUID();
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), oldLine(old));
    const store = await SqlJsStore.open({ dir });
    const s = buildServices(store, { author: 'bo@example.com', channel: 'mcp' });
    const { id } = await s.memories.create(memory());
    assert.equal((await s.memories.history({ id: old }))[0]!.channel, 'unknown');
    assert.equal((await s.memories.history({ id }))[0]!.channel, 'mcp');
    await store.close();
    const line = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')[1]!;
    assert.equal((JSON.parse(line) as { row: { channel: string } }).row.channel, 'mcp', 'the journal line carries it');
  });

  it('rebuilds a snapshot saved at schema 3 (which dropped the origin of the lines it replayed) from the journal', async () => {
    const dir = tmpDir();
    const store = await SqlJsStore.open({ dir });
    const s = buildServices(store, { author: 'bo@example.com', channel: 'cli' });
    const { id } = await s.memories.create(memory());
    const episode = await s.playbook.episodes.record({
      task: 'fix the cache',
      outcome: 'success',
      tags: ['build'],
      source: { type: 'commit', ref: 'abc1234' },
    });
    store.checkpoint();
    await store.close();
    // What a release of schema 3 saved: the same rows, without what it did not know.
    const file = path.join(dir, 'snapshot.sqlite');
    const SQL = await initSqlJs();
    const db = new SQL.Database(fs.readFileSync(file));
    db.exec('UPDATE memory_versions SET origin = NULL; UPDATE record_versions SET origin = NULL; PRAGMA user_version = 3');
    fs.writeFileSync(file, db.export());
    db.close();
    const again = await SqlJsStore.open({ dir });
    const a = buildServices(again, { author: 'bo@example.com', channel: 'cli' });
    assert.equal((await a.memories.history({ id }))[0]!.channel, 'cli');
    assert.equal((await again.records.get('episode', episode.id))!.channel, 'cli');
    await again.close();
  });
});
