import type { ClientBase } from 'pg';
import { ConflictError, MemoryError, StorageError } from '../../core/errors';
import {
  checkRecordBatch,
  checkRecordQuery,
  type RecordDecision,
  type RecordKind,
  type RecordQuery,
  type RecordReader,
  type RecordStore,
  type StoredRecord,
} from '../../core/ports/records';
import { storageError } from './connection';
import { lockPurges, lockScope } from './locks';
import {
  advanceRecordHeads,
  insertRecords,
  isDeadlock,
  isRecordVersionTaken,
  RECORD_COLUMNS,
  recordFilter,
  type RecordRow,
  toRecord,
} from './recordRows';
import { type PgSession, runQuery, runTransaction } from './session';
import { WRITE_ATTEMPTS } from './versionRows';

/** Rows per statement when importing and exporting, so neither holds a whole table in memory. */
const BATCH = 1000;
/** The version columns prefixed for a join with the heads. */
const V_COLUMNS = RECORD_COLUMNS.split(', ')
  .map((c) => `v.${c}`)
  .join(', ');

/**
 * Reads records through one connection or the pool: the store's reads use the pool, a write's
 * decision reads through its own transaction (so it sees its lock's freshest state).
 */
class PgRecordReader implements RecordReader {
  /** Queries on one connection run one at a time (a decision may start several at once: Promise.all). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    protected readonly s: PgSession,
    private readonly on: () => ClientBase | PgSession['pool'],
    private readonly oneConnection = false,
  ) {}

  protected rows<R extends object>(doing: string, text: string, values: unknown[]): Promise<R[]> {
    const run = async () => {
      if (this.s.isClosed()) throw new StorageError('the store is closed');
      try {
        return (await this.on().query<R>(text, values)).rows;
      } catch (err) {
        throw storageError(this.s.target, err, doing);
      }
    };
    if (!this.oneConnection) return run();
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(kind: RecordKind, id: string): Promise<StoredRecord | undefined> {
    const rows = await this.rows<RecordRow>(
      'reading a record',
      `SELECT ${V_COLUMNS} FROM record_heads h JOIN record_versions v ON v.seq = h.seq AND v.project = h.project
       WHERE h.project = $1 AND h.kind = $2 AND h.id = $3`,
      [this.s.project, kind, id],
    );
    return rows[0] && toRecord(rows[0]);
  }

  async maxVersion(kind: RecordKind, id: string): Promise<number> {
    const rows = await this.rows<{ max_version: number }>(
      'reading a record',
      'SELECT max_version FROM record_heads WHERE project = $1 AND kind = $2 AND id = $3',
      [this.s.project, kind, id],
    );
    return rows[0]?.max_version ?? 0;
  }

  async query(q: RecordQuery): Promise<StoredRecord[]> {
    checkRecordQuery(q);
    const { where, values } = recordFilter(this.s.project, q);
    const rows = await this.rows<RecordRow>(
      'querying records',
      `SELECT ${V_COLUMNS} FROM record_heads h JOIN record_versions v ON v.seq = h.seq AND v.project = h.project
       WHERE ${where} ORDER BY h.rank DESC, h.changed_at DESC, h.id DESC LIMIT $${values.length + 1}`,
      [...values, q.limit],
    );
    return rows.map(toRecord);
  }
}

/**
 * `Store.records` on PostgreSQL: the tables of schema version 4 (schema.ts), rows and heads as
 * in recordRows.ts. A write holds a per-scope advisory lock for its transaction and decides
 * through that transaction's connection. See docs/ARCHITECTURE.md, "Records on PostgreSQL".
 */
export class PgRecords extends PgRecordReader implements RecordStore {
  constructor(s: PgSession) {
    super(s, () => s.pool);
  }

  async history(kind: RecordKind, id: string): Promise<StoredRecord[]> {
    const rows = await this.rows<RecordRow>(
      'reading a record history',
      `SELECT ${RECORD_COLUMNS} FROM record_versions WHERE project = $1 AND kind = $2 AND id = $3 ORDER BY changed_at, version, row_id`,
      [this.s.project, kind, id],
    );
    return rows.map(toRecord);
  }

  async count(q: Omit<RecordQuery, 'limit' | 'after'>): Promise<number> {
    checkRecordQuery({ ...q, limit: 1 });
    const { where, values } = recordFilter(this.s.project, { ...q, after: undefined });
    const rows = await this.rows<{ n: number }>('counting records', `SELECT count(*)::int AS n FROM record_heads h WHERE ${where}`, values);
    return rows[0]!.n;
  }

