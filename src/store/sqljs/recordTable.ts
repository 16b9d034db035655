import type { SqlValue } from 'sql.js';
import { checkRecordQuery, type RecordKind, type RecordQuery, type StoredRecord } from '../../core/ports/records';
import { isNewer } from '../../core/ports/versionOrder';
import { originText, parseOrigin } from '../../core/ports/origin';
import { Statements } from './statements';

const COLUMNS =
  'v.row_id, v.kind, v.id, v.version, v.op, v.status, v.key0, v.key1, v.key2, v.rank, v.due_at, v.data, v.changed_at, v.deleted_at, v.author, v.origin';

function toRecord(v: SqlValue[]): StoredRecord {
  return {
    rowId: v[0] as string,
    kind: v[1] as RecordKind,
    id: v[2] as string,
    version: v[3] as number,
    op: v[4] as StoredRecord['op'],
    status: v[5] as string,
    keys: [v[6] as string, v[7] as string, v[8] as string],
    rank: v[9] as number,
    dueAt: (v[10] as string | null) ?? null,
    data: JSON.parse(v[11] as string) as Record<string, unknown>,
    changedAt: v[12] as string,
    deletedAt: (v[13] as string | null) ?? null,
    author: v[14] as string,
    ...parseOrigin(v[15] as string | null),
  };
}

