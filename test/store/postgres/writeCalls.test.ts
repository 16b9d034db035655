import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { memory, openPg } from '../../helpers/builders';
import { requirePostgres } from '../../helpers/postgres';

/**
 * A create on the team database does not read the id it has just made (Store.write's newId):
 * under load every statement waits for the server's turn, so one fewer is what a create saves.
 * Should the id exist after all, its version 1 is taken and the write decides again on it.
 */
describe('PostgreSQL store: a create does not read its new id', function () {
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
