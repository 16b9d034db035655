import type { ClientBase } from 'pg';
import { analyzeMemory, flatTerms } from '../../core/search/analysis';
import type { StoredCitation } from '../../core/contract/citations';
import type { StoredVersion } from '../../core/ports/store';
import { newestByKey } from '../../core/ports/versionOrder';
import { originOf, type Channel } from '../../core/ports/origin';

/** The columns a client writes (db_role is the database's own: a trigger sets it, schema 7). */
const WRITTEN_COLUMNS =
  'row_id, id, version, op, description, tags, content, changed_at, deleted_at, author, restored_from, citations, channel, proposed_by';
/** The columns of a version row, in the order `toVersion` reads them. */
export const VERSION_COLUMNS = `${WRITTEN_COLUMNS}, db_role`;

export interface VersionRecord {
  row_id: string;
  id: string;
  version: number;
  op: StoredVersion['op'];
  description: string;
  tags: string[];
  content: string;
  changed_at: Date;
  deleted_at: Date | null;
  author: string;
  restored_from: number | null;
  citations: StoredCitation[] | null;
  channel: string | null;
  proposed_by: string | null;
  db_role: string | null;
}

export function toVersion(r: VersionRecord): StoredVersion {
  return {
    rowId: r.row_id,
    id: r.id,
    version: r.version,
    op: r.op,
    description: r.description,
    tags: r.tags,
    content: r.content,
    changedAt: r.changed_at.toISOString(),
    deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
    author: r.author,
    restoredFrom: r.restored_from ?? null,
    ...(r.citations?.length ? { citations: r.citations } : {}),
    ...originOf({ channel: r.channel as Channel | null, proposedBy: r.proposed_by, dbRole: r.db_role }),
  };
}

/** Thrown by `insertVersions` when a row's version number is taken by another row of its id. */
export const UNIQUE_VIOLATION = '23505';
/** The unique index on (project, id, version) over every row but twins (schema version 2). */
export const VERSION_CONSTRAINT = 'memory_versions_number';

/**
 * The rows of `rows` as `versionInsert` reads them, the twins of the batch marked (twinFlags).
 */
export function versionPayload(rows: readonly StoredVersion[], twins: boolean): object[] {
  const twin = twinFlags(rows, (r) => r.id, twins);
  return rows.map((r, ord) => {
    return {
      ord,
      row_id: r.rowId,
      id: r.id,
      version: r.version,
      op: r.op,
      description: r.description,
      tags: r.tags,
      content: r.content,
      changed_at: r.changedAt,
      deleted_at: r.deletedAt,
      author: r.author,
      restored_from: r.restoredFrom ?? null,
      citations: r.citations?.length ? r.citations : null,
      channel: r.channel ?? null,
      proposed_by: r.proposedBy ?? null,
      twin: twin[ord],
    };
  });
}

/**
 * For an import (`twins`), which rows of a batch are twins: those whose number an earlier row of
 * the batch holds for the same key (`keyOf`: the id, or a record's kind and id). The statement's
 * own rows are not visible to its EXISTS check; stored rows are. All false for a write.
 */
export function twinFlags<R extends { version: number }>(rows: readonly R[], keyOf: (r: R) => string, twins: boolean): boolean[] {
  const numbered = new Set<string>();
  return rows.map((r) => {
    const k = `${keyOf(r)}\u0000${r.version}`;
    const twin = twins && numbered.has(k);
    numbered.add(k);
    return twin;
  });
}

/**
 * The INSERT of the version rows of the jsonb parameter `payload` (versionPayload) as `n`, for
 * project $1, of those whose id was not purged and for which `condition` holds; `twins` is a
 * boolean parameter or literal (insertVersions). The caller adds ORDER BY, ON CONFLICT, RETURNING.
 */
export function versionInsert(payload: string, twins: string, condition = 'true'): string {
  return `INSERT INTO memory_versions (project, ${WRITTEN_COLUMNS}, twin)
     SELECT $1, n.row_id, n.id, n.version, n.op, n.description, n.tags, n.content, n.changed_at, n.deleted_at, n.author, n.restored_from,
       n.citations, n.channel, n.proposed_by,
       n.twin OR (${twins} AND EXISTS (SELECT 1 FROM memory_versions v WHERE v.project = $1 AND v.id = n.id AND v.version = n.version AND v.row_id <> n.row_id))
     FROM jsonb_to_recordset(${payload}::jsonb) AS n(ord int, row_id text, id text, version int, op text, description text, tags text[],
       content text, changed_at timestamptz, deleted_at timestamptz, author text, restored_from int, citations jsonb, channel text,
       proposed_by text, twin boolean)
     WHERE NOT EXISTS (SELECT 1 FROM memory_purged p WHERE p.project = $1 AND p.id = n.id) AND ${condition}`;
}

