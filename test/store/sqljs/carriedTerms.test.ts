import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryService } from '../../../src/core/memoryService';
import type { StoredVersion } from '../../../src/core/ports/store';
import { type Analysis, analyzeMemory, ANALYZER_VERSION, CONTENT_TERMS } from '../../../src/core/search/analysis';
import { readTerms, termsText } from '../../../src/store/sqljs/carriedTerms';
import { parseLine, versionHeader, versionLine } from '../../../src/store/sqljs/entries';
import { inspectWorkspaceStore } from '../../../src/store/sqljs/storeDoctor';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { memory, openService } from '../../helpers/builders';
import { tmpDir } from '../../helpers/tmp';

const journalOf = (dir: string) => path.join(dir, 'journal.jsonl');
const linesOf = (dir: string) => fs.readFileSync(journalOf(dir), 'utf8').split('\n').filter(Boolean);

/** A folder holding only `lines` as its journal: a fresh clone of a store. */
function cloneWith(lines: string[]): string {
  const dir = tmpDir();
  fs.writeFileSync(journalOf(dir), `${lines.join('\n')}\n`);
  return dir;
}

/** A line without its carried terms, as releases before them wrote it. */
function withoutTerms(line: string): string {
  const o = JSON.parse(line) as { terms?: string };
  delete o.terms;
  return JSON.stringify(o);
}

/** `line` carrying `terms` (a string as written, or anything else a damaged line could hold). */
function withTerms(line: string, terms: unknown): string {
  return JSON.stringify({ ...(JSON.parse(line) as object), terms });
}

/** The line of `lines` holding `note`, its row, and this release's analysis of the row. */
function noteLine(lines: string[], note: string): { at: number; row: StoredVersion; own: Analysis } {
  const at = lines.findIndex((l) => l.includes(note));
  const row = (parseLine(lines[at]!) as { ok: true; entry: { row: StoredVersion } }).entry.row;
  return { at, row, own: analyzeMemory(row) };
}

const WORDS = [
  'alpha',
  'docker',
  'retry',
  'cache',
  'kernel',
  'timeout',
  'gamma',
  'lockfile',
  'ENOSPC',
  'TS2589',
  'getByRole',
  'keep-alive',
];

async function searchesOf(store: SqlJsStore): Promise<string[][]> {
  const service = new MemoryService(store, { author: 'reader' });
  const out: string[][] = [];
  for (const w of [...WORDS, 'docker retry', 'cache kernel timeout'])
    out.push((await service.search({ keywords: w.split(' '), limit: 50 })).map((h) => `${h.id} ${h.description}`));
  return out;
}

/** A store with edits, deletes and contents whose terms only the content gives; closed. */
async function written(): Promise<{ dir: string; ids: string[] }> {
  const { dir, store, service } = await openService();
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const content = `Saw ${WORDS[i % WORDS.length]} then ${WORDS[(i * 5) % WORDS.length]} again: \`${WORDS[(i * 7) % WORDS.length]}\` in step ${i}.`;
    const m = memory({ description: `${WORDS[(i * 3) % WORDS.length]} note ${i}`, tags: [i % 2 ? 'cache' : 'build-systems'], content });
    ids.push((await service.create(m)).id);
  }
  for (const id of ids.slice(0, 6)) await service.edit({ id, content: `Edited: kernel timeout with getByRole ${id.slice(0, 4)}` });
  for (const id of ids.slice(6, 9)) await service.delete({ id });
  await store.close();
  return { dir, ids };
}

