import type { ClientBase, Pool } from 'pg';
import { CONTENT_MARK } from '../../core/search/analysis';
import { termsNeeded } from '../../core/search/similar';
import { probeClauses, probeFor } from '../../core/search/similarProbe';
import type { StoredHit } from '../../core/ports/store';
import { lexeme, Params } from './sqlParams';
import { LIVE_COUNT_SQL } from './termCounts';

/**
 * Likely duplicates found by the server, exactly as SearchIndex.similar finds them (the same
 * Jaccard over description and tag terms, the same order), reading only the memories that hold
 * a few of the asked terms together or one of the rarest (core's similarProbe.ts: any probe it
 * chooses finds every memory alike enough; its choice only decides how many are read).
 *
 * The terms' shares come from the column statistics' most common lexemes (pg_stats, over every
 * project: a term not listed there is rarer than every listed one). The server then counts,
 * per memory the probe reaches, the asked terms it holds and its own description and tag terms
 * (the lexemes of search_vector without the content mark), and returns the `limit` most alike.
 */
export async function similarOnServer(
  client: Pool | ClientBase,
  project: string,
  terms: ReadonlySet<string>,
  min: number,
  limit: number,
  common: CommonTerms,
): Promise<Array<StoredHit & { similarity: number }>> {
  const asked = [...terms];
  if (asked.length === 0 || limit <= 0) return [];
  const need = termsNeeded(asked.length, min);
  // Unlisted: below the least listed share; without statistics (never analysed), all alike.
  const unlisted = common.least !== undefined ? common.least / 2 : UNKNOWN_SHARE;
  const probe = probeFor(
    asked.map((term) => ({ term, share: common.listed.get(term) ?? unlisted })),
    need,
    CLAUSE_COST / Math.max(1, common.live),
  );
  // One condition per AND-clause: the planner ORs their bitmaps, each index scan walking its
  // clause's rarest list (one tsquery of them all checked every posting of every term).
  const p = new Params(project);
  const reach = probeClauses(probe).map((clause) => `h.search_vector @@ ${p.add(clause.map(lexeme).join(' & '))}::tsquery`);
  // The asked terms a memory holds: one lookup in its search_vector each (a tsquery of one lexeme).
  const shared = asked.map((term) => `(h.search_vector @@ ${p.add(lexeme(term))}::tsquery)::int`).join(' + ');
  const values = [asked.length, need, min, limit, CONTENT_MARK].map((v) => p.add(v));
  const { rows } = await client.query<{ id: string; description: string; tags: string[]; changed_at: Date; similarity: number }>(
    similarSql(reach.join(' OR '), shared, values),
    p.values,
  );
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    tags: r.tags,
    changedAt: r.changed_at.toISOString(),
    similarity: r.similarity,
  }));
}

/**
 * Schema version 11 (migrations.ts): how many description and tag terms a head has (the lexemes
 * of search_vector without the content mark, '~' being analysis.ts' CONTENT_MARK as stored), set
 * by a row trigger whenever search_vector is written: the Jaccard denominator similarSql would
 * otherwise count by unnesting every memory it reads. Added empty, without rewriting the table:
 * a head written before it is counted when read, until written again. The trigger's one query
 * reads no table, so the plan PL/pgSQL keeps cannot grow stale.
 */
export const OWN_TERMS_SCHEMA = `
  ALTER TABLE memory_heads ADD COLUMN own_terms integer;
  CREATE FUNCTION agent_memory_own_terms() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      NEW.own_terms := (SELECT count(*) FROM unnest(NEW.search_vector) AS u WHERE NOT starts_with(u.lexeme, '~'));
      RETURN NEW;
    END
  $f$;
  CREATE TRIGGER memory_heads_own_terms BEFORE INSERT OR UPDATE OF search_vector ON memory_heads
    FOR EACH ROW EXECUTE FUNCTION agent_memory_own_terms();
`;

