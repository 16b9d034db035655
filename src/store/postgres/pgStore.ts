import type { Pool, PoolClient } from 'pg';
import { MemoryError, StorageError } from '../../core/errors';
import type { SearchQuery } from '../../core/search/query';
import type { RecordStore } from '../../core/ports/records';
import type { StoredCitation } from '../../core/contract/citations';
import type {
  ListCursor,
  ListedMemory,
  Store,
  StoredHit,
  StoredVersion,
  StoreWarning,
  WriteDecision,
  WriteOptions,
} from '../../core/ports/store';
import { createPool, describeTarget, parseTarget, type PgConnectionOptions, type PgTarget, storageError } from './connection';
import { LocalIndex, type LocalIndexMode } from './localIndex';
import { PgRecords } from './pgRecords';
import { migrate } from './schema';
import { grantMember, type GrantResult } from './roles';
import { SEARCH_TRANSACTION, searchOnServer } from './serverSearch';
import { keptCommonTerms, readCommonTerms, similarOnServer } from './serverSimilar';
import { type PgSession, runQuery, runTransaction } from './session';
import { toVersion, VERSION_COLUMNS, type VersionRecord } from './versionRows';
import { purgeMemory, readHead, writeMemory } from './writeVersion';
import { reanalyzeIfNeeded } from './reanalyze';
import { loadIntoEmpty } from './bulkLoad';
import { importRows } from './importRows';

export interface PgStoreOptions extends PgConnectionOptions {
  /** Keeps this repository's memories apart from others' in the same database. */
  project: string;
  onWarning?: (w: StoreWarning) => void;
  /** Where searches are ranked (localIndex.ts); default `background`. */
  localIndex?: LocalIndexMode;
  /** Above this many live memories searches stay on the server; default 200 000. */
  maxLocalIndex?: number;
}

/** Rows per page of an export, so it never holds a whole table in memory. */
const BATCH = 1000;

/**
 * The team store: PostgreSQL, reached through a pool. Versions are append-only rows;
 * `memory_heads` holds the current version of each id (moved forward by the statement that
 * inserts a version) with its analysed search terms; every statement is filtered by project.
 * A write stores what `decide` returned only if the head it was decided on is still current
 * (writeVersion.ts), else it decides again holding the head's row lock. Searches are ranked in a local index when it is loaded
 * (localIndex.ts), else on the server (serverSearch.ts). `records`, the other tiers' records,
 * live in tables of their own (pgRecords.ts). See docs/ARCHITECTURE.md.
 */
export class PgStore implements Store {
  readonly location: string;
  /** The connection's role (`current_user`), read when the store opens: what the database records on every row it inserts. */
  dbRole: string | null = null;
  private readonly warningList: StoreWarning[] = [];
  private closed = false;
  /** The statistics likely-duplicate checks choose their probes on, read at most once a minute (serverSimilar.ts). */
  private readonly commonTerms = keptCommonTerms(() => readCommonTerms(this.pool, this.project));
  private readonly local: LocalIndex;
  private readonly session: PgSession;
  readonly records: RecordStore;

  private constructor(
    private readonly pool: Pool,
    private readonly target: PgTarget,
    private readonly project: string,
    private readonly options: PgStoreOptions,
  ) {
    this.location = `${describeTarget(target)} (project ${project})`;
    this.session = { pool, target, project, isClosed: () => this.closed };
    this.records = new PgRecords(this.session);
    this.local = new LocalIndex(pool, project, options.localIndex ?? 'background', options.maxLocalIndex ?? 200_000, (err) =>
      this.warn({
        code: 'local-index',
        message: `the local search index could not be loaded (${(err as Error).message}); the server answers searches`,
      }),
    );
  }

