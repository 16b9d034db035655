import type { Database, SqlValue } from 'sql.js';
import type { StoredCitation } from '../../core/contract/citations';
import type { ListCursor, ListedMemory, StoredVersion } from '../../core/ports/store';
import { isNewer } from '../../core/ports/versionOrder';
import { originText, parseOrigin } from '../../core/ports/origin';
import type { JournalEntry } from './entries';
import { RecordTable } from './recordTable';
import { Statements } from './statements';

const COLUMNS = 'row_id, id, version, op, description, tags, content, changed_at, deleted_at, author, restored_from, citations, origin';

function toRow(v: SqlValue[]): StoredVersion {
  return {
    rowId: v[0] as string,
    id: v[1] as string,
    version: v[2] as number,
    op: v[3] as StoredVersion['op'],
    description: v[4] as string,
    tags: JSON.parse(v[5] as string) as string[],
    content: v[6] as string,
    changedAt: v[7] as string,
    deletedAt: (v[8] as string | null) ?? null,
    author: v[9] as string,
    restoredFrom: (v[10] as number | null) ?? null,
    ...(v[11] ? { citations: JSON.parse(v[11] as string) as StoredCitation[] } : {}),
    ...parseOrigin(v[12] as string | null),
  };
}

/**
 * Connection settings for a database that only this process ever sees (sql.js keeps it in
 * memory; the journal is what makes writes durable). In sql.js every file operation is a
 * JavaScript call, and in the default locking mode SQLite does several of them for every
 * statement (lock, hot-journal check, change-counter read): an indexed lookup cost about
 * 100 µs. Holding the lock (EXCLUSIVE) and keeping the rollback journal in memory cut that
 * about tenfold; ROLLBACK works as before. sql.js (1.17+) keeps both across export().
 */
const CONNECTION_PRAGMAS = 'PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY;';

/**
 * SQL over the memory version tables of one sql.js database (statements.ts prepares them).
 */
export class VersionTable extends Statements {
  /** The records of the other tiers, in the same database (recordTable.ts). */
  readonly records: RecordTable;

  constructor(db: Database) {
    super(db);
    db.exec(CONNECTION_PRAGMAS);
    this.records = new RecordTable(db);
  }

  override invalidate(): void {
    super.invalidate();
    this.records.invalidate();
  }

  hasRow(rowId: string): boolean {
    return this.first('SELECT 1 FROM memory_versions WHERE row_id = ?', [rowId]) !== undefined;
  }

  isPurged(id: string): boolean {
    return this.first('SELECT 1 FROM purged WHERE id = ?', [id]) !== undefined;
  }

