import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../../src/core/memoryService';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory, openService } from '../../helpers/builders';
import { tmpDir } from '../../helpers/tmp';

/** A folder holding only a copy of `dir`'s journal: a fresh clone. */
function cloneOf(dir: string): string {
  const copy = tmpDir();
  fs.copyFileSync(path.join(dir, 'journal.jsonl'), path.join(copy, 'journal.jsonl'));
  return copy;
}

async function stateOf(store: SqlJsStore) {
  const service = new MemoryService(store, { author: 'reader' });
  const searches = [];
  for (const keywords of [['cache'], ['alpha'], ['docker', 'retry'], ['purged'], ['gamma', 'delta']])
    searches.push((await service.search({ keywords, limit: 50 })).map((h) => [h.id, h.description]));
  const tags = await store.tagCounts();
  const live = await store.list({ deleted: false, limit: 1000 });
  const deleted = await store.list({ deleted: true, limit: 1000 });
  const histories = [];
  for (const m of [...live, ...deleted]) histories.push((await store.history(m.id)).map((v) => [v.rowId, v.version, v.content]));
  return { searches, tags, live, deleted, histories, versions: await store.countVersions() };
}

describe('sql.js store: opening from the journal alone (a fresh clone)', () => {
  it('builds the search view first, the database when needed, and ends where building the database first ends', async () => {
    const { dir, store, service } = await openService();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await service.create(memory({ description: `alpha note ${i} docker`, tags: [i % 2 ? 'cache' : 'retry'] }))).id);
    // Edits in and out of file order (a merge), deletes, a restore, a purge, a damaged line.
    for (const id of ids.slice(0, 10)) await service.edit({ id, description: `gamma edited ${id.slice(0, 4)}` });
    for (const id of ids.slice(5, 8)) await service.edit({ id, description: `delta edited twice` });
    for (const id of ids.slice(10, 14)) await service.delete({ id });
    await service.restore({ id: ids[10]!, version: 1 });
    await service.purge({ id: ids[20]! });
    await store.close();
    const lines = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
    // Later versions first: the current one is decided by the rows, not the file order.
    const shuffled = [...lines.slice(40).reverse(), 'not json at all', ...lines.slice(0, 40)];
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), `${shuffled.join('\n')}\n`);

    const viewFirst = await SqlJsStore.open({ dir: cloneOf(dir), viewFirstFrom: 0 });
    const dbFirst = await SqlJsStore.open({ dir: cloneOf(dir), viewFirstFrom: Number.MAX_SAFE_INTEGER });
    // The first search and the tags come from the view: the database is not loaded yet.
    const searched = await new MemoryService(viewFirst, { author: 'reader' }).search({ keywords: ['gamma'] });
    assert.equal(searched.length, 7); // 10 edited, 3 of them edited again
    const a = await stateOf(viewFirst);
    const b = await stateOf(dbFirst);
    assert.deepEqual(a, b);
    assert.ok(!a.live.some((m) => m.id === ids[20]), 'the purged memory is gone');
    assert.deepEqual(
      viewFirst.warnings().map((w) => w.code),
      ['bad-journal-line'],
    );
    await viewFirst.close();
    await dbFirst.close();
  });
});
