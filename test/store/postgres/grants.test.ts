import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import { MemoryService } from '../../../src/core/memoryService';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { freshProject, requirePostgres, withClient } from '../../helpers/postgres';

describe("PostgreSQL store: a teammate's role without the right to create tables", function () {
  this.timeout(60_000);
  let url: string;
  const role = `am_member_${randomBytes(4).toString('hex')}`;

  const asAdmin = (sql: string) => withClient(url, (c) => c.query(sql));

  before(async function () {
    url = await requirePostgres(this);
    // The administrator's first connect creates the schema.
    await (await PgStore.open({ connectionString: url, project: freshProject() })).close();
    const db = escapeIdentifier(new URL(url).pathname.slice(1));
    await asAdmin(`CREATE ROLE ${escapeIdentifier(role)} LOGIN`);
    await asAdmin(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await asAdmin(`GRANT CONNECT ON DATABASE ${db} TO ${escapeIdentifier(role)}`);
    await asAdmin(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${escapeIdentifier(role)}`);
    await asAdmin(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${escapeIdentifier(role)}`);
  });

  after(async () => {
    if (!url) return;
    await asAdmin(`DROP OWNED BY ${escapeIdentifier(role)}`);
    await asAdmin(`DROP ROLE IF EXISTS ${escapeIdentifier(role)}`);
  });

  it('opens a current schema without DDL, then reads and writes', async () => {
    const member = Object.assign(new URL(url), { username: role }).toString();
    const store = await PgStore.open({ connectionString: member, project: freshProject() });
    try {
      const service = new MemoryService(store, { author: role });
      const { id } = await service.create({ description: 'Written by a member role', tags: ['grants'], content: 'x' });
      assert.equal((await service.read({ id })).description, 'Written by a member role');
      assert.equal((await service.search({ keywords: ['member'] }))[0]?.id, id);
    } finally {
      await store.close();
    }
  });
});