  /**
   * The decision runs inside the transaction, holding the project's purge lock (shared) and
   * the scope's lock: it must not purge, import or write records through the store itself,
   * which would wait for this write to end.
   */
  async write(scope: string, decide: RecordDecision): Promise<StoredRecord[]> {
    for (let attempt = 1; ; attempt++) {
      let decided = false;
      try {
        return await runTransaction(this.s, 'writing records', async (client) => {
          // Shared: no purge of this project runs between our read and our commit (it would
          // delete the head under us, and our row would bring the purged id back).
          await lockPurges(client, this.s.project, 'shared');
          await lockScope(client, this.s.project, scope);
          let open = true;
          const reader = new PgRecordReader(
            this.s,
            () => {
              if (!open) throw new StorageError('a write decision read through its reader after the write ended');
              return client;
            },
            true,
          );
          let rows: StoredRecord[];
          try {
            rows = await decide(reader);
          } catch (err) {
            decided = true;
            throw err;
          } finally {
            open = false;
          }
          checkRecordBatch(rows);
          const inserted = await insertRecords(client, this.s.project, rows);
          if (inserted.length < rows.length) throw notInserted(rows, inserted, await this.purgedAmong(client, rows));
          await advanceRecordHeads(client, this.s.project, inserted);
          return inserted.map(({ seq: _seq, ...stored }) => stored);
        });
      } catch (err) {
        // Another transaction (an import, or a writer of another scope) numbered a version of
        // one of our ids first: decide again against what is now current.
        const raced = isRecordVersionTaken(err) || isDeadlock(err);
        if (raced && attempt < WRITE_ATTEMPTS) continue;
        if (raced)
          throw new ConflictError(`records of scope ${scope}: their next version numbers kept being taken by other writers; try again`);
        if (decided || err instanceof MemoryError) throw err;
        throw storageError(this.s.target, err, 'writing records');
      }
    }
  }

  /** The rows of `rows` whose (kind, id) was purged. */
  private async purgedAmong(client: ClientBase, rows: StoredRecord[]): Promise<Set<string>> {
    const { rows: found } = await client.query<{ kind: string; id: string }>(
      'SELECT kind, id FROM record_purged WHERE project = $1 AND (kind, id) IN (SELECT * FROM unnest($2::text[], $3::text[]))',
      [this.s.project, rows.map((r) => r.kind), rows.map((r) => r.id)],
    );
    return new Set(found.map((r) => `${r.kind} ${r.id}`));
  }

  async purge(kind: RecordKind, ids: readonly string[], author: string): Promise<number> {
    if (ids.length === 0) return 0;
    try {
      return await runTransaction(this.s, 'purging records', async (client) => {
        // Exclusive: waits for the writes and imports of the project in flight, keeps new ones out.
        await lockPurges(client, this.s.project, 'exclusive');
        const { rows } = await client.query<{ n: number }>(
          `WITH gone AS (
             DELETE FROM record_versions WHERE project = $1 AND kind = $2 AND id = ANY ($3::text[]) RETURNING id
           ), heads AS (
             DELETE FROM record_heads WHERE project = $1 AND kind = $2 AND id = ANY ($3::text[])
           ), tombstones AS (
             INSERT INTO record_purged (project, kind, id, purged_at, purged_by)
             SELECT DISTINCT $1, $2, id, now(), $4 FROM gone ON CONFLICT DO NOTHING
           )
           SELECT count(*)::int AS n FROM gone`,
          [this.s.project, kind, [...new Set(ids)], author],
        );
        return rows[0]!.n;
      });
    } catch (err) {
      throw storageError(this.s.target, err, 'purging records');
    }
  }

  async importRecords(rows: StoredRecord[]): Promise<{ added: number; skipped: number }> {
    const seen = new Set<string>();
    const unique = rows.filter((r) => !seen.has(r.rowId) && (seen.add(r.rowId), true));
    for (let attempt = 1; ; attempt++) {
      try {
        // One transaction: a failed import leaves nothing behind.
        const added = await runTransaction(this.s, 'importing records', async (client) => {
          await lockPurges(client, this.s.project, 'shared');
          let n = 0;
          for (let i = 0; i < unique.length; i += BATCH) {
            const inserted = await insertRecords(client, this.s.project, unique.slice(i, i + BATCH), true);
            await advanceRecordHeads(client, this.s.project, inserted);
            n += inserted.length;
          }
          return n;
        });
        return { added, skipped: rows.length - added };
      } catch (err) {
        // A writer or another import committed the same number between our check and our
        // insert: run again, and the row now goes in as a twin.
        const raced = isRecordVersionTaken(err) || isDeadlock(err);
        if (raced && attempt < WRITE_ATTEMPTS) continue;
        if (raced)
          throw new ConflictError(
            'the import kept colliding with concurrent writers on record version numbers; nothing was imported; try again',
          );
        throw storageError(this.s.target, err, 'importing records');
      }
    }
  }

  async *exportRecords(): AsyncIterable<StoredRecord> {
    let after = '0';
    for (;;) {
      const rows = await runQuery<RecordRow & { seq: string }>(
        this.s,
        'exporting records',
        `SELECT seq, ${RECORD_COLUMNS} FROM record_versions WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [this.s.project, after, BATCH],
      );
      for (const r of rows) yield toRecord(r);
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.seq;
    }
  }
}

/** Why a write stored fewer rows than it was given (it is rolled back): a purged id, or a rowId stored before. */
function notInserted(rows: StoredRecord[], inserted: StoredRecord[], purged: Set<string>): StorageError {
  const stored = new Set(inserted.map((r) => r.rowId));
  const missing = rows.find((r) => !stored.has(r.rowId))!;
  return purged.has(`${missing.kind} ${missing.id}`)
    ? new StorageError(`${missing.kind} ${missing.id} was purged; it cannot be written again`)
    : new StorageError(`record row ${missing.rowId} (${missing.kind} ${missing.id}) is already stored; a write appends new rows only`);
}