  /** Connects, creates or migrates the schema (once, under an advisory lock) and checks the server. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const target = parseTarget(options.connectionString);
    const project = options.project.trim();
    if (!project || project.length > 200) throw new StorageError('the project key must be 1–200 characters');
    let store: PgStore | undefined;
    const pool = createPool(options, (err) =>
      store?.warn({ code: 'lock', message: `an idle PostgreSQL connection failed: ${err.message}` }),
    );
    store = new PgStore(pool, target, project, options);
    try {
      const client = await pool.connect();
      try {
        await migrate(client, reanalyzeIfNeeded);
        store.dbRole = (await client.query<{ role: string }>('SELECT current_user AS role')).rows[0]!.role;
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw storageError(target, err, 'preparing the schema');
    }
    return store;
  }

  /**
   * Sets a teammate's database role up as a member (roles.ts): reads, writes and proposes; decides
   * proposals only as an approver; never updates or deletes history. Run as the tables' owner.
   */
  async grantMember(role: string, approver: boolean): Promise<GrantResult> {
    try {
      return await this.transaction('granting a role', (client) => grantMember(client, role, approver));
    } catch (err) {
      if (err instanceof MemoryError) throw err;
      throw storageError(this.target, err, `setting up role ${role}`);
    }
  }

  private warn(w: StoreWarning): void {
    this.warningList.push(w);
    this.options.onWarning?.(w);
  }

  private query<R extends object>(doing: string, text: string, values: unknown[]): Promise<R[]> {
    return runQuery<R>(this.session, doing, text, values);
  }

  private transaction<T>(doing: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return runTransaction(this.session, doing, fn);
  }

  async current(id: string): Promise<StoredVersion | undefined> {
    if (this.closed) throw new StorageError('the store is closed');
    try {
      return (await readHead(this.pool, this.project, id))?.row;
    } catch (err) {
      throw storageError(this.target, err, 'reading a memory');
    }
  }

  async version(id: string, version: number): Promise<StoredVersion | undefined> {
    // After a merged journal was imported two rows may share a number (twins); the newer one
    // answers, as in the workspace store (versionOrder.ts).
    const rows = await this.query<VersionRecord>(
      'reading a version',
      `SELECT ${VERSION_COLUMNS} FROM memory_versions WHERE project = $1 AND id = $2 AND version = $3 ORDER BY changed_at DESC, row_id DESC LIMIT 1`,
      [this.project, id, version],
    );
    return rows[0] && toVersion(rows[0]);
  }

  async history(id: string): Promise<StoredVersion[]> {
    const rows = await this.query<VersionRecord>(
      'reading a history',
      `SELECT ${VERSION_COLUMNS} FROM memory_versions WHERE project = $1 AND id = $2 ORDER BY changed_at, version, row_id`,
      [this.project, id],
    );
    return rows.map(toVersion);
  }

  async list(options: { deleted: boolean; limit: number; after?: ListCursor }): Promise<ListedMemory[]> {
    const after = options.after;
    const rows = await this.query<{ id: string; description: string; tags: string[]; changed_at: Date; deleted_at: Date | null }>(
      'listing memories',
      `SELECT id, description, tags, changed_at, deleted_at FROM memory_heads
       WHERE project = $1 AND deleted = $2 ${after ? 'AND (changed_at, id) < ($4::timestamptz, $5::text)' : ''}
       ORDER BY changed_at DESC, id DESC LIMIT $3`,
      after ? [this.project, options.deleted, options.limit, after.changedAt, after.id] : [this.project, options.deleted, options.limit],
    );
    return rows.map((r) => ({
      id: r.id,
      description: r.description,
      tags: r.tags,
      changedAt: r.changed_at.toISOString(),
      deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
    }));
  }

  async search(query: SearchQuery): Promise<StoredHit[]> {
    if (this.closed) throw new StorageError('the store is closed');
    try {
      const hits = await this.local.search(query);
      if (hits) return hits;
    } catch (err) {
      throw storageError(this.target, err, 'searching');
    }
    try {
      return await runTransaction(this.session, 'searching', (client) => searchOnServer(client, this.project, query), SEARCH_TRANSACTION);
    } catch (err) {
      throw storageError(this.target, err, 'searching');
    }
  }

