import type { ClientBase } from 'pg';
import type { RecordQuery, StoredRecord } from '../../core/ports/records';
import { newestByKey } from '../../core/ports/versionOrder';
import { originOf, type Channel } from '../../core/ports/origin';
import { asInserted, twinFlags, UNIQUE_VIOLATION } from './versionRows';

/** The columns a client writes (db_role is the database's own: a trigger sets it, schema 7). */
const WRITTEN_COLUMNS =
  'row_id, kind, id, version, op, status, key0, key1, key2, rank, due_at, data, changed_at, deleted_at, author, channel, proposed_by';
/** The columns of a record version row, in the order `toRecord` reads them. */
export const RECORD_COLUMNS = `${WRITTEN_COLUMNS}, db_role`;

export interface RecordRow {
  row_id: string;
  kind: StoredRecord['kind'];
  id: string;
  version: number;
  op: StoredRecord['op'];
  status: string;
  key0: string;
  key1: string;
  key2: string;
  rank: number;
  due_at: Date | null;
  data: Record<string, unknown>;
  changed_at: Date;
  deleted_at: Date | null;
  author: string;
  channel: string | null;
  proposed_by: string | null;
  db_role: string | null;
}

export function toRecord(r: RecordRow): StoredRecord {
  return {
    rowId: r.row_id,
    kind: r.kind,
    id: r.id,
    version: r.version,
    op: r.op,
    status: r.status,
    keys: [r.key0, r.key1, r.key2],
    rank: r.rank,
    dueAt: r.due_at ? r.due_at.toISOString() : null,
    data: r.data,
    changedAt: r.changed_at.toISOString(),
    deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
    author: r.author,
    ...originOf({ channel: r.channel as Channel | null, proposedBy: r.proposed_by, dbRole: r.db_role }),
  };
}

/** The unique index on (project, kind, id, version) over every row but twins (schema version 4). */
export const RECORD_VERSION_CONSTRAINT = 'record_versions_number';

/** A write or import lost the race for a record version number to another transaction. */
export function isRecordVersionTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === UNIQUE_VIOLATION && e.constraint === RECORD_VERSION_CONSTRAINT;
}

/**
 * Two transactions inserting versions of the same ids in opposite orders wait on each other's
 * uncommitted numbers; PostgreSQL aborts one, which runs again.
 */
export function isDeadlock(err: unknown): boolean {
  return (err as { code?: string }).code === '40P01';
}

const key = (kind: string, id: string) => `${kind}\u0000${id}`;

/**
 * Inserts record versions (in the given order) not stored yet by rowId and whose (kind, id)
 * was not purged; returns the inserted rows with their seq. As memory versions
 * (versionRows.ts `insertVersions`): a row whose number another row of its (kind, id) holds
 * fails the statement, unless `twins` is set (imports), when it goes in as a twin.
 */
export async function insertRecords(
  client: ClientBase,
  project: string,
  rows: StoredRecord[],
  twins = false,
): Promise<Array<StoredRecord & { seq: string }>> {
  if (rows.length === 0) return [];
  const twin = twinFlags(rows, (r) => key(r.kind, r.id), twins);
  const payload = rows.map((r, ord) => {
    return {
      ord,
      row_id: r.rowId,
      kind: r.kind,
      id: r.id,
      version: r.version,
      op: r.op,
      status: r.status,
      key0: r.keys[0],
      key1: r.keys[1],
      key2: r.keys[2],
      rank: r.rank,
      due_at: r.dueAt,
      data: r.data,
      changed_at: r.changedAt,
      deleted_at: r.deletedAt,
      author: r.author,
      channel: r.channel ?? null,
      proposed_by: r.proposedBy ?? null,
      twin: twin[ord],
    };
  });
  const { rows: inserted } = await client.query<{ row_id: string; seq: string; db_role: string | null }>(
    `INSERT INTO record_versions (project, ${WRITTEN_COLUMNS}, twin)
     SELECT $1, r.row_id, r.kind, r.id, r.version, r.op, r.status, r.key0, r.key1, r.key2, r.rank, r.due_at, r.data, r.changed_at,
       r.deleted_at, r.author, r.channel, r.proposed_by,
       r.twin OR ($3 AND EXISTS (SELECT 1 FROM record_versions v
         WHERE v.project = $1 AND v.kind = r.kind AND v.id = r.id AND v.version = r.version AND v.row_id <> r.row_id))
     FROM jsonb_to_recordset($2::jsonb) AS r(ord int, row_id text, kind text, id text, version int, op text, status text, key0 text,
       key1 text, key2 text, rank float8, due_at timestamptz, data jsonb, changed_at timestamptz, deleted_at timestamptz, author text,
       channel text, proposed_by text, twin boolean)
     WHERE NOT EXISTS (SELECT 1 FROM record_purged p WHERE p.project = $1 AND p.kind = r.kind AND p.id = r.id)
     ORDER BY r.ord
     ON CONFLICT (project, row_id) DO NOTHING
     RETURNING row_id, seq, db_role`,
    [project, JSON.stringify(payload), twins],
  );
  return asInserted(rows, inserted);
}

