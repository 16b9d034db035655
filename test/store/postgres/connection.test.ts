import { strict as assert } from 'node:assert';
import type { Pool } from 'pg';
import { createPool } from '../../../src/store/postgres/connection';
import { hasPassword } from '../../../src/store/postgres/url';

/** The settings a pool hands each new client (no server is contacted: a pool connects lazily). */
async function optionsOf(connectionString: string, pool?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const p: Pool = createPool({ connectionString, pool }, () => undefined);
  // pg keeps the password as a non-enumerable property (so it is not logged): copy it by name.
  const raw = (p as unknown as { options: Record<string, unknown> }).options;
  const options = { ...raw, password: raw.password };
  await p.end();
  return options;
}

describe('PostgreSQL connection settings', () => {
  it("sends the password given beside the URL (VS Code's secret store), not the URL's empty one", async () => {
    const o = await optionsOf('postgres://bob@db.example:5433/memories', { password: 's3cret' });
    assert.equal(o.password, 's3cret');
    assert.equal(o.user, 'bob');
    assert.equal(o.host, 'db.example');
    assert.equal(o.port, 5433);
    assert.equal(o.database, 'memories');
    assert.equal(o.connectionString, undefined, 'pg would re-parse the URL over our options');
  });

  it('leaves the password unset without one, so PGPASSWORD and ~/.pgpass still apply', async () => {
    assert.equal((await optionsOf('postgres://bob@db.example/memories')).password, undefined);
  });

  it('keeps the TLS setting given beside the URL over an sslmode in the URL', async () => {
    const o = await optionsOf('postgres://bob@db.example/memories?sslmode=disable', { ssl: { rejectUnauthorized: true } });
    assert.deepEqual(o.ssl, { rejectUnauthorized: true });
  });

  it("uses the URL's sslmode when no TLS setting is given (the CLI)", async () => {
    assert.equal((await optionsOf('postgres://bob@db.example/memories?sslmode=disable')).ssl, false);
  });

  it('finds a password in the user part and in the query', () => {
    assert.equal(hasPassword('postgres://bob:pw@h/db'), true);
    assert.equal(hasPassword('postgres://bob@h/db?password=pw'), true);
    assert.equal(hasPassword('postgres://bob@h/db?sslmode=require'), false);
  });
});
