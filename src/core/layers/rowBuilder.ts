import { randomUUID } from 'node:crypto';
import type { RecordCursor, RecordKind, StoredRecord } from '../../store/records';
import type { VersionOp } from '../../store/store';
import { ValidationError } from '../errors';

/** Columns a kind fills from its data (kinds.ts `*Columns`). */
export type Columns = Pick<StoredRecord, 'status' | 'keys' | 'rank' | 'dueAt'>;

/** A changedAt later than `previous` even when the clock has not moved (or went back). */
export function nextTimestamp(now: Date, previous?: string): string {
  const floor = previous ? Date.parse(previous) + 1 : 0;
  return new Date(Math.max(now.getTime(), floor)).toISOString();
}

/** One new version row of a record; `previous` is the current version it follows, if any. */
export function recordRow(args: {
  kind: RecordKind;
  id: string;
  version: number;
  op: VersionOp;
  columns: Columns;
  data: object;
  author: string;
  now: Date;
  previous?: StoredRecord;
  deleted?: boolean;
}): StoredRecord {
  const changedAt = nextTimestamp(args.now, args.previous?.changedAt);
  return {
    rowId: randomUUID(), kind: args.kind, id: args.id, version: args.version, op: args.op,
    ...args.columns, keys: [...args.columns.keys], data: args.data as Record<string, unknown>,
    changedAt, deletedAt: args.deleted ? changedAt : null, author: args.author,
  };
}

/** An author option as MemoryService takes it: a name, or a function called once at the first write. */
export function authorOf(option: string | (() => string)): () => string {
  let cached: string | undefined;
  return () => (cached ??= typeof option === 'function' ? option() : option);
}

export function encodeRecordCursor(c: RecordCursor): string {
  return Buffer.from(JSON.stringify([c.rank, c.changedAt, c.id])).toString('base64url');
}

export function decodeRecordCursor(s: string, what = 'list'): RecordCursor {
  try {
    const [rank, changedAt, id] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (typeof rank === 'number' && typeof changedAt === 'string' && typeof id === 'string') return { rank, changedAt, id };
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError('cursor', `is not a cursor returned by ${what}; start without one`);
}
