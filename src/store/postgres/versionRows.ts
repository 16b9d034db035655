import type { ClientBase, Pool, PoolClient } from 'pg';
import { analyzeMemory, ANALYZER_VERSION, flatTerms } from '../../core/search/analysis';
import { getMeta, setMeta } from './schema';
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

/** A version row as agent_memory_insert_versions reads it (writeFunctions.ts). */
function versionPayload(r: StoredVersion, ord: number, twin: boolean) {
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
    twin,
  };
}

/**
 * Inserts version rows (in the given order) that are not stored yet by rowId and whose id
 * was not purged; returns the inserted rows with their seq. A row whose (id, version) is
 * taken by another row fails the statement (the UNIQUE backstop), and with it the transaction,
 * unless `twins` is set (imports): such a row then goes in as a twin, kept with its number,
 * as a journal merged from two clones holds it. Writes never pass `twins`, so a writer that
 * lost the race for a number still hits the backstop and decides again.
 */
export async function insertVersions(
  client: ClientBase,
  project: string,
  rows: StoredVersion[],
  twins = false,
): Promise<Array<StoredVersion & { seq: string }>> {
  if (rows.length === 0) return [];
  // Two rows of this batch sharing a number: the later one is the twin (the statement's own
  // rows are not visible to its EXISTS check, stored rows are).
  const numbered = new Set<string>();
  const payload = rows.map((r, ord) => {
    const key = `${r.id}\u0000${r.version}`;
    const twin = twins && numbered.has(key);
    numbered.add(key);
    return versionPayload(r, ord, twin);
  });
  const { rows: inserted } = await client.query<{ row_id: string; seq: string; db_role: string | null }>(
    'SELECT row_id, seq, db_role FROM agent_memory_insert_versions($1, $2::jsonb, $3)',
    [project, JSON.stringify(payload), twins],
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
  const newest = newestByKey(inserted, (r) => r.id);
  // Sorted by id, so two batches lock their heads in the same order and cannot deadlock.
  const payload = [...newest.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => ({ ...headPayload(r, r.maxVersion, analysed.get(r.rowId)), seq: r.seq }));
  await client.query('SELECT agent_memory_advance_heads($1, $2::jsonb)', [project, JSON.stringify(payload)]);
}

/** A head as agent_memory_advance_heads reads it, without its seq (the insert gives it). */
function headPayload(r: StoredVersion, maxVersion: number, analysis: HeadTerms = headTerms(r)) {
  return {
    id: r.id,
    row_id: r.rowId,
    version: r.version,
    changed_at: r.changedAt,
    deleted_at: r.deletedAt,
    max_version: maxVersion,
    description: r.description,
    tags: r.tags,
    tag_stems: analysis.tagStems,
    terms: analysis.terms,
  };
}

/** What `writeVersion` did. */
export type WriteOutcome = { outcome: 'written'; seq: string; dbRole: string | null } | { outcome: 'moved' } | { outcome: 'purged' };

/**
 * Writes one version of one memory in one statement (agent_memory_write, writeFunctions.ts): under
 * the id's lock, and only if the id's head is still the one with seq `expected` (undefined: no
 * head), inserts the row, moves the head and, when `fold`, folds the term counts. 'moved' means
 * another writer got there first: nothing was written. A version number taken by another row
 * fails the statement as insertVersions' does (isVersionTaken).
 */
export async function writeVersion(
  client: Pool | ClientBase,
  project: string,
  row: StoredVersion,
  expected: string | undefined,
  fold: boolean,
): Promise<WriteOutcome> {
  const { rows } = await client.query<{ outcome: 'written' | 'moved' | 'purged'; seq: string | null; db_role: string | null }>(
    'SELECT outcome, seq, db_role FROM agent_memory_write($1, $2, $3, $4::jsonb, $5::jsonb, $6)',
    [project, row.id, expected ?? null, JSON.stringify(versionPayload(row, 0, false)), JSON.stringify(headPayload(row, row.version)), fold],
  );
  const r = rows[0]!;
  return r.outcome === 'written' ? { outcome: 'written', seq: r.seq!, dbRole: r.db_role } : { outcome: r.outcome };
}

/** Heads re-analysed per statement. */
const REANALYZE_BATCH = 1000;

/**
 * The heads carry terms from core's analysis; when that analysis changed (ANALYZER_VERSION),
 * every head of every project is analysed again, in the migration's transaction. The content
 * is read from the head's version row (by seq: memory_heads has no content column).
 */
export async function reanalyzeIfNeeded(client: PoolClient): Promise<void> {
  const stored = await getMeta(client, 'analyzer');
  if (stored === String(ANALYZER_VERSION)) return;
  let after = { project: '', id: '' };
  for (;;) {
    const { rows } = await client.query<{ project: string; id: string; description: string; tags: string[]; content: string }>(
      `SELECT h.project, h.id, h.description, h.tags, v.content FROM memory_heads h JOIN memory_versions v ON v.seq = h.seq
       WHERE (h.project, h.id) > ($1, $2) ORDER BY h.project, h.id LIMIT $3`,
      [after.project, after.id, REANALYZE_BATCH],
    );
    if (rows.length === 0) break;
    const payload = rows.map((r) => {
      const a = analyzeMemory(r);
      return { project: r.project, id: r.id, terms: flatTerms(a), tagStems: a.tagStems };
    });
    await client.query(
      `UPDATE memory_heads h SET tag_stems = r."tagStems", search_vector = array_to_tsvector(r.terms)
       FROM jsonb_to_recordset($1::jsonb) AS r(project text, id text, terms text[], "tagStems" text[])
       WHERE h.project = r.project AND h.id = r.id`,
      [JSON.stringify(payload)],
    );
    after = rows[rows.length - 1]!;
  }
  await setMeta(client, 'analyzer', String(ANALYZER_VERSION));
}

/** A write or import lost the race for a version number to another transaction (the unique backstop fired). */
export function isVersionTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === UNIQUE_VIOLATION && e.constraint === VERSION_CONSTRAINT;
}
