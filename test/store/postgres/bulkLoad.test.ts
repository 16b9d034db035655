import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import type { CliIo } from '../../../src/cli/io';
import { main } from '../../../src/cli/main';
import { ValidationError } from '../../../src/core/errors';
import type { Store, StoredVersion } from '../../../src/core/ports/store';
import { copyStore } from '../../../src/core/storeCopy';
import { loadIntoEmpty } from '../../../src/store/postgres/bulkLoad';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { openService, syntheticRows } from '../../helpers/builders';
import { freshDatabase, PG_ADMIN_URL, postgresSuite, withClient } from '../../helpers/postgres';
import { tmpDir } from '../../helpers/tmp';

const PROJECT = 'p';

async function open(url: string, cleanup: Array<() => Promise<unknown>>): Promise<PgStore> {
  const store = await PgStore.open({ connectionString: url, project: PROJECT, localIndex: 'off' });
  cleanup.unshift(() => store.close());
  return store;
}

/** `rows` in arrays of `size`, noting in `read` how many arrays were asked for. */
async function* inBatches(rows: StoredVersion[], size: number, read = { batches: 0 }): AsyncIterable<StoredVersion[]> {
  for (let i = 0; i < rows.length; i += size) {
    read.batches++;
    yield rows.slice(i, i + size);
  }
}

/**
 * Rows that reach every rule an import has: synthetic memories (some deleted) and, spread over the
 * stream, an id whose versions arrive out of order (the newest by time holds a lower number than
 * one before it), its tags changing; a twin (a second row with a number its id has); a row
 * repeated by rowId; a memory deleted and restored.
 */
function rowsWithEveryRule(): { rows: StoredVersion[]; repeated: number } {
  const rows = syntheticRows(600);
  const base = { op: 'edit' as const, content: 'Kept across versions', deletedAt: null, author: 'a@example.com', restoredFrom: null };
  const v = (rowId: string, id: string, version: number, changedAt: string, over: Partial<StoredVersion> = {}): StoredVersion => ({
    ...base,
    rowId,
    id,
    version,
    changedAt,
    description: `Quokka cache v${version}`,
    tags: ['quokka', 'cache'],
    ...over,
  });
  const moved = [
    v('m-3', 'moved', 3, '2025-03-01T00:00:00.000Z', { tags: ['quokka', 'build'] }),
    v('m-1', 'moved', 1, '2025-01-01T00:00:00.000Z', { op: 'create' }),
    // A tag repeated in a row: one tag row, as an import makes.
    v('m-2', 'moved', 2, '2025-04-01T00:00:00.000Z', { tags: ['build', 'wombat', 'build'] }),
  ];
  const twin = [v('t-1', 'twinned', 1, '2025-01-02T00:00:00.000Z', { op: 'create' }), v('t-1b', 'twinned', 1, '2025-01-03T00:00:00.000Z')];
  const at = '2025-05-01T00:00:00.000Z';
  const restored = [
    v('r-1', 'restored', 1, '2025-01-04T00:00:00.000Z', { op: 'create' }),
    v('r-2', 'restored', 2, at, { op: 'delete', deletedAt: at }),
    v('r-3', 'restored', 3, '2025-06-01T00:00:00.000Z', { op: 'restore', restoredFrom: 1 }),
  ];
  // Text a CSV line must quote and an array literal escape; an empty content (not NULL); what the origin and citations columns hold.
  const odd = v('o-1', 'odd', 1, '2025-01-05T00:00:00.000Z', {
    op: 'create',
    description: 'He said "no", then, a line\nbreak \\ a backslash\n\\.\n',
    tags: ['we"ird', 'back\\slash', 'com,ma', '{brace}', 'NULL', ''],
    content: '',
    channel: 'mcp',
    proposedBy: 'agent "x"',
    citations: [{ path: 'src/a,b.ts', startLine: 3, endLine: 4, fingerprint: 'a'.repeat(64), size: 12 }],
  });
  const spread = [moved[0]!, twin[0]!, restored[0]!, odd, moved[1]!, twin[1]!, restored[1]!, moved[2]!, restored[2]!];
  const out: StoredVersion[] = [];
  rows.forEach((r, i) => {
    out.push(r);
    if (i % 90 === 45 && spread.length) out.push(spread.shift()!);
  });
  out.push(...spread, rows[10]!, twin[0]!);
  return { rows: out, repeated: 2 };
}