/** The WHERE clause and parameters of a record query over `record_heads h`. */
function where(q: Omit<RecordQuery, 'limit'>): { sql: string; params: SqlValue[] } {
  const parts = ['h.kind = ?', 'h.deleted = ?'];
  const params: SqlValue[] = [q.kind, q.deleted ? 1 : 0];
  const inList = (column: string, values: readonly string[]) => {
    parts.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  q.keys?.forEach((m, i) => {
    if (m !== undefined) inList(`h.key${i}`, typeof m === 'string' ? [m] : m);
  });
  if (q.status) inList('h.status', q.status);
  if (q.dueBefore !== undefined) {
    parts.push('h.due_at IS NOT NULL AND h.due_at < ?');
    params.push(q.dueBefore);
  }
  if (q.after) {
    const { rank, changedAt, id } = q.after;
    parts.push('(h.rank < ? OR (h.rank = ? AND (h.changed_at < ? OR (h.changed_at = ? AND h.id < ?))))');
    params.push(rank, rank, changedAt, changedAt, id);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * The index a query must use. The snapshot has no planner statistics, so SQLite takes the
 * ORDER BY's index and walks every head of the kind until a page is full: a full scan for
 * a lookup by subject (measured at 100k facts: 590 ms p50, against about 1 ms by the key's
 * index). A given key or a due time is what narrows a query down.
 */
function indexFor(q: Omit<RecordQuery, 'limit'>): string {
  // keys[0] (a subject, a name) narrows most, then keys[2] (an object); keys[1] (a predicate) least.
  const key = [0, 2, 1].find((i) => q.keys?.[i] !== undefined);
  if (key !== undefined) return `INDEXED BY record_heads_key${key}`;
  return q.dueBefore !== undefined ? 'INDEXED BY record_heads_due' : '';
}

/**
 * SQL over the record tables (schema version 2) of one sql.js database: every version of
 * every record, and each (kind, id)'s current version with the lookup columns copied next
 * to it, so queries never read old versions.
 */
export class RecordTable extends Statements {
  hasRow(rowId: string): boolean {
    return this.first('SELECT 1 FROM record_versions WHERE row_id = ?', [rowId]) !== undefined;
  }

  hasVersion(kind: RecordKind, id: string, version: number): boolean {
    return this.first('SELECT 1 FROM record_versions WHERE kind = ? AND id = ? AND version = ?', [kind, id, version]) !== undefined;
  }

  isPurged(kind: RecordKind, id: string): boolean {
    return this.first('SELECT 1 FROM record_purged WHERE kind = ? AND id = ?', [kind, id]) !== undefined;
  }

  /** Inserts a version unless stored or purged, and moves the head when it is the newest. Returns whether it was stored. */
  insert(r: StoredRecord): boolean {
    if (this.isPurged(r.kind, r.id) || this.hasRow(r.rowId)) return false;
    this.stmt(
      `INSERT INTO record_versions (row_id, kind, id, version, op, status, key0, key1, key2, rank, due_at, data, changed_at, deleted_at, author, origin)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run([
      r.rowId,
      r.kind,
      r.id,
      r.version,
      r.op,
      r.status,
      r.keys[0],
      r.keys[1],
      r.keys[2],
      r.rank,
      r.dueAt,
      JSON.stringify(r.data),
      r.changedAt,
      r.deletedAt,
      r.author,
      originText(r),
    ]);
    const seq = this.first('SELECT last_insert_rowid()', [])![0] as number;
    const head = this.first('SELECT seq, max_version FROM record_heads WHERE kind = ? AND id = ?', [r.kind, r.id]);
    const maxVersion = Math.max(r.version, (head?.[1] as number | undefined) ?? 0);
    const cur = head && this.first('SELECT changed_at, version, row_id FROM record_versions WHERE seq = ?', [head[0]!]);
    if (!cur || isNewer(r, { changedAt: cur[0] as string, version: cur[1] as number, rowId: cur[2] as string })) {
      this.stmt(
        `INSERT INTO record_heads (kind, id, seq, deleted, status, key0, key1, key2, rank, due_at, changed_at, max_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted, status = excluded.status,
           key0 = excluded.key0, key1 = excluded.key1, key2 = excluded.key2, rank = excluded.rank, due_at = excluded.due_at,
           changed_at = excluded.changed_at, max_version = excluded.max_version`,
      ).run([r.kind, r.id, seq, r.deletedAt ? 1 : 0, r.status, r.keys[0], r.keys[1], r.keys[2], r.rank, r.dueAt, r.changedAt, maxVersion]);
    } else {
      this.stmt('UPDATE record_heads SET max_version = ? WHERE kind = ? AND id = ?').run([maxVersion, r.kind, r.id]);
    }
    return true;
  }

  get(kind: RecordKind, id: string): StoredRecord | undefined {
    const v = this.first(`SELECT ${COLUMNS} FROM record_heads h JOIN record_versions v ON v.seq = h.seq WHERE h.kind = ? AND h.id = ?`, [
      kind,
      id,
    ]);
    return v && toRecord(v);
  }

  maxVersion(kind: RecordKind, id: string): number {
    return (this.first('SELECT max_version FROM record_heads WHERE kind = ? AND id = ?', [kind, id])?.[0] as number | undefined) ?? 0;
  }

  history(kind: RecordKind, id: string): StoredRecord[] {
    return this.all(`SELECT ${COLUMNS} FROM record_versions v WHERE v.kind = ? AND v.id = ?`, [kind, id])
      .map(toRecord)
      .sort((a, b) => (isNewer(a, b) ? 1 : -1));
  }

  query(q: RecordQuery): StoredRecord[] {
    checkRecordQuery(q);
    const w = where(q);
    return this.once(
      `SELECT ${COLUMNS} FROM record_heads h ${indexFor(q)} JOIN record_versions v ON v.seq = h.seq
       WHERE ${w.sql} ORDER BY h.rank DESC, h.changed_at DESC, h.id DESC LIMIT ?`,
      [...w.params, q.limit],
    ).map(toRecord);
  }

  count(q: Omit<RecordQuery, 'limit' | 'after'>): number {
    checkRecordQuery({ ...q, limit: 1 });
    // Without the named index SQLite scans every head of the kind, or the due index, when the
    // count also filters on columns the key's index lacks (status, due_at): a skill version's
    // 12 outcome counts at 20k episodes took 150–470 ms, against a few ms by the key's index.
    const w = where(q);
    return this.once(`SELECT count(*) FROM record_heads h ${indexFor(q)} WHERE ${w.sql}`, w.params)[0]![0] as number;
  }

  /** Removes every version of these ids and remembers them as purged. Returns the rows removed. */
  purge(kind: RecordKind, ids: readonly string[], at: string): number {
    // As for memories: without secure_delete the text would stay in the snapshot's free pages.
    this.db.exec('PRAGMA secure_delete = ON');
    let removed = 0;
    for (const id of ids) {
      removed += (this.first('SELECT count(*) FROM record_versions WHERE kind = ? AND id = ?', [kind, id])![0] as number) ?? 0;
      this.stmt('DELETE FROM record_versions WHERE kind = ? AND id = ?').run([kind, id]);
      this.stmt('DELETE FROM record_heads WHERE kind = ? AND id = ?').run([kind, id]);
      this.stmt('INSERT OR IGNORE INTO record_purged (kind, id, purged_at) VALUES (?, ?, ?)').run([kind, id, at]);
    }
    return removed;
  }

  /** Every record version in storage order, `batch` rows per query so memory stays flat. */
  *allRecords(batch = 1000): Generator<StoredRecord> {
    let after = 0;
    for (;;) {
      const rows = this.all(`SELECT v.seq, ${COLUMNS} FROM record_versions v WHERE v.seq > ? ORDER BY v.seq LIMIT ?`, [after, batch]);
      if (rows.length === 0) return;
      for (const r of rows) yield toRecord(r.slice(1));
      after = rows[rows.length - 1]![0] as number;
    }
  }
}
