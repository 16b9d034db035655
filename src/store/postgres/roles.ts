import { escapeIdentifier, type ClientBase } from 'pg';
import { ValidationError } from '../../core/errors';

/**
 * What a member role may do to each table (`agent-memory db grant`). Members read everything,
 * append versions (no UPDATE or DELETE: history stays as written; purges are the owner's), and
 * keep the current-state tables a write moves forward. Deciding a proposal is refused by a
 * trigger (schema 7) unless agent_memory_roles marks the role an approver: a GRANT cannot tell
 * a pending proposal version from a decided one.
 */
const TABLE_RIGHTS: ReadonlyArray<[table: string, rights: string]> = [
  ['agent_memory_schema', 'SELECT'],
  ['agent_memory_meta', 'SELECT'],
  ['agent_memory_roles', 'SELECT'],
  ['memory_versions', 'SELECT, INSERT'],
  ['record_versions', 'SELECT, INSERT'],
  ['memory_heads', 'SELECT, INSERT, UPDATE'],
  ['memory_head_tags', 'SELECT, INSERT, DELETE'],
  // A write adds its changes (a trigger runs as the writer) and may fold them into the totals (termCounts.ts).
  ['memory_term_changes', 'SELECT, INSERT, DELETE'],
  ['memory_term_counts', 'SELECT, INSERT, UPDATE'],
  ['record_heads', 'SELECT, INSERT, UPDATE'],
  ['memory_purged', 'SELECT'],
  ['record_purged', 'SELECT'],
];

/** A role name as PostgreSQL takes it unquoted (lower case), so people type it as they see it. */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface GrantResult {
  role: string;
  /** Whether the role was made here (LOGIN, no password: the administrator sets one). */
  created: boolean;
  approver: boolean;
  database: string;
}

/**
 * Sets `role` up as a member of this database's memory (making it when it does not exist):
 * what TABLE_RIGHTS allows, nothing else, and whether it may decide proposals. Run by the
 * tables' owner, in one transaction; running it again re-applies the rights (say, to take
 * --approver away).
 */
export async function grantMember(client: ClientBase, role: string, approver: boolean): Promise<GrantResult> {
  if (!ROLE_NAME.test(role) || role.startsWith('pg_'))
    throw new ValidationError('ROLE', `"${role}" is not a role name this command sets up: lower-case letters, digits and _, not pg_…`);
  const me = (
    await client.query<{ me: string; db: string; schema: string }>(
      'SELECT current_user AS me, current_database() AS db, current_schema() AS schema',
    )
  ).rows[0]!;
  if (role === me.me)
    throw new ValidationError('ROLE', `is the role this command connects as (${role}), which owns the tables; name a teammate's role`);
  const found = (
    await client.query<{ rolsuper: boolean; rolbypassrls: boolean }>('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1', [
      role,
    ])
  ).rows[0];
  if (found?.rolsuper)
    throw new ValidationError('ROLE', `${role} is a superuser: the database cannot restrict it; give each person a role of their own`);
  const r = escapeIdentifier(role);
  if (!found) await client.query(`CREATE ROLE ${r} LOGIN`);
  await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(me.db)} TO ${r}`);
  await client.query(`GRANT USAGE ON SCHEMA ${escapeIdentifier(me.schema)} TO ${r}`);
  for (const [table, rights] of TABLE_RIGHTS) {
    await client.query(`REVOKE ALL ON ${escapeIdentifier(table)} FROM ${r}`);
    await client.query(`GRANT ${rights} ON ${escapeIdentifier(table)} TO ${r}`);
  }
  await client.query(
    `INSERT INTO agent_memory_roles (role, approver) VALUES ($1, $2)
     ON CONFLICT (role) DO UPDATE SET approver = excluded.approver, granted_at = now(), granted_by = current_user`,
    [role, approver],
  );
  return { role, created: !found, approver, database: me.db };
}