describe('sql.js store: a version line carries the terms it is filed under', () => {
  it('writes a live version’s analysis on its line (each list in order), none on a deleted version’s, and reads it back', async () => {
    const { dir } = await written();
    let live = 0;
    for (const line of linesOf(dir)) {
      const parsed = parseLine(line);
      assert.ok(parsed.ok && parsed.entry.type === 'memory.version');
      const { row, terms } = parsed.entry;
      if (row.deletedAt !== null) {
        assert.ok(!line.includes('"terms"'), 'a deleted version is not indexed: no terms');
        continue;
      }
      live++;
      const own = analyzeMemory(row);
      assert.deepEqual(terms, {
        terms: [...own.terms].sort(),
        tagStems: [...own.tagStems].sort(),
        contentTerms: [...own.contentTerms].sort(),
      });
      assert.ok(line.endsWith(`"terms":"${termsText(own)}"}`));
      // The first pass of a journal-only open still reads such a line by its header.
      assert.deepEqual(versionHeader(line), { rowId: row.rowId, id: row.id, version: row.version, changedAt: row.changedAt });
      assert.equal(versionHeader(line.slice(0, -1)), undefined, 'cut short');
    }
    assert.equal(live, 36);
  });

  it('opens a clone from the terms its lines carry as from analysing every line, before and after edits', async () => {
    const { dir, ids } = await written();
    const lines = linesOf(dir);
    const carried = await SqlJsStore.open({ dir: cloneWith(lines), viewFirstFrom: 0 });
    const analysed = await SqlJsStore.open({ dir: cloneWith(lines.map(withoutTerms)), viewFirstFrom: 0 });
    const before = await searchesOf(carried);
    assert.ok(before.every((hits) => hits.length > 0));
    assert.deepEqual(before, await searchesOf(analysed));
    // An edit and a delete remove memories filed without their content terms kept (read from the postings then).
    for (const store of [carried, analysed]) {
      const service = new MemoryService(store, { author: 'editor' });
      await service.edit({ id: ids[12]!, content: 'Now about lockfile only' });
      await service.delete({ id: ids[13]! });
      await service.edit({ id: ids[14]!, description: 'renamed note about ENOSPC' });
    }
    const after = await searchesOf(carried);
    assert.notDeepEqual(after, before);
    assert.deepEqual(after, await searchesOf(analysed));
    assert.deepEqual(carried.warnings(), []);
    await carried.close();
    await analysed.close();
  });

  it('takes well-formed terms as written, and doctor reports a line whose terms its text does not give', async () => {
    const { dir } = await written();
    const lines = linesOf(dir);
    const { at, row, own } = noteLine(lines, 'note 20');
    lines[at] = withTerms(lines[at]!, termsText({ ...own, contentTerms: [...own.contentTerms.slice(0, 3), 'zanzibar'] }));
    const clone = cloneWith(lines);
    const store = await SqlJsStore.open({ dir: clone, viewFirstFrom: 0 });
    const found = await new MemoryService(store, { author: 'reader' }).search({ keywords: ['zanzibar'] });
    assert.deepEqual(
      found.map((h) => h.id),
      [row.id],
    );
    await store.close();
    const findings = await inspectWorkspaceStore(clone);
    const bad = findings.filter((f) => f.problem);
    assert.equal(bad.length, 1, JSON.stringify(findings));
    assert.match(bad[0]!.message, new RegExp(`^1 line\\(s\\) \\(${at + 1}\\) carry terms that this release's analysis .*\\(${row.id}\\)`));
    assert.ok(findings.some((f) => f.message.startsWith('36 version line(s) carry the terms they are filed under')));
  });

  it('analyses a line whose terms it cannot use: another analysis, out of order, repeated, empty, too many, not a string', async () => {
    const { dir } = await written();
    const lines = linesOf(dir);
    const { at, row, own } = noteLine(lines, 'note 21');
    const tail = `${[...own.tagStems].sort().join(' ')};${[...own.contentTerms, 'zanzibar'].sort().join(' ')}`;
    const terms = [...own.terms].sort().join(' ');
    const many = Array.from({ length: CONTENT_TERMS + 1 }, (_, i) => `t${String(i).padStart(2, '0')}`).join(' ');
    const unusable: unknown[] = [
      `${ANALYZER_VERSION + 1};${terms};${tail}`,
      `${terms};${tail}`,
      `${ANALYZER_VERSION};${[...own.terms].sort().reverse().join(' ')};${tail}`,
      `${ANALYZER_VERSION};${[...own.terms].sort()[0]} ${terms};${tail}`,
      `${ANALYZER_VERSION};${terms};${tail} `,
      `${ANALYZER_VERSION};${terms};${[...own.tagStems, 'x-y', 'z-w', 'v-u'].sort().join(' ')};zanzibar`,
      `${ANALYZER_VERSION};${terms};;${many} zanzibar`,
      ['zanzibar'],
    ];
    for (const t of unusable) assert.equal(readTerms(t, row), undefined, JSON.stringify(t));
    assert.ok(readTerms(`${ANALYZER_VERSION};${terms};${tail}`, row), 'the same terms, well formed, are used');
    assert.equal(readTerms(`${ANALYZER_VERSION};${terms};${tail}`, { ...row, deletedAt: row.changedAt }), undefined);

    // End to end: the line is analysed, so the word it states but its text lacks finds nothing.
    lines[at] = withTerms(lines[at]!, unusable[0]);
    const clone = cloneWith(lines);
    const store = await SqlJsStore.open({ dir: clone, viewFirstFrom: 0 });
    const service = new MemoryService(store, { author: 'reader' });
    assert.deepEqual(await service.search({ keywords: ['zanzibar'] }), []);
    assert.ok((await service.search({ keywords: ['note'], limit: 50 })).some((h) => h.id === row.id));
    await store.close();
    const findings = await inspectWorkspaceStore(clone);
    assert.deepEqual(
      findings.filter((f) => f.problem),
      [],
    );
    assert.ok(
      findings.some(
        (f) =>
          f.message ===
          "35 version line(s) carry the terms they are filed under; 1 carry terms of another release's analysis (analysed again when read)",
      ),
    );
  });

  it('writes no terms that the format cannot hold (a separator in a tag)', () => {
    const row: StoredVersion = {
      rowId: 'r-1',
      id: 'm-1',
      version: 1,
      op: 'create',
      description: 'semicolons in tags',
      tags: ['a;b'],
      content: 'text',
      changedAt: '2026-01-02T03:04:05.000Z',
      deletedAt: null,
      author: 'a',
      restoredFrom: null,
    };
    const line = versionLine(row);
    assert.ok(!line.includes('"terms"'));
    assert.ok(versionLine({ ...row, tags: ['ab'] }).includes('"terms"'));
  });
});
