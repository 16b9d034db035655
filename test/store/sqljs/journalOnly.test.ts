import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../../src/core/memoryService';
import { entryLine, parseLine, versionHeader, versionHeaderAt, versionLine } from '../../../src/store/sqljs/entries';
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

/** A version row of memory m-1 whose line the header tests read. */
function headerRow(version: number) {
  return {
    rowId: 'r-1',
    id: 'm-1',
    version,
    op: 'edit' as const,
    ...memory({ description: 'd', tags: ['t'] }),
    changedAt: '2026-01-02T03:04:05.000Z',
    deletedAt: null,
    author: 'a',
    restoredFrom: null,
  };
}

describe('sql.js store: opening from the journal alone (a fresh clone)', () => {
  it('builds the search view first, the database when needed, and ends where building the database first ends', async () => {
    const { dir, store, service, upkeep } = await openService();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await service.create(memory({ description: `alpha note ${i} docker`, tags: [i % 2 ? 'cache' : 'retry'] }))).id);
    // Edits in and out of file order (a merge), deletes, a restore, a purge, a damaged line.
    for (const id of ids.slice(0, 10)) await service.edit({ id, description: `gamma edited ${id.slice(0, 4)}` });
    for (const id of ids.slice(5, 8)) await service.edit({ id, description: `delta edited twice` });
    for (const id of ids.slice(10, 14)) await service.delete({ id });
    await service.restore({ id: ids[10]!, version: 1 });
    await upkeep.purge({ id: ids[20]! });
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

  it('files the version before a current one whose line is damaged after its header, as parsing every line does', async () => {
    const { dir, store, service } = await openService();
    const kept = await service.create(memory({ description: 'zeta original note', tags: ['cache'] }));
    await service.edit({ id: kept.id, description: 'zeta edited note' });
    for (let i = 0; i < 5; i++) await service.create(memory({ description: `filler note ${i}`, tags: ['retry'] }));
    await store.close();
    const file = path.join(dir, 'journal.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const edit = lines.findIndex((l) => l.includes('zeta edited'));
    assert.ok(versionHeader(lines[edit]!), 'the edit is read by its header');
    lines[edit] = lines[edit]!.replace('"content":"', '"content":damaged"'); // the start and end intact
    assert.ok(versionHeader(lines[edit]!) && !parseLine(lines[edit]!).ok);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);

    const viewFirst = await SqlJsStore.open({ dir: cloneOf(dir), viewFirstFrom: 0 });
    const dbFirst = await SqlJsStore.open({ dir: cloneOf(dir), viewFirstFrom: Number.MAX_SAFE_INTEGER });
    const found = await new MemoryService(viewFirst, { author: 'reader' }).search({ keywords: ['zeta'] });
    assert.deepEqual(
      found.map((h) => h.description),
      ['zeta original note'],
    );
    assert.deepEqual(await stateOf(viewFirst), await stateOf(dbFirst));
    assert.deepEqual(
      viewFirst.warnings().map((w) => w.code),
      ['bad-journal-line'],
      'warned once, though the first pass read the line twice',
    );
    await viewFirst.close();
    await dbFirst.close();
  });

  it('builds the view from the journal, not from the snapshot’s rows, when the saved view is missing, of another release or behind a rewritten journal', async () => {
    const { dir, store, service } = await openService();
    for (let i = 0; i < 30; i++) await service.create(memory({ description: `omega note ${i} docker`, tags: [i % 2 ? 'cache' : 'retry'] }));
    await store.close(); // saves the snapshot and the view
    const file = path.join(dir, 'journal.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    // A probe: a line stating a word its text lacks is found by it only when the view is built from the lines' terms.
    const o = JSON.parse(lines[3]!) as { terms: string };
    const [analyzer, terms, stems, content] = o.terms.split(';');
    lines[3] = JSON.stringify({ ...o, terms: [analyzer, terms, stems, [...content!.split(' '), 'zanzibar'].sort().join(' ')].join(';') });
    const probeId = (JSON.parse(lines[3]!) as { row: { id: string } }).row.id;
    const copy = (journal: string[], view: 'none' | 'other release') => {
      const to = tmpDir();
      fs.writeFileSync(path.join(to, 'journal.jsonl'), `${journal.join('\n')}\n`);
      fs.copyFileSync(path.join(dir, 'snapshot.sqlite'), path.join(to, 'snapshot.sqlite'));
      if (view === 'other release') fs.writeFileSync(path.join(to, 'search-index.bin'), 'not a view of this release');
      return to;
    };
    // The same lines (the snapshot continues them); the last two lines swapped (a rewrite: the snapshot no longer matches).
    const swapped = [...lines.slice(0, -2), lines[lines.length - 1]!, lines[lines.length - 2]!];
    for (const [journal, view] of [
      [lines, 'none'],
      [lines, 'other release'],
      [swapped, 'none'],
    ] as const) {
      const viewFirst = await SqlJsStore.open({ dir: copy([...journal], view), viewFirstFrom: 0 });
      const dbFirst = await SqlJsStore.open({ dir: copy([...journal], view), viewFirstFrom: Number.MAX_SAFE_INTEGER });
      const probe = async (s: SqlJsStore) =>
        (await new MemoryService(s, { author: 'reader' }).search({ keywords: ['zanzibar'] })).map((h) => h.id);
      assert.deepEqual(await probe(viewFirst), [probeId], `${view}: the view was built from the journal`);
      assert.deepEqual(await probe(dbFirst), [], `${view}: the database's rows were analysed`);
      // Everything else alike; the database loads when first needed (a history, a list).
      assert.deepEqual(await stateOf(viewFirst), await stateOf(dbFirst));
      await viewFirst.close();
      await dbFirst.close();
    }
  });

  it('reads a version line written as this release writes it by its header alone, and leaves any other line to the parse', () => {
    const row = headerRow(3);
    const line = entryLine({ v: 1, type: 'memory.version', row });
    assert.deepEqual(versionHeader(line), { rowId: 'r-1', id: 'm-1', version: 3, changedAt: '2026-01-02T03:04:05.000Z' });
    // Content quoting the key does not mislead it; other key orders, escapes and other entries are parsed instead.
    assert.equal(
      versionHeader(entryLine({ v: 1, type: 'memory.version', row: { ...row, content: '"changedAt":"1999"' } }))?.changedAt,
      row.changedAt,
    );
    assert.equal(versionHeader(JSON.stringify({ type: 'memory.version', v: 1, row })), undefined);
    assert.equal(versionHeader(entryLine({ v: 1, type: 'memory.version', row: { ...row, id: 'with "quote"' } })), undefined);
    assert.equal(versionHeader(entryLine({ v: 1, type: 'memory.purge', id: 'm-1', at: row.changedAt, author: 'a' })), undefined);
    assert.equal(versionHeader(line.slice(0, -1)), undefined, 'cut short');
  });

  it('reads a header from a line’s bytes (versionHeaderAt) as from its text, whatever surrounds the line in the buffer', () => {
    const row = headerRow(12);
    const long = 'x'.repeat(300);
    const lines = [
      versionLine(row),
      versionLine({ ...row, deletedAt: row.changedAt }),
      versionLine({ ...row, id: `ünïcödé-${long}`, rowId: 'ř-2' }), // ids past the bytes decoded at first
      versionLine({ ...row, id: long }),
      versionLine({ ...row, content: '"changedAt":"1999" and `"changedAt":"1998"` ünï' }),
      versionLine({ ...row, citations: [{ path: 'a.ts', changedAt: 'x' }] } as never), // the key twice, unescaped
      versionLine({ ...row, changedAt: 'with\\backslash' }),
      versionLine({ ...row, id: 'with "quote"' }),
      versionLine({ ...row, id: 'tab\there' }),
      JSON.stringify({ type: 'memory.version', v: 1, row }),
      entryLine({ v: 1, type: 'memory.purge', id: 'm-1', at: row.changedAt, author: 'a' }),
      entryLine({ v: 1, type: 'memory.version', row }),
      `${versionLine(row)} `,
      'not json at all',
      '}}',
    ];
    for (const line of [...lines, ...lines.map((l) => l.slice(0, -1)), ...lines.map((l) => l.slice(0, -2))]) {
      const bytes = Buffer.from(`noise\n${line}\n"changedAt":"0000"}}`);
      const start = bytes.indexOf(10) + 1;
      const end = start + Buffer.byteLength(line);
      assert.deepEqual(versionHeaderAt(bytes, start, end), versionHeader(line), line.slice(0, 80));
    }
    assert.ok(lines.slice(0, 6).every((l) => versionHeader(l)?.version === 12 || versionHeader(l) === undefined));
    assert.equal(lines.slice(0, 5).filter((l) => versionHeaderAt(Buffer.from(l), 0, Buffer.byteLength(l))).length, 5);
  });
});