  /**
   * From the local index when it is loaded, else on the server in one statement (serverSimilar.ts:
   * only the memories its probe reaches are read), its probe chosen on statistics this store
   * reads at most once a minute (they decide how many rows are read, never which are found).
   */
  async similar(terms: ReadonlySet<string>, min: number, limit: number): Promise<Array<StoredHit & { similarity: number }>> {
    if (this.closed) throw new StorageError('the store is closed');
    try {
      const local = await this.local.similar(terms, min, limit);
      if (local) return local;
      return await similarOnServer(this.pool, this.project, terms, min, limit, await this.commonTerms());
    } catch (err) {
      throw storageError(this.target, err, 'finding similar memories');
    }
  }

  async citationsOf(ids: readonly string[]): Promise<Map<string, StoredCitation[]>> {
    if (ids.length === 0) return new Map();
    const rows = await this.query<{ id: string; citations: StoredCitation[] }>(
      'reading citations',
      `SELECT h.id, v.citations FROM memory_heads h JOIN memory_versions v ON v.seq = h.seq
       WHERE h.project = $1 AND h.id = ANY ($2::text[]) AND h.deleted_at IS NULL AND v.citations IS NOT NULL`,
      [this.project, ids],
    );
    return new Map(rows.map((r) => [r.id, r.citations]));
  }

  async tagCounts(): Promise<Array<{ tag: string; count: number }>> {
    const rows = await this.query<{ tag: string; count: number }>(
      'counting tags',
      'SELECT tag, count(*)::int AS count FROM memory_head_tags WHERE project = $1 GROUP BY tag',
      [this.project],
    );
    // Sorted here as SearchIndex.tagCounts sorts (localeCompare), so both stores agree.
    return rows.sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  }

  /** See writeVersion.ts, `writeMemory`: one statement after the head's read when nothing races it. */
  async write(id: string, decide: WriteDecision, options: WriteOptions = {}): Promise<StoredVersion | null> {
    return writeMemory(this.session, id, decide, options.newId === true, (w) => this.warn(w));
  }

  /** See importRows.ts. */
  importVersions(rows: StoredVersion[]): Promise<{ added: number; skipped: number }> {
    return importRows(this.session, rows);
  }

  /** See bulkLoad.ts: the store's tables hold no memory, and this role owns them. */
  async loadIntoEmpty(batches: AsyncIterable<StoredVersion[]>): Promise<{ added: number; skipped: number } | undefined> {
    try {
      return await this.transaction('loading versions into an empty database', (client) => loadIntoEmpty(client, this.project, batches));
    } catch (err) {
      // A refusal of a row (the rows are checked as they are read) is the caller's own.
      if (err instanceof MemoryError) throw err;
      throw storageError(this.target, err, 'loading versions into an empty database');
    }
  }

  async *exportVersions(): AsyncIterable<StoredVersion> {
    let after = '0';
    for (;;) {
      const rows = await this.query<VersionRecord & { seq: string }>(
        'exporting versions',
        `SELECT seq, ${VERSION_COLUMNS} FROM memory_versions WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [this.project, after, BATCH],
      );
      for (const r of rows) yield toVersion(r);
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1]!.seq;
    }
  }

  async purge(id: string, author: string): Promise<number> {
    try {
      return await this.transaction('purging a memory', (client) => purgeMemory(client, this.project, id, author));
    } catch (err) {
      throw storageError(this.target, err, 'purging a memory');
    }
  }

  warnings(): StoreWarning[] {
    return [...this.warningList];
  }

  /** Memories in the local search index, undefined while there is none (for benchmarks and tests). */
  get localIndexSize(): number | undefined {
    return this.local.size;
  }

  /** Number of version rows of this project (for benchmarks and tests). */
  async countVersions(): Promise<number> {
    const rows = await this.query<{ n: number }>('counting versions', 'SELECT count(*)::int AS n FROM memory_versions WHERE project = $1', [
      this.project,
    ]);
    return rows[0]!.n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.local.stop();
    await this.pool.end();
  }
}