/** Everything the three loaded tables, the term counts and the indexes hold, as comparable text (xid left out: it is the writing transaction's). */
async function snapshot(url: string): Promise<Record<string, unknown>> {
  return withClient(url, async (c) => {
    const q = async (text: string) => (await c.query(text)).rows;
    return {
      versions: await q(`SELECT seq, row_id, id, version, op, description, tags, content, changed_at::text, deleted_at::text, author,
        restored_from, citations, channel, proposed_by, twin, db_role FROM memory_versions ORDER BY seq`),
      heads:
        await q(`SELECT project, id, seq, row_id, version, changed_at::text, deleted_at::text, deleted, max_version, description, tags, tag_stems,
        search_vector::text AS terms, own_terms FROM memory_heads ORDER BY id`),
      tags: await q('SELECT project, tag, id FROM memory_head_tags ORDER BY tag, id'),
      counts: await q(`SELECT project, term, sum(n)::int AS n FROM (
          SELECT project, term, n FROM memory_term_counts UNION ALL SELECT project, term, d FROM memory_term_changes
        ) c GROUP BY project, term HAVING sum(n) <> 0 ORDER BY project, term`),
      indexes: await q(`SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE tablename IN ('memory_versions', 'memory_heads', 'memory_head_tags') ORDER BY indexname`),
      constraints: await q(`SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid IN ('memory_versions'::regclass, 'memory_heads'::regclass, 'memory_head_tags'::regclass) ORDER BY conname`),
      triggers: await q(`SELECT tgrelid::regclass::text AS t, tgname, tgenabled FROM pg_trigger
        WHERE tgrelid IN ('memory_versions'::regclass, 'memory_heads'::regclass, 'memory_head_tags'::regclass) AND NOT tgisinternal ORDER BY tgname`),
    };
  });
}

