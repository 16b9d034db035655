import { strict as assert } from 'node:assert';
import { randomBytes, randomUUID } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import type { CliIo } from '../../../src/cli/io';
import { main } from '../../../src/cli/main';
import { buildServices } from '../../../src/core/services';
import { PgStore } from '../../../src/store/postgres/pgStore';
import { memory } from '../../helpers/builders';
import { freshProject, requirePostgres, withClient } from '../../helpers/postgres';
import { tmpDir } from '../../helpers/tmp';

const FACT = { subject: 'service:billing', predicate: 'owned_by', object: 'team:payments', source: 'CODEOWNERS', confidence: 0.9 };

/** The CLI in this process, as the database's owner runs it. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => undefined };
  const code = await main(argv, io, { AGENT_MEMORY_AUTHOR: 'owner@example.com' }, tmpDir());
  return { code, stdout, stderr };
}

describe('PostgreSQL roles: agent-memory db grant, enforced by the database whatever SQL a member runs', function () {
  this.timeout(120_000);
  let url: string;
  const suffix = randomBytes(4).toString('hex');
  // Roles are cluster-wide: names of this run only, dropped after.
  const member = `am_member_${suffix}`;
  const approver = `am_approver_${suffix}`;
  const project = freshProject();
  const as = (role: string) => Object.assign(new URL(url), { username: role }).toString();
  const sqlAs = (role: string, text: string, values: unknown[] = []) => withClient(as(role), (c) => c.query(text, values));

  before(async function () {
    url = await requirePostgres(this);
    await (await PgStore.open({ connectionString: url, project })).close();
  });

  after(async () => {
    if (!url) return;
    await withClient(url, async (c) => {
      for (const role of [member, approver]) {
        await c.query('DELETE FROM agent_memory_roles WHERE role = $1', [role]);
        const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
        if (exists.rowCount) {
          await c.query(`DROP OWNED BY ${escapeIdentifier(role)}`);
          await c.query(`DROP ROLE ${escapeIdentifier(role)}`);
        }
      }
    });
  });

  it('creates a member role that writes and proposes; the database records its role on every row', async () => {
    const r = await cli(['db', 'grant', member, '--store', url, '--project', project]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Created role ${member} .*cannot approve or reject proposals; cannot update or delete history`));
    const store = await PgStore.open({ connectionString: as(member), project });
    try {
      assert.equal(store.dbRole, member);
      const s = buildServices(store, { author: 'mo@example.com', channel: 'cli' });
      const { id } = await s.memories.create(memory());
      await s.memories.edit({ id, content: 'edited by a member' });
      assert.deepEqual(
        (await s.memories.history({ id })).map((v) => [v.author, v.channel, v.dbRole]),
        [
          ['mo@example.com', 'cli', member],
          ['mo@example.com', 'cli', member],
        ],
      );
      await s.playbook.proposals.propose({ target: 'fact', payload: FACT, proposedBy: 'agent:claude-code' });
    } finally {
      await store.close();
    }
    // A row that names another role is stored with the inserting role all the same.
    await sqlAs(
      member,
      `INSERT INTO memory_versions (project, row_id, id, version, op, description, tags, content, changed_at, author, db_role)
       VALUES ($1, $2, $3, 1, 'create', 'forged', '{x}', 'x', now(), 'someone', 'postgres')`,
      [project, randomUUID(), randomUUID()],
    );
    const { rows } = await withClient(url, (c) =>
      c.query<{ db_role: string }>(`SELECT db_role FROM memory_versions WHERE project = $1 AND description = 'forged'`, [project]),
    );
    assert.deepEqual(rows, [{ db_role: member }]);
  });

  it('refuses a member rewriting history or deciding a proposal with plain SQL, and through the app', async () => {
    const denied = /permission denied/;
    await assert.rejects(sqlAs(member, `UPDATE memory_versions SET content = 'rewritten' WHERE project = $1`, [project]), denied);
    await assert.rejects(sqlAs(member, `DELETE FROM memory_versions WHERE project = $1`, [project]), denied);
    await assert.rejects(sqlAs(member, `UPDATE record_versions SET status = 'approved' WHERE project = $1`, [project]), denied);
    await assert.rejects(sqlAs(member, `DELETE FROM record_versions WHERE project = $1`, [project]), denied);
    await assert.rejects(sqlAs(member, `TRUNCATE memory_versions`), denied);
    // Approving by hand: the pending proposal's next version, decided.
    const approve = `INSERT INTO record_versions (project, row_id, kind, id, version, op, status, key0, key1, key2, rank, data, changed_at, author)
      SELECT project, $2, kind, id, version + 1, 'edit', $3, key0, key1, key2, rank,
        jsonb_set(data, '{decision}', '{"state": "approved", "by": "mo@example.com", "at": "2026-01-01T00:00:00.000Z", "reason": "", "resultId": null}'),
        now(), 'mo@example.com'
      FROM record_versions WHERE project = $1 AND kind = 'proposal'`;
    const notApprover = new RegExp(`database role ${member} may not decide proposals: it is not an approver`);
    await assert.rejects(sqlAs(member, approve, [project, randomUUID(), 'approved']), notApprover);
    // A decision hidden under a pending status is refused too.
    await assert.rejects(sqlAs(member, approve, [project, randomUUID(), 'pending']), notApprover);
    await assert.rejects(
      sqlAs(member, `UPDATE record_heads SET status = 'rejected' WHERE project = $1 AND kind = 'proposal'`, [project]),
      notApprover,
    );

    const store = await PgStore.open({ connectionString: as(member), project });
    try {
      const s = buildServices(store, { author: 'mo@example.com', channel: 'cli' });
      const [p] = (await s.playbook.proposals.list()).items;
      assert.ok(p);
      // Declared identities differ (the agent proposed), so only the database stands in the way.
      await assert.rejects(s.playbook.proposals.approve({ id: p.id, by: 'mo@example.com' }), notApprover);
      await assert.rejects(s.playbook.proposals.reject({ id: p.id, by: 'mo@example.com', reason: 'no' }), notApprover);
      assert.equal((await s.playbook.proposals.get(p.id)).state, 'pending');
      assert.equal(await store.records.count({ kind: 'fact' }), 0);
    } finally {
      await store.close();
    }
  });

  it('lets an approver role approve; the approved fact names the proposer, the approver and their role', async () => {
    const r = await cli(['db', 'grant', approver, '--approver', '--store', url, '--project', project]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /approves and rejects proposals/);
    const store = await PgStore.open({ connectionString: as(approver), project });
    try {
      const s = buildServices(store, { author: 'ann@example.com', channel: 'cli' });
      const [p] = (await s.playbook.proposals.list()).items;
      const out = await s.playbook.proposals.approve({ id: p!.id, by: 'ann@example.com' });
      const fact = await s.playbook.facts.show({ id: out.resultId! });
      assert.deepEqual([fact.assertedBy, fact.proposedBy, fact.dbRole], ['ann@example.com', 'agent:claude-code', approver]);
      // An approver still cannot rewrite history.
      await assert.rejects(sqlAs(approver, `UPDATE record_versions SET author = 'x' WHERE project = $1`, [project]), /permission denied/);
    } finally {
      await store.close();
    }
    // Granting again without --approver takes approving away.
    assert.equal((await cli(['db', 'grant', approver, '--store', url, '--project', project])).code, 0);
    const { rows } = await withClient(url, (c) => c.query('SELECT approver FROM agent_memory_roles WHERE role = $1', [approver]));
    assert.deepEqual(rows, [{ approver: false }]);
  });

  it('refuses a workspace folder, a superuser and a name it would have to quote', async () => {
    const folder = await cli(['db', 'grant', member, '--store', tmpDir()]);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /is a workspace folder: it has no roles/);
    const sup = await cli(['db', 'grant', 'postgres', '--store', url, '--project', project]);
    assert.equal(sup.code, 2);
    assert.match(sup.stderr, /ROLE: (postgres is a superuser|is the role this command connects as)/);
    const odd = await cli(['db', 'grant', 'Robert"; DROP TABLE x', '--store', url, '--project', project]);
    assert.equal(odd.code, 2);
    assert.match(odd.stderr, /is not a role name this command sets up/);
  });
});
