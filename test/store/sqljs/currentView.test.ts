import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { analyzeQuery } from '../../../src/core/search/query';
import { AppliedLines } from '../../../src/store/sqljs/appliedLines';
import { CurrentView } from '../../../src/store/sqljs/currentView';
import { syntheticRows } from '../../helpers/builders';
import { tmpDir } from '../../helpers/tmp';

const AT = { ino: 0, offset: 0, tailSha: '', tailLength: 0 };

function saveAndLoad(view: CurrentView): CurrentView {
  const file = path.join(tmpDir(), 'search-index.bin');
  assert.ok(view.save(file, AT, AppliedLines.after(AT)));
  const loaded = CurrentView.load(file);
  assert.ok('view' in loaded, JSON.stringify(loaded));
  return loaded.view;
}

describe('CurrentView saved and loaded (the packed search-index.bin)', () => {
  const rows = syntheticRows(300, 11, 4); // every 4th deleted
  const built = () => {
    const view = new CurrentView();
    for (const r of rows) view.apply(r);
    // A purge, and an edit whose memory keeps its slot with a new time.
    view.purge(rows[0]!.id);
    const edited = rows.find((r) => !r.deletedAt && r.id !== rows[0]!.id && rows.filter((x) => x.id === r.id).length === 1)!;
    view.apply({ ...edited, rowId: `${edited.rowId}-2`, version: 2, op: 'edit', changedAt: '2030-01-01T00:00:00.000Z' });
    return { view, edited };
  };

  it('keeps every head (live ones by their slot in the index, deleted ones whole), the purges and the index', () => {
    const { view } = built();
    const loaded = saveAndLoad(view);
    assert.deepEqual(new Map([...loaded.headRowIds()].sort()), new Map([...view.headRowIds()].sort()));
    assert.ok([...view.headRowIds().values()].includes('purged'));
    for (const q of [['note'], ['synthetic'], ['cache', 'note']]) {
      const query = analyzeQuery(q, [], 50);
      assert.deepEqual(
        loaded.index.search(query).map((h) => h.id),
        view.index.search(query).map((h) => h.id),
      );
    }
  });

  it('decides versions after a load as before it: older ones change nothing, newer ones and new ids apply', () => {
    const { view, edited } = built();
    const loaded = saveAndLoad(view);
    for (const v of [view, loaded]) {
      assert.equal(v.apply({ ...edited, rowId: 'older', version: 1, changedAt: '2020-01-01T00:00:00.000Z' }), false);
      assert.equal(v.apply({ ...edited, rowId: `${edited.rowId}-3`, version: 3, op: 'edit', changedAt: '2031-01-01T00:00:00.000Z' }), true);
      assert.equal(v.apply({ ...rows[0]!, rowId: 'after-purge', version: 9, changedAt: '2032-01-01T00:00:00.000Z' }), false, 'purged');
      assert.equal(v.apply({ ...edited, id: 'a-new-id', rowId: 'new-row', version: 1, op: 'create' }), true);
      assert.ok(v.knows('a-new-id') && v.knows(rows[0]!.id) && !v.knows('never-seen'));
    }
    assert.deepEqual(new Map([...loaded.headRowIds()].sort()), new Map([...view.headRowIds()].sort()));
    // Saved again after those changes (slots reused, heads moved), and loaded again: the same.
    const again = saveAndLoad(loaded);
    assert.deepEqual(new Map([...again.headRowIds()].sort()), new Map([...view.headRowIds()].sort()));
  });
  it('knows a deleted memory after a load (read from the saved heads, not a map of them all), and takes only a newer version of it', () => {
    const { view } = built();
    const loaded = saveAndLoad(view);
    const deleted = rows.find((r) => r.deletedAt !== null && r.id !== rows[0]!.id)!;
    for (const v of [view, loaded]) {
      assert.ok(v.knows(deleted.id), 'a deleted memory is known');
      const older = {
        ...deleted,
        rowId: 'older',
        version: 1,
        op: 'create' as const,
        deletedAt: null,
        changedAt: '2000-01-01T00:00:00.000Z',
      };
      assert.equal(v.apply(older), false, 'an older version does not bring it back');
      assert.equal(v.index.slotAt(deleted.id, older.changedAt), undefined);
      const restore = { ...older, rowId: 'restored', version: 99, op: 'restore' as const, changedAt: '2033-01-01T00:00:00.000Z' };
      assert.equal(v.apply(restore), true, 'a newer version does');
    }
    assert.deepEqual(new Map([...loaded.headRowIds()].sort()), new Map([...view.headRowIds()].sort()));
  });
});
