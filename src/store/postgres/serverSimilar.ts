import type { ClientBase } from 'pg';
import { CONTENT_MARK } from '../../core/search/analysis';
import { termsNeeded } from '../../core/search/similar';
import type { StoredHit } from '../../core/ports/store';
import { lexeme } from './searchSql';

/**
 * Likely duplicates found by the server, exactly as SearchIndex.similar finds them (the same
 * Jaccard over description and tag terms, the same order), reading only the memories that hold
 * one of the asked terms' rarer few (prefix filtering).
 *
 * A memory at least `min` alike holds at least `need` of the `size` asked terms (termsNeeded),
 * so it misses at most `size - need` of them: of any `size - need + 1` asked terms it holds one.
 * Which terms does not change the answer, only how many memories are read, so they are the
 * rarest by the column statistics' most common lexemes (pg_stats: any term not listed there is
 * rarer than every listed one). The server then counts, per memory so reached, the asked terms
 * it holds and its own description and tag terms (the lexemes of search_vector without the
 * content mark), and returns the `limit` most alike.
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
  const { rows: common } = await client.query<{ elem: string; freq: number }>(COMMON_SQL, [asked]);
  const freq = new Map(common.map((r) => [r.elem, r.freq]));
  const rarest = asked
    .map((term, i) => ({ term, i, f: freq.get(term) ?? 0 }))
    .sort((a, b) => a.f - b.f || a.i - b.i)
    .slice(0, asked.length - termsNeeded(asked.length, min) + 1)
    .map((x) => lexeme(x.term));
  const { rows } = await client.query<{ id: string; description: string; tags: string[]; changed_at: Date; similarity: number }>(
    SIMILAR_SQL,
    [project, rarest.join(' | '), asked, asked.length, termsNeeded(asked.length, min), min, limit, CONTENT_MARK],
  );
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    tags: r.tags,
    changedAt: r.changed_at.toISOString(),
    similarity: r.similarity,
  }));
}

/** How often each asked term is a lexeme of search_vector, for those the statistics list as common. */
const COMMON_SQL = `
SELECT e.elem, e.freq::float8 AS freq
FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(elem, freq)
WHERE s.schemaname = ANY (current_schemas(false)) AND s.tablename = 'memory_heads' AND s.attname = 'search_vector'
  AND e.elem = ANY ($1::text[])`;

// $1 project, $2 the rarer terms as a tsquery (any of them), $3 the asked terms, $4 how many,
// $5 how many a memory must hold, $6 the least similarity, $7 the limit, $8 the content mark.
// Similarity is shared / (asked + own - shared) in float8, as SearchIndex divides in doubles;
// ties go to the most recently changed, then the lower id ("C" order, as JavaScript compares).
const SIMILAR_SQL = `
SELECT h.id, h.description, h.tags, h.changed_at, c.shared::float8 / ($4::int + c.own - c.shared) AS similarity
FROM memory_heads h
CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE u.lexeme = ANY ($3::text[])) AS shared,
         count(*) FILTER (WHERE NOT starts_with(u.lexeme, $8::text)) AS own
  FROM unnest(h.search_vector) AS u
) c
WHERE h.project = $1 AND NOT h.deleted AND h.search_vector @@ $2::tsquery
  AND c.shared >= $5::int AND c.shared::float8 / ($4::int + c.own - c.shared) >= $6::float8
ORDER BY similarity DESC, h.changed_at DESC, h.id
LIMIT $7::int`;