/** A term's share of the memories when the table has no statistics. */
const UNKNOWN_SHARE = 0.01;
/** What an index scan per AND-clause costs beside its postings, in memories read (measured at 1M: about 1 ms, some 20 rows). */
const CLAUSE_COST = 20;

/**
 * What the probe's choice is made on: the most common lexemes of memory_heads' search_vector
 * and their shares as the column statistics list them (pg_stats, over every project, as the GIN
 * index holds every project's postings: a term not listed is rarer than every listed one), and
 * the project's live memories. They change when the table is analysed; a store keeps them for a
 * while (PgStore.similar) instead of reading them before every likely-duplicate check.
 */
export interface CommonTerms {
  live: number;
  /** The least share listed; undefined when the table was never analysed. */
  least?: number;
  listed: ReadonlyMap<string, number>;
}

export async function readCommonTerms(client: Pool | ClientBase, project: string): Promise<CommonTerms> {
  const { rows } = await client.query<{ live: number; es: string[] | null; fs: number[] | null }>(COMMON_SQL, [project]);
  const es = rows[0]?.es ?? [];
  const fs = rows[0]?.fs ?? [];
  // most_common_elem_freqs ends with the least and greatest of the shares, then the null share.
  return {
    live: rows[0]?.live ?? 0,
    least: es.length ? fs[es.length] : undefined,
    listed: new Map(es.map((e, i) => [e, fs[i]!])),
  };
}

/** How long a store keeps the statistics its likely-duplicate checks choose probes on. */
const COMMON_TERMS_MS = 60_000;

/** `read`, asked at most once a minute; a failed read is not kept (the next call asks again). */
export function keptCommonTerms(read: () => Promise<CommonTerms>): () => Promise<CommonTerms> {
  let kept: { at: number; terms: Promise<CommonTerms> } | undefined;
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at > COMMON_TERMS_MS) {
      const terms = read();
      terms.catch(() => (kept = undefined));
      kept = { at: now, terms };
    }
    return kept.terms;
  };
}

const COMMON_SQL = `
SELECT ${LIVE_COUNT_SQL} AS live, s.es, s.fs
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
  SELECT most_common_elems::text::text[] AS es, most_common_elem_freqs::float8[] AS fs FROM pg_stats
  WHERE tablename = 'memory_heads' AND attname = 'search_vector' AND schemaname = ANY (current_schemas(false))
  ORDER BY array_position(current_schemas(false), schemaname::text) LIMIT 1
) s ON true`;

/**
 * The statement: `reach` the probe's conditions, `shared` the count of asked terms a memory holds;
 * `$1` the project, then (`v`) how many terms were asked, how many a memory must hold, the least
 * similarity, the limit, the content mark. A memory's own description and tag terms are kept by
 * a trigger (own_terms, OWN_TERMS_SCHEMA), counted here for a head written before it. Similarity is
 * shared / (asked + own - shared) in float8, as SearchIndex divides in doubles; ties go to the
 * most recently changed, then the lower id ("C" order, as JavaScript compares).
 */
function similarSql(reach: string, shared: string, v: string[]): string {
  const [size, need, min, limit, mark] = v;
  return `
SELECT h.id, h.description, h.tags, h.changed_at, c.shared::float8 / (${size}::int + c.own - c.shared) AS similarity
FROM memory_heads h
CROSS JOIN LATERAL (
  SELECT ${shared} AS shared,
         coalesce(h.own_terms, (SELECT count(*)::int FROM unnest(h.search_vector) AS u WHERE NOT starts_with(u.lexeme, ${mark}::text))) AS own
) c
WHERE h.project = $1 AND NOT h.deleted AND (${reach})
  AND c.shared >= ${need}::int AND c.shared::float8 / (${size}::int + c.own - c.shared) >= ${min}::float8
ORDER BY similarity DESC, h.changed_at DESC, h.id
LIMIT ${limit}::int`;
}
