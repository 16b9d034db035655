import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { NotFoundError } from '../../../src/core/errors';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import { memory, openPg } from '../../helpers/builders';
import { blockedCall, requirePostgres, withClient } from '../../helpers/postgres';
import { rejects } from '../../helpers/assertions';

/**
 * A create on the team database does not read the id it has just made (Store.write's newId):
 * under load every statement waits for the server's turn, so one fewer is what a create saves.
 * Should the id exist after all, its version 1 is taken and the write decides again on it.
 */
describe('PostgreSQL store: a write is as few statements as it can be', function () {
  this.timeout(120_000);
  before(async function () {
    await requirePostgres(this);
  });

  /** The statements the store's connections send while `fn` runs (every pg client in this process). */
  async function statements(fn: () => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text?: string };
      sent.push(typeof q === 'string' ? q : (q.text ?? ''));
      return original.apply(this, args);
    };
    try {
      await fn();
    } finally {
      proto.query = original;
    }
    return sent;
  }

  /**
   * The statements of `sent` but the likely-duplicate check's, the term counts' fold (a write in 32
   * folds) and a new connection's setting (a create's check and write take two connections).
   */
  const ownStatements = (sent: string[]) =>
    sent.filter((t) => !/memory_term_changes|most_common_elems|similarity/.test(t) && !/^SET plan_cache_mode/.test(t));

  it('an edit nothing races is two statements, the head read and the write; a create one', async () => {
    const { store, service } = await openPg({ localIndex: 'off' });
    try {
      let id = '';
      const created = ownStatements(
        await statements(async () => {
          id = (await service.create(memory({ description: 'Zeppelin mooring masts lean in the wind', tags: ['zeppelin'] }))).id;
        }),
      );
      assert.equal(created.length, 1, created.join('\n---\n'));
      const edited = ownStatements(await statements(() => service.edit({ id, content: 'second' })));
      assert.equal(edited.length, 2, edited.join('\n---\n'));
      assert.ok(!edited.some((t) => /^\s*(BEGIN|COMMIT)/.test(t)), 'no transaction of statements');
      const deleted = ownStatements(await statements(() => service.delete({ id })));
      assert.equal(deleted.length, 2, deleted.join('\n---\n'));
      assert.deepEqual(
        (await service.history({ id })).map((h) => [h.version, h.op]),
        [
          [1, 'create'],
          [2, 'edit'],
          [3, 'delete'],
        ],
      );
    } finally {
      await store.close();
    }
  });

  it('a write whose head another writer moved after it was read decides again on the new head, holding its lock', async () => {
    const { store, service, url, project } = await openPg({ localIndex: 'off' });
    try {
      const { id } = await service.create(memory({ tags: ['zeppelin'], content: 'v1' }));
      const v1 = (await store.current(id))!;
      const theirs = { ...v1, rowId: randomUUID(), version: 2, op: 'edit' as const, tags: ['airship'], content: 'theirs' };
      const seen: number[] = [];
      const sent: string[] = [];
      await withClient(url, async (raw) => {
        // Another writer moves the head (and retags it) after this write read it, before its statement runs.
        await raw.query('BEGIN');
        await advanceHeads(raw, project, await insertVersions(raw, project, [theirs]));
        const write = statements(() =>
          store.write(id, (head, maxVersion) => {
            seen.push(head!.version);
            return {
              ...head!,
              rowId: randomUUID(),
              version: maxVersion + 1,
              op: 'edit',
              tags: ['blimp'],
              content: `mine after v${head!.version}`,
            };
          }),
        );
        await blockedCall(url, 'INSERT INTO memory_versions');
        await raw.query('COMMIT');
        sent.push(...(await write));
      });
      assert.deepEqual(seen, [1, 2], 'decided on the head it read, then on the one the other writer committed');
      assert.ok(
        sent.some((t) => /^SELECT 1 FROM memory_heads .* FOR UPDATE$/.test(t)),
        'the second decision was made holding the head',
      );
      assert.deepEqual(
        (await service.history({ id })).map((h) => [h.version, h.content]),
        [
          [1, 'v1'],
          [2, 'theirs'],
          [3, 'mine after v2'],
        ],
      );
      // The tag rows are the new head's only: the other writer's tag was replaced as well as the first one.
      const tags = await withClient(url, (c) => c.query('SELECT tag FROM memory_head_tags WHERE project = $1 AND id = $2', [project, id]));
      assert.deepEqual(
        tags.rows.map((r) => r.tag),
        ['blimp'],
      );
    } finally {
      await store.close();
    }
  });

  it('a write waiting for a purge that holds the head finds the memory gone and stores nothing', async () => {
    const { store, service, url, project } = await openPg({ localIndex: 'off' });
    try {
      const { id } = await service.create(memory({ content: 'v1' }));
      await withClient(url, async (raw) => {
        // A purge's first steps (pgStore.ts purge): the head locked, then everything of the id deleted.
        await raw.query('BEGIN');
        await raw.query('SELECT 1 FROM memory_heads WHERE project = $1 AND id = $2 FOR UPDATE', [project, id]);
        const edit = service.edit({ id, content: 'too late' });
        await blockedCall(url, 'INSERT INTO memory_versions');
        for (const table of ['memory_versions', 'memory_heads', 'memory_head_tags'])
          await raw.query(`DELETE FROM ${table} WHERE project = $1 AND id = $2`, [project, id]);
        await raw.query("INSERT INTO memory_purged (project, id, purged_at, purged_by) VALUES ($1, $2, now(), 'test')", [project, id]);
        await raw.query('COMMIT');
        await rejects(edit, NotFoundError, new RegExp(id));
      });
      const left = await withClient(url, (c) =>
        c.query('SELECT count(*)::int AS n FROM memory_versions WHERE project = $1 AND id = $2', [project, id]),
      );
      assert.equal(left.rows[0].n, 0, 'no version of the purged memory was written');
    } finally {
      await store.close();
    }
  });

  it('a fold that fails after a write committed leaves the write stored and warns', async () => {
    const { store, service, url, project } = await openPg({ localIndex: 'off' });
    const random = Math.random;
    // This project's totals refuse every row: its fold fails, its writes (which only append changes) do not.
    const constraint = `fold_fails_${project.replace(/[^a-z0-9]/gi, '_')}`.slice(0, 60);
    await withClient(url, (c) =>
      c.query(`ALTER TABLE memory_term_counts ADD CONSTRAINT ${constraint} CHECK (project <> '${project}') NOT VALID`),
    );
    try {
      Math.random = () => 0; // every write folds
      const { id } = await service.create(memory({ content: 'v1' }));
      await service.edit({ id, content: 'v2' });
      assert.equal((await service.read({ id })).version, 2);
      const folds = store.warnings().filter((w) => w.code === 'checkpoint-failed');
      assert.equal(folds.length, 2, JSON.stringify(store.warnings()));
      assert.match(folds[0]!.message, /folding the search term counts failed/);
    } finally {
      Math.random = random;
      await withClient(url, (c) => c.query(`ALTER TABLE memory_term_counts DROP CONSTRAINT ${constraint}`));
      await store.close();
    }
  });

  it('reads the head for an edit, not for a create', async () => {
    const { store, service } = await openPg({ localIndex: 'off' });
    try {
      const headRead = /FROM memory_heads h JOIN memory_versions v ON v\.seq = h\.seq\s+WHERE h\.project = \$1 AND h\.id = \$2/;
      let id = '';
      const created = await statements(async () => {
        id = (await service.create(memory({ description: 'Zeppelin mooring ropes fray in the cold', tags: ['zeppelin'] }))).id;
      });
      assert.equal(created.filter((t) => headRead.test(t)).length, 0, created.join('\n'));
      assert.ok(created.some((t) => t.includes('INSERT INTO memory_versions')));
      const edited = await statements(() => service.edit({ id, content: 'second' }));
      assert.equal(edited.filter((t) => headRead.test(t)).length, 1, edited.join('\n'));
      assert.equal((await service.read({ id })).version, 2);
    } finally {
      await store.close();
    }
  });

  it('a write told its id is new decides on no head, and decides again on the head when the id exists after all', async () => {
    const { store, service } = await openPg({ localIndex: 'off' });
    try {
      const { id } = await service.create(memory({ content: 'v1' }));
      const first = (await store.current(id))!;
      const seen: Array<number | undefined> = [];
      const written = await store.write(
        id,
        (head, maxVersion) => {
          seen.push(head?.version);
          const base = head ?? first;
          return {
            ...base,
            rowId: randomUUID(),
            version: maxVersion + 1,
            op: head ? 'edit' : 'create',
            content: head ? 'second' : 'a twin v1',
          };
        },
        { newId: true },
      );
      assert.deepEqual(seen, [undefined, 1], 'decided on no head, then on version 1');
      assert.equal(written?.version, 2);
      assert.deepEqual(
        (await service.history({ id })).map((h) => [h.version, h.content]),
        [
          [1, 'v1'],
          [2, 'second'],
        ],
      );
    } finally {
      await store.close();
    }
  });
});