/**
 * Inserts version rows (in the given order) that are not stored yet by rowId and whose id
 * was not purged; returns the inserted rows with their seq. A row whose (id, version) is
 * taken by another row fails the statement (the UNIQUE backstop), and with it the transaction,
 * unless `twins` is set (imports): such a row then goes in as a twin, kept with its number,
 * as a journal merged from two clones holds it. Writes (writeVersion.ts) never insert twins,
 * so a writer that lost the race for a number still hits the backstop and decides again.
 */
export async function insertVersions(
  client: ClientBase,
  project: string,
  rows: StoredVersion[],
  twins = false,
): Promise<Array<StoredVersion & { seq: string }>> {
  if (rows.length === 0) return [];
  const { rows: inserted } = await client.query<{ row_id: string; seq: string; db_role: string | null }>(
    `${versionInsert('$2', '$3')} ORDER BY n.ord ON CONFLICT (project, row_id) DO NOTHING RETURNING row_id, seq, db_role`,
    [project, JSON.stringify(versionPayload(rows, twins)), twins],
  );
  return asInserted(rows, inserted);
}

/**
 * The rows an INSERT … RETURNING row_id, seq, db_role took, as stored: with their seq and the
 * role the database recorded, whatever the row said (versions and records alike).
 */
export function asInserted<R extends { rowId: string; dbRole?: string | null }>(
  rows: readonly R[],
  inserted: ReadonlyArray<{ row_id: string; seq: string; db_role: string | null }>,
): Array<R & { seq: string }> {
  const stored = new Map(inserted.map((r) => [r.row_id, r]));
  return rows
    .filter((r) => stored.has(r.rowId))
    .map((r) => {
      const { seq, db_role } = stored.get(r.rowId)!;
      const { dbRole: _sent, ...rest } = r;
      return { ...rest, ...(db_role ? { dbRole: db_role } : {}), seq } as R & { seq: string };
    });
}

/** What a head carries of core's analysis (analysis.ts): its tag stems and its terms as the search vector's lexemes. */
export interface HeadTerms {
  tagStems: string[];
  terms: string[];
}

function headTerms(row: Pick<StoredVersion, 'description' | 'tags' | 'content'>): HeadTerms {
  const a = analyzeMemory(row);
  return { tagStems: a.tagStems, terms: flatTerms(a) };
}

/**
 * The analysis of the rows of `rows` that may become heads (the newest of each id), by rowId.
 * An import computes it while the server inserts the rows, so core's analysis (the larger part
 * of an import's own work) runs beside the server's instead of after it; `advanceHeads`
 * analyses any head it is not given.
 */
export function analyseNewest(rows: readonly StoredVersion[]): Map<string, HeadTerms> {
  return new Map([...newestByKey(rows, (r) => r.id).values()].map((r) => [r.rowId, headTerms(r)]));
}

/**
 * The heads the newest row of each id of `rows` would make, sorted by id (so two statements lock
 * heads in the same order and cannot deadlock), as the jsonb records HEAD_RECORD reads (with the
 * rows' seq when they have one).
 */
export function headPayload(
  rows: ReadonlyArray<StoredVersion & { seq?: string }>,
  analysed: ReadonlyMap<string, HeadTerms> = new Map(),
): Array<{ id: string }> {
  return [...newestByKey(rows, (r) => r.id).values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => {
      const analysis = analysed.get(r.rowId) ?? headTerms(r);
      return {
        id: r.id,
        seq: r.seq,
        row_id: r.rowId,
        version: r.version,
        changed_at: r.changedAt,
        deleted_at: r.deletedAt,
        max_version: r.maxVersion,
        description: r.description,
        tags: r.tags,
        tag_stems: analysis.tagStems,
        terms: analysis.terms,
      };
    });
}

/** The columns of a headPayload record but its seq, for jsonb_to_recordset. */
export const HEAD_RECORD = `id text, row_id text, version int, changed_at timestamptz, deleted_at timestamptz, max_version int,
  description text, tags text[], tag_stems text[], terms text[]`;

/**
 * The heads' part of a statement, as CTEs after two the statement defines: `r`, the new heads
 * (HEAD_RECORD with seq), and `was`, the (id, tag) pairs of the live heads they replace as last
 * committed. `up` upserts the heads monotonically (only a newer version, by changedAt, version,
 * rowId, replaces a head; the highest version number is kept either way), `older` keeps the
 * highest number of the heads a row did not replace, `gone` deletes the tag rows the heads no
 * longer have and `tagged` inserts those of their tags. Each (tag, id) pair is deleted through
 * the primary key (project, tag, id), one lookup per pair (a LATERAL subquery that OFFSET 0
 * keeps from being flattened, then the rows by ctid): as a plain DELETE … USING, the planner,
 * trusting statistics taken when the project was small, read every tag row of the project on
 * each batch (7,686 rows to move 20 heads in the test; imports at 100k 40% slower).
 */
