import { strict as assert } from 'node:assert';
import { Client } from 'pg';
import { PgStore } from '../../../src/store/postgres/pgStore';
import type { StoredVersion } from '../../../src/core/ports/store';
import { memory, openPg } from '../../helpers/builders';
import { requirePostgres, waitersAtLeast } from '../../helpers/postgres';

describe('PostgreSQL store: a purge racing an import of the same memory', function () {
  this.timeout(60_000);

  before(async function () {
    await requirePostgres(this);
  });

  it('never brings the purged memory back, even when the import runs while the purge is not yet committed', async () => {
    const a = await openPg();
    const b = await PgStore.open({ connectionString: a.url, project: a.project, pool: { max: 2 }, localIndex: 'off' });
    const holder = new Client({ connectionString: a.url });
    const admin = new Client({ connectionString: a.url });
    await holder.connect();
    await admin.connect();
    try {
      const { id } = await a.service.create(memory({ description: 'Leaked a token' }));
      const rows: StoredVersion[] = [];
      for await (const row of a.store.exportVersions()) if (row.id === id) rows.push(row);
      // Hold the purge's tombstone key: the purge deletes the rows, then waits to record the
      // tombstone, so the import runs against a purge that is not committed yet.
      await holder.query('BEGIN');
      await holder.query('INSERT INTO memory_purged (project, id, purged_at) VALUES ($1, $2, now())', [a.project, id]);
      const purging = a.store.purge(id, 'tester@example.com');
      await waitersAtLeast(admin, 1);
      const importing = b.importVersions(rows);
      await waitersAtLeast(admin, 2);
      await holder.query('ROLLBACK');
      await purging;
      await importing;
      assert.equal(await b.current(id), undefined, 'the purged memory came back');
      assert.deepEqual(await a.store.history(id), []);
    } finally {
      await holder.end();
      await admin.end();
      await b.close();
      await a.store.close();
    }
  });
});