  /**
   * Inserts a version unless its rowId is stored or its id was purged, and moves the
   * current pointer when it is the newest. Returns whether anything changed.
   */
  insert(row: StoredVersion): { inserted: boolean; becameCurrent: boolean } {
    if (this.isPurged(row.id)) return { inserted: false, becameCurrent: false };
    if (this.hasRow(row.rowId)) return { inserted: false, becameCurrent: false };
    this.stmt(`INSERT INTO memory_versions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run([
      row.rowId,
      row.id,
      row.version,
      row.op,
      row.description,
      JSON.stringify(row.tags),
      row.content,
      row.changedAt,
      row.deletedAt,
      row.author,
      row.restoredFrom ?? null,
      row.citations?.length ? JSON.stringify(row.citations) : null,
      originText(row),
    ]);
    const seq = this.first('SELECT last_insert_rowid()', [])![0] as number;
    // The newest version so far: only what the ordering needs, not the whole row.
    const head = this.first('SELECT seq, max_version FROM memories_current WHERE id = ?', [row.id]);
    let becameCurrent = true;
    let maxVersion = row.version;
    if (head) {
      maxVersion = Math.max(row.version, head[1] as number);
      const cur = this.first('SELECT changed_at, version, row_id FROM memory_versions WHERE seq = ?', [head[0]!]);
      becameCurrent = !cur || isNewer(row, { changedAt: cur[0] as string, version: cur[1] as number, rowId: cur[2] as string });
    }
    if (becameCurrent) {
      this.stmt(
        `INSERT INTO memories_current (id, seq, changed_at, deleted, max_version) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, changed_at = excluded.changed_at,
           deleted = excluded.deleted, max_version = excluded.max_version`,
      ).run([row.id, seq, row.changedAt, row.deletedAt ? 1 : 0, maxVersion]);
    } else {
      this.stmt('UPDATE memories_current SET max_version = ? WHERE id = ?').run([maxVersion, row.id]);
    }
    return { inserted: true, becameCurrent };
  }

  current(id: string): StoredVersion | undefined {
    // Two primary-key lookups: in sql.js this costs about half of the equivalent join.
    const seq = this.first('SELECT seq FROM memories_current WHERE id = ?', [id])?.[0];
    if (seq === undefined) return undefined;
    const v = this.first(`SELECT ${COLUMNS} FROM memory_versions WHERE seq = ?`, [seq]);
    return v && toRow(v);
  }

  maxVersion(id: string): number {
    return (this.first('SELECT max_version FROM memories_current WHERE id = ?', [id])?.[0] as number | undefined) ?? 0;
  }

  version(id: string, version: number): StoredVersion | undefined {
    // After a merge two rows may share a version number; the newer one answers.
    const rows = this.all(`SELECT ${COLUMNS} FROM memory_versions WHERE id = ? AND version = ?`, [id, version]).map(toRow);
    return rows.reduce<StoredVersion | undefined>((best, r) => (!best || isNewer(r, best) ? r : best), undefined);
  }

  history(id: string): StoredVersion[] {
    return this.all(`SELECT ${COLUMNS} FROM memory_versions WHERE id = ?`, [id])
      .map(toRow)
      .sort((a, b) => (isNewer(a, b) ? 1 : -1));
  }

  list(deleted: boolean, limit: number, after?: ListCursor): ListedMemory[] {
    const where = after ? 'AND (c.changed_at < ? OR (c.changed_at = ? AND c.id < ?))' : '';
    const params: SqlValue[] = [deleted ? 1 : 0, ...(after ? [after.changedAt, after.changedAt, after.id] : []), limit];
    return this.all(
      `SELECT v.id, v.description, v.tags, v.changed_at, v.deleted_at FROM memories_current c
       JOIN memory_versions v ON v.seq = c.seq
       WHERE c.deleted = ? ${where} ORDER BY c.changed_at DESC, c.id DESC LIMIT ?`,
      params,
    ).map((v) => ({
      id: v[0] as string,
      description: v[1] as string,
      tags: JSON.parse(v[2] as string) as string[],
      changedAt: v[3] as string,
      deletedAt: (v[4] as string | null) ?? null,
    }));
  }

  /** The current version of every id (deleted ones too) and its data: what a CurrentView is built from (the content for its search terms). */
  *currentAll(): Generator<StoredVersion> {
    const s = this.db.prepare(
      `SELECT v.row_id, v.id, v.version, v.op, v.description, v.tags, CASE WHEN v.deleted_at IS NULL THEN v.content ELSE '' END, v.changed_at, v.deleted_at, v.author, v.restored_from, v.citations
       FROM memories_current c JOIN memory_versions v ON v.seq = c.seq`,
    );
    try {
      while (s.step()) yield toRow(s.get());
    } finally {
      s.free();
    }
  }

  /** Ids purged from this database. */
  purgedIds(): string[] {
    return this.all('SELECT id FROM purged', []).map((r) => r[0] as string);
  }

  /** Every version in storage order, `batch` rows per query so memory stays flat. */
  *allVersions(batch = 1000): Generator<StoredVersion> {
    let after = 0;
    for (;;) {
      const rows = this.all(`SELECT seq, ${COLUMNS} FROM memory_versions WHERE seq > ? ORDER BY seq LIMIT ?`, [after, batch]);
      if (rows.length === 0) return;
      for (const r of rows) yield toRow(r.slice(1));
      after = rows[rows.length - 1]![0] as number;
    }
  }

  /** Removes every version of `id` and remembers it as purged. Returns the rows removed. */
  purge(id: string, at: string): number {
    const n = (this.first('SELECT count(*) FROM memory_versions WHERE id = ?', [id])?.[0] as number) ?? 0;
    // Without this SQLite leaves the deleted text in free pages, and the snapshot would keep
    // the secret. It stays on for the session (purges are rare; deletes only get slower).
    this.db.exec('PRAGMA secure_delete = ON');
    this.stmt('DELETE FROM memory_versions WHERE id = ?').run([id]);
    this.stmt('DELETE FROM memories_current WHERE id = ?').run([id]);
    this.stmt('INSERT OR IGNORE INTO purged (id, purged_at) VALUES (?, ?)').run([id, at]);
    return n;
  }

  countVersions(): number {
    return this.first('SELECT count(*) FROM memory_versions', [])![0] as number;
  }

  /** Applies one journal entry (replay is idempotent by rowId). Records live in the database only. */
  applyEntry(entry: JournalEntry): void {
    switch (entry.type) {
      case 'memory.purge':
        this.purge(entry.id, entry.at);
        break;
      case 'memory.version':
        this.insert(entry.row);
        break;
      case 'records':
        for (const r of entry.rows) this.records.insert(r);
        break;
      case 'records.purge':
        this.records.purge(entry.kind, entry.ids, entry.at);
        break;
    }
  }
}
