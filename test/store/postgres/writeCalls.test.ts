import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StoredVersion } from '../../../src/core/ports/store';
import { advanceHeads, insertVersions } from '../../../src/store/postgres/versionRows';
import { memory, openPg } from '../../helpers/builders';
import { blockedCall, requirePostgres, withClient } from '../../helpers/postgres';

/**
 * A write on the team database is one server call (writeFunctions.ts, schema 9) after one read of
 * the head: under load every round trip waits for the server's turn, so their number is what a
 * write costs there. The call writes only if the head is still the one core decided on.
 */
describe('PostgreSQL store: a write in one call', function () {
  this.timeout(120_000);
  let url: string;
  before(async function () {
    url = await requirePostgres(this);
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

  it('edits in two statements (the head, then the write) and creates in two (the likely-duplicate check, then the write: a new id is not read)', async () => {
    const { store, service } = await openPg({ localIndex: 'off' });
    try {
      // The first check reads the statistics its probe is chosen on; later ones reuse them.
      await service.create(memory({ description: 'Warm-up note about quokka caches' }));
      let id = '';
      const created = await statements(async () => {
        id = (await service.create(memory({ description: 'Zeppelin mooring ropes fray in the cold', tags: ['zeppelin'] }))).id;
      });
      assert.equal(created.length, 2, created.join('\n'));
      assert.match(created[1]!, /agent_memory_write\(/);
      const edited = await statements(() => service.edit({ id, content: 'second' }));
      assert.equal(edited.length, 2, edited.join('\n'));
      assert.match(edited[1]!, /agent_memory_write\(/);
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

  it('decides again when another writer moved the head between the read and the call', async () => {
    const { store, service, project } = await openPg({ localIndex: 'off' });
    try {
      const { id } = await service.create(memory({ content: 'v1' }));
      const current = (await store.current(id))!;
      const rival: StoredVersion = {
        ...current,
        rowId: randomUUID(),
        // A number further on (as an import brings one merged elsewhere), so a write decided on
        // version 1 would not collide with it: only the head check sends it back to decide again.
        version: 5,
        op: 'edit',
        content: 'rival v5',
        changedAt: new Date(Date.parse(current.changedAt) + 1).toISOString(),
      };
      let decided = 0;
      await withClient(url, async (raw) => {
        // Hold the id's lock (the one agent_memory_write takes), so the edit reads version 1 and
        // then waits inside its call; meanwhile version 5 lands and the lock is let go.
        await raw.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [project, id]);
        const write = store.write(id, (head, maxVersion) => {
          decided++;
          return { ...head!, rowId: randomUUID(), version: maxVersion + 1, op: 'edit', content: `mine on v${head!.version}` };
        });
        await blockedCall(url, 'agent_memory_write(', 'advisory');
        await raw.query('BEGIN');
        await advanceHeads(raw, project, await insertVersions(raw, project, [rival]));
        await raw.query('COMMIT');
        await raw.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [project, id]);
        const written = await write;
        assert.equal(written?.version, 6);
      });
      assert.equal(decided, 2, 'decided on version 1, then again on version 5');
      assert.deepEqual(
        (await service.history({ id })).map((h) => [h.version, h.content]),
        [
          [1, 'v1'],
          [5, 'rival v5'],
          [6, 'mine on v5'],
        ],
      );
    } finally {
      await store.close();
    }
  });
});
