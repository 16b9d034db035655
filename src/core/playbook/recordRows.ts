/**
 * What every tier service shares: who writes and when (strictly increasing per record, as
 * memories), how a version row is built, and paging over `RecordStore.query` with an opaque
 * cursor. No rules of any kind live here.
 */
import { randomUUID } from 'node:crypto';
import type { RecordCursor, RecordKind, RecordQuery, RecordReader, StoredRecord } from '../ports/records';
import type { VersionOp } from '../ports/store';
import { ValidationError } from '../errors';
import { assertNoSecret } from '../secrets';
import { Writer, type WriterOptions } from '../writer';

/** Options every tier service takes, as MemoryService does. */
export type TierServiceOptions = WriterOptions;

/** The author and the clock of a tier service, and how it builds a record's version row. */
export class RecordWriter extends Writer {
  /** A version row of `kind`; `previous` is the record's current version, when there is one. */
  row(
    kind: RecordKind,
    id: string,
    version: number,
    op: VersionOp,
    columns: Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'>,
    data: object,
    previous?: StoredRecord,
  ): StoredRecord {
    return {
      rowId: randomUUID(),
      kind,
      id,
      version,
      op,
      status: columns.status,
      keys: columns.keys,
      rank: columns.rank,
      dueAt: columns.dueAt,
      data: data as Record<string, unknown>,
      changedAt: this.stamp(previous?.changedAt),
      deletedAt: null,
      author: this.author,
      ...this.origin,
    };
  }
}

/** Throws a SecretError for the first text (or list item) that holds a credential. */
export function assertNoSecrets(fields: Record<string, string | readonly string[] | null | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string') assertNoSecret(field, value);
    else value?.forEach((v, i) => assertNoSecret(`${field}[${i}]`, v));
  }
}

export function encodeRecordCursor(r: Pick<StoredRecord, 'rank' | 'changedAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([r.rank, r.changedAt, r.id])).toString('base64url');
}

export function decodeRecordCursor(s: string): RecordCursor {
  try {
    const [rank, changedAt, id] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (typeof rank === 'number' && typeof changedAt === 'string' && typeof id === 'string') return { rank, changedAt, id };
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError('cursor', 'is not a cursor returned by this listing; start without one');
}

/** How many store pages one listing call may read while it skips records `keep` rejects. */
const MAX_SCAN_ROUNDS = 10;

/**
 * One page of current records in the store's order (rank, then recency), skipping those
 * `keep` rejects. The store is asked for `limit + 1` at a time; when many are skipped the
 * scan stops after a few rounds and returns a shorter page with a cursor, so a call stays
 * bounded whatever is stored.
 */
export async function pageOf(
  reader: RecordReader,
  q: Omit<RecordQuery, 'limit' | 'after'>,
  limit: number,
  cursor: string | undefined,
  keep: (r: StoredRecord) => boolean = () => true,
): Promise<{ rows: StoredRecord[]; nextCursor: string | null }> {
  const rows: StoredRecord[] = [];
  let after = cursor === undefined ? undefined : decodeRecordCursor(cursor);
  for (let round = 0; round < MAX_SCAN_ROUNDS; round++) {
    const batch = await reader.query({ ...q, limit: limit + 1, after });
    for (const r of batch) {
      if (!keep(r)) continue;
      if (rows.length === limit) return { rows, nextCursor: encodeRecordCursor(rows[rows.length - 1]!) };
      rows.push(r);
    }
    const last = batch[batch.length - 1];
    if (batch.length <= limit || !last) return { rows, nextCursor: null };
    after = { rank: last.rank, changedAt: last.changedAt, id: last.id };
  }
  return { rows, nextCursor: after ? encodeRecordCursor(after) : null };
}

/** Every current record matching `q`, read page by page, at most `max` (a bound, not a target). */
export async function readAll(
  reader: RecordReader,
  q: Omit<RecordQuery, 'limit' | 'after'>,
  max: number,
  pageSize = 500,
): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  let after: RecordCursor | undefined;
  while (out.length < max) {
    const size = Math.min(pageSize, max - out.length);
    const batch = await reader.query({ ...q, limit: size, after });
    out.push(...batch);
    const last = batch[batch.length - 1];
    if (!last || batch.length < size) break;
    after = { rank: last.rank, changedAt: last.changedAt, id: last.id };
  }
  return out;
}