describe('PostgreSQL store: a load into an empty database (bulkLoad.ts)', function () {
  this.timeout(120_000);
  const cleanup = postgresSuite();

  it('stores what importing the same rows batch by batch stores: versions, twins, heads, tags, term counts, indexes', async () => {
    const { rows, repeated } = rowsWithEveryRule();
    const importedUrl = await freshDatabase(cleanup);
    const imported = await open(importedUrl, cleanup);
    const byImport = { added: 0, skipped: 0 };
    for await (const batch of inBatches(rows, 100)) {
      const r = await imported.importVersions(batch);
      byImport.added += r.added;
      byImport.skipped += r.skipped;
    }
    assert.deepEqual(byImport, { added: rows.length - repeated, skipped: repeated });
    const expected = await snapshot(importedUrl);

    // Through the store; and through the function, its heads handed to the server 50 at a time,
    // so heads, twins and repeated rows are decided across batches and chunks.
    const loadedUrl = await freshDatabase(cleanup);
    const loaded = await open(loadedUrl, cleanup);
    assert.deepEqual(await loaded.loadIntoEmpty(inBatches(rows, 100)), byImport);
    assert.deepEqual(await snapshot(loadedUrl), expected);
    // Every head stamped with the load's transaction, as agent_memory_stamp_xid stamps an import's.
    const stamps = await withClient(
      loadedUrl,
      async (c) =>
        (
          await c.query<{ heads: number; stamped: number }>(`SELECT count(*)::int AS heads,
          count(*) FILTER (WHERE (h.xid::text::numeric % 4294967296)::text = (SELECT min(v.xmin::text) FROM memory_versions v))::int AS stamped
          FROM memory_heads h`)
        ).rows[0],
    );
    assert.equal(stamps!.stamped, stamps!.heads);

    const url = await freshDatabase(cleanup);
    await open(url, cleanup);
    await withClient(url, async (c) => {
      await c.query('BEGIN');
      assert.deepEqual(await loadIntoEmpty(c as never, PROJECT, inBatches(rows, 100), 50), byImport);
      await c.query('COMMIT');
    });
    assert.deepEqual(await snapshot(url), expected);

    const heads = (expected.heads as Array<{ id: string; version: number; max_version: number; tags: string[]; deleted: boolean }>).filter(
      (h) => ['moved', 'odd', 'twinned', 'restored'].includes(h.id),
    );
    assert.deepEqual(
      heads.map((h) => [h.id, h.version, h.max_version, h.tags, h.deleted]),
      [
        ['moved', 2, 3, ['build', 'wombat', 'build'], false],
        ['odd', 1, 1, ['we"ird', 'back\\slash', 'com,ma', '{brace}', 'NULL', ''], false],
        ['restored', 3, 3, ['quokka', 'cache'], false],
        ['twinned', 1, 1, ['quokka', 'cache'], false],
      ],
      'the rows reached the rules they were made for',
    );
    const movedTags = (expected.tags as Array<{ tag: string; id: string }>).filter((t) => t.id === 'moved').map((t) => t.tag);
    assert.deepEqual(movedTags, ['build', 'wombat'], 'a tag repeated in a row is one tag row');
    const twins = (expected.versions as Array<{ row_id: string; twin: boolean }>).filter((r) => r.twin).map((r) => r.row_id);
    assert.deepEqual(twins, ['t-1b']);
  });

  it('reads nothing and returns undefined when any project of the database holds a memory, leaving its indexes', async () => {
    const url = await freshDatabase(cleanup);
    const other = await PgStore.open({ connectionString: url, project: 'other', localIndex: 'off' });
    cleanup.unshift(() => other.close());
    await other.importVersions(syntheticRows(5));
    const before = await snapshot(url);
    const store = await open(url, cleanup);
    const read = { batches: 0 };
    assert.equal(await store.loadIntoEmpty(inBatches(syntheticRows(20, 3), 10, read)), undefined);
    assert.equal(read.batches, 0);
    assert.deepEqual(await snapshot(url), before);
  });

  it('leaves the database empty, with every index and key, when a batch is refused part-way', async () => {
    const url = await freshDatabase(cleanup);
    const store = await open(url, cleanup);
    const before = await snapshot(url);
    async function* refused(): AsyncIterable<StoredVersion[]> {
      yield syntheticRows(300);
      throw new ValidationError('rows[3]', 'a secret');
    }
    await assert.rejects(store.loadIntoEmpty(refused()), (err: Error) => err instanceof ValidationError && /a secret/.test(err.message));
    assert.deepEqual(await snapshot(url), before);
    assert.equal(before.indexes && (before.indexes as unknown[]).length > 0, true);
    // And the database takes a load afterwards.
    assert.deepEqual(await store.loadIntoEmpty(inBatches(syntheticRows(30), 7)), { added: 33, skipped: 0 });
  });

  it('is what a copy into an empty team database uses; a second copy imports, adding nothing', async () => {
    const from = await openService();
    cleanup.unshift(() => from.store.close());
    const rows = syntheticRows(250);
    await from.store.importVersions(rows);
    const to = await open(await freshDatabase(cleanup), cleanup);
    const loads: Array<{ added: number; skipped: number } | undefined> = [];
    const load = to.loadIntoEmpty.bind(to);
    const watched = Object.assign(Object.create(to) as Store, {
      loadIntoEmpty: async (b: AsyncIterable<StoredVersion[]>) => {
        loads.push(await load(b));
        return loads[loads.length - 1];
      },
    });
    const first = await copyStore(from.store, watched);
    assert.deepEqual(first.versions, { added: rows.length, skipped: 0 });
    assert.deepEqual(loads, [{ added: rows.length, skipped: 0 }]);
    const second = await copyStore(from.store, watched);
    assert.deepEqual(second.versions, { added: 0, skipped: rows.length });
    assert.deepEqual(loads[1], undefined);
    assert.equal(loads.length, 2);
    assert.equal(await to.countVersions(), rows.length);
  });

  it('is declined for a role that does not own the tables, which imports instead', async () => {
    const url = await freshDatabase(cleanup);
    const owner = await open(url, cleanup);
    const role = `am_loader_${randomBytes(4).toString('hex')}`;
    let out = '';
    const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (out += t), readStdin: async () => undefined };
    assert.equal(await main(['db', 'grant', role, '--store', url, '--project', PROJECT], io, {}, tmpDir()), 0, out);
    // Roles are the cluster's: dropped after the database that holds its grants (pushed after it).
    cleanup.push(() => withClient(PG_ADMIN_URL, (c) => c.query(`DROP ROLE IF EXISTS ${escapeIdentifier(role)}`)));
    const member = await PgStore.open({
      connectionString: Object.assign(new URL(url), { username: role }).toString(),
      project: PROJECT,
      localIndex: 'off',
    });
    cleanup.unshift(() => member.close());
    const read = { batches: 0 };
    assert.equal(await member.loadIntoEmpty(inBatches(syntheticRows(20), 10, read)), undefined);
    assert.equal(read.batches, 0);
    const rows = syntheticRows(40);
    const copied = await copyStore(await sqljsWith(rows, cleanup), member);
    assert.deepEqual(copied.versions, { added: rows.length, skipped: 0 });
    assert.equal(await owner.countVersions(), rows.length);
  });
});

async function sqljsWith(rows: StoredVersion[], cleanup: Array<() => Promise<unknown>>): Promise<Store> {
  const s = await openService();
  cleanup.unshift(() => s.store.close());
  await s.store.importVersions(rows);
  return s.store;
}