/** The head columns a newer version replaces (everything but the key and max_version). */
const HEAD_COLUMNS = ['seq', 'row_id', 'version', 'status', 'key0', 'key1', 'key2', 'rank', 'due_at', 'changed_at', 'deleted_at'];

/**
 * Moves the heads of the (kind, id)s of `inserted` forward, in the same transaction. Only a
 * newer version (by changedAt, version, rowId, as `isNewer`) replaces a head; the highest
 * version number is kept either way. One upsert does both, against the head as last
 * committed (ON CONFLICT reads it even when this statement's snapshot is older), so two
 * transactions touching one id in any order leave the same head.
 */
export async function advanceRecordHeads(
  client: ClientBase,
  project: string,
  inserted: Array<StoredRecord & { seq: string }>,
): Promise<void> {
  if (inserted.length === 0) return;
  const newest = newestByKey(inserted, (r) => key(r.kind, r.id));
  // Sorted by (kind, id), so two batches lock their heads in the same order and cannot deadlock.
  const payload = [...newest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => ({
      kind: r.kind,
      id: r.id,
      seq: r.seq,
      row_id: r.rowId,
      version: r.version,
      max_version: r.maxVersion,
      status: r.status,
      key0: r.keys[0],
      key1: r.keys[1],
      key2: r.keys[2],
      rank: r.rank,
      due_at: r.dueAt,
      changed_at: r.changedAt,
      deleted_at: r.deletedAt,
    }));
  const newer = '(excluded.changed_at, excluded.version, excluded.row_id) > (h.changed_at, h.version, h.row_id)';
  await client.query(
    `INSERT INTO record_heads AS h (project, kind, id, max_version, ${HEAD_COLUMNS.join(', ')})
     SELECT $1, r.kind, r.id, r.max_version, ${HEAD_COLUMNS.map((c) => `r.${c}`).join(', ')}
     FROM jsonb_to_recordset($2::jsonb) AS r(kind text, id text, seq bigint, row_id text, version int, max_version int, status text,
       key0 text, key1 text, key2 text, rank float8, due_at timestamptz, changed_at timestamptz, deleted_at timestamptz)
     ON CONFLICT (project, kind, id) DO UPDATE SET
       max_version = greatest(h.max_version, excluded.max_version),
       ${HEAD_COLUMNS.map((c) => `${c} = CASE WHEN ${newer} THEN excluded.${c} ELSE h.${c} END`).join(',\n       ')}
     WHERE ${newer} OR excluded.max_version > h.max_version`,
    [project, JSON.stringify(payload)],
  );
}

/**
 * The WHERE clause (over `record_heads h`) and its parameters for a query or a count (checked
 * by records.ts `checkRecordQuery` first); $1 is the project. Every value is a parameter.
 */
export function recordFilter(project: string, q: Omit<RecordQuery, 'limit'>): { where: string; values: unknown[] } {
  const values: unknown[] = [project, q.kind, q.deleted ?? false];
  const where = ['h.project = $1', 'h.kind = $2', 'h.deleted = $3'];
  const param = (v: unknown) => `$${values.push(v)}`;
  q.keys?.forEach((match, i) => {
    if (match === undefined) return;
    if (typeof match === 'string') where.push(`h.key${i} = ${param(match)}`);
    else where.push(`h.key${i} = ANY (${param([...match])}::text[])`);
  });
  if (q.status) where.push(`h.status = ANY (${param([...q.status])}::text[])`);
  if (q.dueBefore !== undefined) where.push(`h.due_at < ${param(q.dueBefore)}::timestamptz`);
  if (q.after) {
    // After the cursor in rank, changedAt, id order, all descending: a smaller triple.
    where.push(
      `(h.rank, h.changed_at, h.id) < (${param(q.after.rank)}::float8, ${param(q.after.changedAt)}::timestamptz, ${param(q.after.id)}::text)`,
    );
  }
  return { where: where.join(' AND '), values };
}
