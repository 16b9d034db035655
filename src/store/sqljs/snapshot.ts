import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { StorageError } from '../../core/errors';
import type { StoreWarning } from '../../core/ports/store';
import { writeFileAtomic } from './atomicFile';
import { type JournalFile, type JournalPosition, EMPTY_POSITION, stamp } from './journal';
import { COMPLETE_ROWS_SCHEMA, getMeta, migrate, RECORDS_SCHEMA, SCHEMA_VERSION, setMeta, userVersion } from './schema';

/** A database to continue from, and the journal position it already contains. */
export interface Loaded {
  db: Database;
  position: JournalPosition;
}

/**
 * Opens the snapshot if it is readable and still matches the journal; otherwise starts
 * an empty database (the journal is the record; the snapshot is only a cache). A corrupt
 * snapshot is moved aside, never overwritten; a snapshot from a newer release is refused.
 */
export function loadSnapshot(SQL: SqlJsStatic, file: string, journal: JournalFile, warn: (w: StoreWarning) => void): Loaded {
  const fresh = (): Loaded => {
    const db = new SQL.Database();
    migrate(db);
    return { db, position: { ...EMPTY_POSITION, ino: journal.stat().ino } };
  };
  if (!fs.existsSync(file)) return fresh();

  let db: Database | undefined;
  let position: JournalPosition;
  try {
    db = new SQL.Database(fs.readFileSync(file));
    const version = userVersion(db);
    if (version < 1) throw new Error('it has no schema version');
    // A release before schema 3 dropped the citations of the journal lines it replayed, one before
    // 4 their origin: the snapshot is a cache, so it is built again from the journal, which has them.
    if (version < COMPLETE_ROWS_SCHEMA) {
      db.close();
      return fresh();
    }
    migrate(db);
    // A release before schema 2 skipped the journal's record lines (it did not know them) yet
    // saved its position after them: replay the whole journal once (idempotent) to pick them up.
    if (version < RECORDS_SCHEMA) return { db, position: { ...EMPTY_POSITION, ino: journal.stat().ino } };
    position = { ino: 0, ...snapshotPosition(db) };
  } catch (err) {
    db?.close();
    if (err instanceof StorageError) throw err;
    const keptAt = path.join(path.dirname(file), `snapshot.corrupt-${stamp()}.sqlite`);
    fs.renameSync(file, keptAt);
    warn({
      code: 'corrupt-snapshot',
      message: `the snapshot ${file} could not be read (${(err as Error).message}); it was moved aside and the store was rebuilt from the journal`,
      keptAt,
    });
    return fresh();
  }

  const { ino, size } = journal.stat();
  if (!journal.continues(position, size)) {
    // The journal changed underneath the snapshot (rewritten by a purge, lines inserted before
    // its end by a git merge or rebase, replaced by a checkout, deleted): replay all of it over
    // the snapshot. Replay is idempotent, purges in the journal still apply, and rows only the
    // snapshot holds are kept rather than lost.
    warn({
      code: 'stale-snapshot',
      message:
        'the snapshot does not match the journal (it was rewritten, e.g. by a git merge, or replaced); the whole journal was replayed over it',
    });
    return { db, position: { ...EMPTY_POSITION, ino } };
  }
  return { db, position: { ...position, ino } };
}

/**
 * Whether the snapshot was saved by a newer release (its schema, SQLite's user_version, read
 * from the file header at byte 60): such a store is refused, and a write that needs no
 * database must not slip past that. False when there is no snapshot or it is not SQLite.
 */
export function snapshotFromNewerRelease(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const header = Buffer.alloc(64);
    const n = fs.readSync(fd, header, 0, 64, 0);
    return n === 64 && header.toString('latin1', 0, 16) === 'SQLite format 3\0' && header.readUInt32BE(60) > SCHEMA_VERSION;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `db` as the new snapshot: export, temp file, fsync, atomic rename, if
 * `stillCurrent()` agrees at rename time (a journal rewritten meanwhile would make the
 * snapshot describe the old file).
 */
/** The journal position a snapshot was saved at (writeSnapshot records it). */
export function snapshotPosition(db: Database): Pick<JournalPosition, 'offset' | 'tailSha' | 'tailLength'> {
  return {
    offset: Number(getMeta(db, 'journal_offset') ?? 0),
    tailSha: getMeta(db, 'journal_tail_sha') ?? '',
    tailLength: Number(getMeta(db, 'journal_tail_length') ?? 0),
  };
}

export function writeSnapshot(db: Database, file: string, position: JournalPosition, stillCurrent: () => boolean): boolean {
  setMeta(db, 'journal_offset', String(position.offset));
  setMeta(db, 'journal_tail_sha', position.tailSha);
  setMeta(db, 'journal_tail_length', String(position.tailLength));
  setMeta(db, 'written_at', new Date().toISOString());
  return writeFileAtomic(file, db.export(), stillCurrent);
}
