import type { ClientBase } from 'pg';
import { CONTENT_MARK } from '../../core/search/analysis';
import { termsNeeded } from '../../core/search/similar';
import { probeClauses, probeFor } from '../../core/search/similarProbe';
import type { StoredHit } from '../../core/ports/store';
import { lexeme, Params } from './searchSql';

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
  client: ClientBase,
  project: string,
  terms: ReadonlySet<string>,
  min: number,
  limit: number,
): Promise<Array<StoredHit & { similarity: number }>> {
  const asked = [...terms];
  if (asked.length === 0 || limit <= 0) return [];
  const need = termsNeeded(asked.length, min);
  const { rows: stats } = await client.query<{ live: number; least: number | null; listed: Record<string, number> | null }>(COMMON_SQL, [
    asked,
    project,
  ]);
  const listed = stats[0]?.listed ?? {};
  // Unlisted: below the least listed share; without statistics (never analysed), all alike.
  const least = stats[0]?.least;
  const unlisted = typeof least === 'number' ? least / 2 : UNKNOWN_SHARE;
  const probe = probeFor(
    asked.map((term) => ({ term, share: listed[term] ?? unlisted })),
    need,
    CLAUSE_COST / Math.max(1, stats[0]?.live ?? 0),
  );
  // One condition per AND-clause: the planner ORs their bitmaps, each index scan walking its
  // clause's rarest list (one tsquery of them all checked every posting of every term).
  const p = new Params(project);
  const reach = probeClauses(probe).map((clause) => `h.search_vector @@ ${p.add(clause.map(lexeme).join(' & '))}::tsquery`);
  const values = [asked, asked.length, need, min, limit, CONTENT_MARK].map((v) => p.add(v));
  const { rows } = await client.query<{ id: string; description: string; tags: string[]; changed_at: Date; similarity: number }>(
    similarSql(reach.join(' OR '), values),
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

/** A term's share of the memories when the table has no statistics. */
const UNKNOWN_SHARE = 0.01;
/** What an index scan per AND-clause costs beside its postings, in memories read (measured at 1M: about 1 ms, some 20 rows). */
const CLAUSE_COST = 20;

/**
 * The shares of the asked terms the statistics list as common, and the least share listed
 * (most_common_elem_freqs ends with the least and greatest of the shares, then the null share);
 * no row when the table has not been analysed.
 */
const COMMON_SQL = `
SELECT (SELECT coalesce(sum(n), 0) FROM memory_live_counts WHERE project = $2)::float8 AS live, s.fs[array_length(s.es, 1) + 1]::float8 AS least,
  (SELECT json_object_agg(e.elem, e.freq) FROM unnest(s.es, s.fs) AS e(elem, freq) WHERE e.elem = ANY ($1::text[])) AS listed
FROM (
  SELECT most_common_elems::text::text[] AS es, most_common_elem_freqs AS fs FROM pg_stats
  WHERE tablename = 'memory_heads' AND attname = 'search_vector' AND schemaname = ANY (current_schemas(false))
  ORDER BY array_position(current_schemas(false), schemaname::text) LIMIT 1
) s`;

/**
 * The statement: `reach` the probe's conditions; `$1` the project, then (`v`) the asked terms,
 * how many, how many a memory must hold, the least similarity, the limit, the content mark.
 * Similarity is shared / (asked + own - shared) in float8, as SearchIndex divides in doubles;
 * ties go to the most recently changed, then the lower id ("C" order, as JavaScript compares).
 */
function similarSql(reach: string, v: string[]): string {
  const [asked, size, need, min, limit, mark] = v;
  return `
SELECT h.id, h.description, h.tags, h.changed_at, c.shared::float8 / (${size}::int + c.own - c.shared) AS similarity
FROM memory_heads h
CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE u.lexeme = ANY (${asked}::text[])) AS shared,
         count(*) FILTER (WHERE NOT starts_with(u.lexeme, ${mark}::text)) AS own
  FROM unnest(h.search_vector) AS u
) c
WHERE h.project = $1 AND NOT h.deleted AND (${reach})
  AND c.shared >= ${need}::int AND c.shared::float8 / (${size}::int + c.own - c.shared) >= ${min}::float8
ORDER BY similarity DESC, h.changed_at DESC, h.id
LIMIT ${limit}::int`;
}