export const HEAD_CHANGES = `up AS (
       INSERT INTO memory_heads AS h (project, id, seq, row_id, version, changed_at, deleted_at, max_version, description, tags, tag_stems, search_vector)
       SELECT $1, r.id, r.seq, r.row_id, r.version, r.changed_at, r.deleted_at, r.max_version, r.description, r.tags, r.tag_stems, array_to_tsvector(r.terms)
       FROM r ORDER BY r.id
       ON CONFLICT (project, id) DO UPDATE SET
         seq = excluded.seq, row_id = excluded.row_id, version = excluded.version, changed_at = excluded.changed_at,
         deleted_at = excluded.deleted_at, max_version = greatest(h.max_version, excluded.max_version),
         description = excluded.description, tags = excluded.tags, tag_stems = excluded.tag_stems, search_vector = excluded.search_vector
       WHERE (excluded.changed_at, excluded.version, excluded.row_id) > (h.changed_at, h.version, h.row_id)
       RETURNING h.id, h.tags, h.deleted_at
     ), older AS (
       UPDATE memory_heads h SET max_version = r.max_version FROM r
       WHERE h.project = $1 AND h.id = r.id AND h.max_version < r.max_version AND r.id NOT IN (SELECT id FROM up)
     ), gone AS (
       DELETE FROM memory_head_tags t WHERE t.ctid = ANY (ARRAY(
         SELECT x.ctid FROM was JOIN up ON up.id = was.id
           CROSS JOIN LATERAL (SELECT m.ctid FROM memory_head_tags m WHERE m.project = $1 AND m.tag = was.tag AND m.id = was.id OFFSET 0) x
         WHERE up.deleted_at IS NOT NULL OR NOT (was.tag = ANY (up.tags))))
     ), tagged AS (
       INSERT INTO memory_head_tags (project, tag, id)
       SELECT $1, tag, up.id FROM up CROSS JOIN LATERAL unnest(up.tags) AS tag WHERE up.deleted_at IS NULL
       ON CONFLICT DO NOTHING
     )`;

/**
 * Moves the heads of the ids of `inserted` forward, in the same transaction. The update is
 * monotonic (only a newer version, by changedAt, version, rowId, replaces a head; the
 * highest version number is kept either way), so two transactions touching one id in any
 * order leave the same head. The row lock on a head, taken first, orders its tag rows too
 * (two first inserts of one id by concurrent imports excepted: there is no row to lock yet).
 */
export async function advanceHeads(
  client: ClientBase,
  project: string,
  inserted: Array<StoredVersion & { seq: string }>,
  analysed: ReadonlyMap<string, HeadTerms> = new Map(),
): Promise<void> {
  if (inserted.length === 0) return;
  const payload = headPayload(inserted, analysed);
  // The tag rows this statement replaces are those of the tags the heads have now. Imports take
  // no lock before they insert, so lock the heads first (in id order, as the upsert does) and read
  // their tags as last committed: the statement below starts after any concurrent writer of these
  // heads has committed, and its snapshot holds that writer's tag rows.
  const { rows: heads } = await client.query<{ id: string; tags: string[]; deleted: boolean }>(
    // One lookup by key per id, in the payload's order (a subquery with FOR UPDATE is not
    // flattened): statistics lagging behind a large import cannot make it a scan of the project.
    `SELECT h.id, h.tags, h.deleted FROM unnest($2::text[]) AS u(id)
       CROSS JOIN LATERAL (SELECT id, tags, deleted FROM memory_heads WHERE project = $1 AND id = u.id FOR UPDATE) h`,
    [project, payload.map((r) => r.id)],
  );
  const was = heads.filter((h) => !h.deleted).flatMap((h) => h.tags.map((tag) => ({ id: h.id, tag })));
  await client.query(
    `WITH r AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS r(${HEAD_RECORD}, seq bigint)
     ), was AS (
       SELECT * FROM unnest($3::text[], $4::text[]) AS was(id, tag)
     ), ${HEAD_CHANGES}
     SELECT count(*) FROM up`,
    [project, JSON.stringify(payload), was.map((w) => w.id), was.map((w) => w.tag)],
  );
}

/** How often a write or import is tried when other writers keep taking its version numbers (or moving its head). */
export const WRITE_ATTEMPTS = 5;

/** A write or import lost the race for a version number to another transaction (the unique backstop fired). */
export function isVersionTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === UNIQUE_VIOLATION && e.constraint === VERSION_CONSTRAINT;
}

/** The server ended a transaction that waited in a cycle of locks (one of two writers racing for one head). */
export function isDeadlock(err: unknown): boolean {
  return (err as { code?: string }).code === '40P01';
}
