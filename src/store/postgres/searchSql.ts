import type { SearchQuery } from '../../core/search/query';
import { DEFAULT_RANKING, MIN_PREFIX } from '../../core/search/ranking';

/**
 * Search on the server, ranked as `SearchIndex` (src/core/search/searchIndex.ts) ranks:
 * the same analysed query (core's `analyzeQuery`), the same terms per memory (core's
 * `analyzeMemory`, kept in memory_heads.search_vector), the same formulas and constants
 * (DEFAULT_RANKING). Only ties broken by floating-point rounding may come out in another order.
 *
 * Outline: a small query first (`prefixedTagsStatement`) finds the tags each keyword is a
 * prefix of; then one statement:
 * - cand: live heads of the project holding any query term or part (GIN on search_vector),
 *   carrying a keyword as a tag, as a tag stem, or a tag the keyword is a prefix of (GIN on
 *   tags, tag_stems). Every memory a keyword can reach is a candidate, so document
 *   frequencies counted over the candidates equal those over the whole project.
 * - unit_w / part_w: each word of a keyword weighs its IDF; a compound's parts share its weight.
 * - share: per candidate and keyword, the weight of the words it holds (whole, else parts).
 * - judged: the tag match kind (3 exact, 2 inflection, 1 prefix) and whether the keyword matches.
 * - kw_weight: a keyword weighs the IDF of the memories it matches (0 for an ignored stop word).
 * - scored: matched keywords and score; the relevance floor; the tag filter; the order.
 */
const SEARCH_SQL = `
WITH
kw AS (
  SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::bool[], $6::bool[], $7::float8[], $8::bool[])
    AS k(k, tag, tag_stem, has_units, prefix_ok, threshold, stop_only)
),
unit AS (SELECT * FROM unnest($9::int[], $10::int[], $11::text[]) AS u(k, j, term)),
part AS (SELECT * FROM unnest($12::int[], $13::int[], $14::text[]) AS p(k, j, term)),
word AS (
  SELECT term, ('''' || replace(replace(term, '\\', '\\\\'), '''', '''''') || '''')::tsquery AS q
  FROM (SELECT term FROM unit UNION SELECT term FROM part) w
),
live AS (SELECT coalesce(sum(n), 0)::float8 AS n FROM memory_live_counts WHERE project = $1),
prefixed AS (SELECT * FROM unnest($22::int[], $23::text[]) AS p(k, tag)),
-- The candidate test as plain values, so the planner sees them and combines the GIN indexes.
cand AS MATERIALIZED (
  SELECT h.id, h.description, h.tags, h.tag_stems, h.changed_at, h.search_vector AS sv
  FROM memory_heads h
  WHERE h.project = $1 AND NOT h.deleted AND (h.search_vector @@ $24::tsquery OR h.tags && $25::text[] OR h.tag_stems && $26::text[])
),
term_df AS (
  SELECT w.term, count(c.id)::float8 AS df FROM word w LEFT JOIN cand c ON c.sv @@ w.q GROUP BY w.term
),
unit_w AS (
  SELECT u.k, u.j, w.q, ln(1 + live.n / (d.df + 0.5)) / nullif(sum(ln(1 + live.n / (d.df + 0.5))) OVER (PARTITION BY u.k), 0) AS w
  FROM unit u JOIN term_df d ON d.term = u.term JOIN word w ON w.term = u.term CROSS JOIN live
),
part_w AS (
  SELECT p.k, p.j, w.q, uw.w * ln(1 + live.n / (d.df + 0.5)) / nullif(sum(ln(1 + live.n / (d.df + 0.5))) OVER (PARTITION BY p.k, p.j), 0) AS w
  FROM part p JOIN unit_w uw ON uw.k = p.k AND uw.j = p.j JOIN term_df d ON d.term = p.term JOIN word w ON w.term = p.term CROSS JOIN live
),
part_credit AS (
  SELECT c.id, pw.k, pw.j, sum(pw.w) AS w FROM cand c JOIN part_w pw ON c.sv @@ pw.q GROUP BY c.id, pw.k, pw.j
),
share AS (
  SELECT c.id, uw.k, sum(CASE WHEN c.sv @@ uw.q THEN uw.w ELSE coalesce(pc.w, 0) END) AS share
  FROM cand c CROSS JOIN unit_w uw LEFT JOIN part_credit pc ON pc.id = c.id AND pc.k = uw.k AND pc.j = uw.j
  GROUP BY c.id, uw.k
),
judged AS (
  SELECT c.id, kw.k, coalesce(s.share, 0) AS share, kw.threshold,
    CASE WHEN kw.tag = ANY (c.tags) THEN 3
         WHEN kw.has_units AND kw.tag_stem = ANY (c.tag_stems) THEN 2
         WHEN EXISTS (SELECT 1 FROM prefixed p WHERE p.k = kw.k AND p.tag = ANY (c.tags)) THEN 1
         ELSE 0 END AS kind
  FROM cand c CROSS JOIN kw LEFT JOIN share s ON s.id = c.id AND s.k = kw.k
),
matches AS (SELECT *, (kind > 0 OR share >= threshold) AS hit FROM judged),
kw_weight AS (
  SELECT kw.k, CASE WHEN kw.stop_only AND count(m.id) FILTER (WHERE m.hit) = 0 THEN 0
                    ELSE ln(1 + live.n / (count(m.id) FILTER (WHERE m.hit) + 0.5)) END AS weight
  FROM kw CROSS JOIN live LEFT JOIN matches m ON m.k = kw.k
  GROUP BY kw.k, kw.stop_only, live.n
),
total AS (SELECT sum(weight) AS w FROM kw_weight),
scored AS (
  SELECT m.id, count(*) FILTER (WHERE m.hit) AS matched,
    sum(kw.weight * CASE
      WHEN m.kind > 0 THEN greatest(($16::float8[])[m.kind + 1] + $17::float8 * m.share, CASE WHEN m.share >= m.threshold THEN $18::float8 * m.share ELSE 0 END)
      WHEN m.share >= m.threshold THEN $18::float8 * m.share
      ELSE $18::float8 * m.share * $19::float8 END) AS score
  FROM matches m JOIN kw_weight kw ON kw.k = m.k
  GROUP BY m.id
)
SELECT c.id, c.description, c.tags, c.changed_at
FROM scored s JOIN cand c ON c.id = s.id CROSS JOIN total
WHERE total.w > 0 AND s.matched > 0 AND s.score >= $20::float8 * $18::float8 * total.w AND c.tags @> $15::text[]
ORDER BY s.matched DESC, s.score DESC, c.changed_at DESC, c.id ASC
LIMIT $21::int`;

/** The statement and its parameters for `query` in `project`; undefined when nothing can match. */
const PREFIXED_SQL = `
SELECT DISTINCT k.k, t.tag FROM unnest($2::int[], $3::text[]) AS k(k, tag) JOIN memory_head_tags t
  ON t.project = $1 AND t.tag >= k.tag AND t.tag < k.tag || '~' AND left(t.tag, length(k.tag)) = k.tag AND t.tag <> k.tag`;

/** A tag a keyword (by its position in the query) is a prefix of, carried by a live memory. */
export interface PrefixedTag {
  k: number;
  tag: string;
}

/** Long enough keywords with words complete tags (`type` → `typescript-config`). */
function prefixKeywords(query: SearchQuery): number[] {
  return query.keywords.flatMap((kw, k) => (kw.units.length > 0 && kw.tag.length >= MIN_PREFIX ? [k] : []));
}

/** The query for the tags the keywords are prefixes of; undefined when no keyword can be one. */
export function prefixedTagsStatement(project: string, query: SearchQuery): { text: string; values: unknown[] } | undefined {
  const ks = prefixKeywords(query);
  if (ks.length === 0 || query.limit <= 0) return undefined;
  return { text: PREFIXED_SQL, values: [project, ks, ks.map((k) => query.keywords[k]!.tag)] };
}

/** A tsquery matching any of `terms`, each quoted as a lexeme (as `to_tsquery` would not). */
function anyTerm(terms: string[]): string | null {
  if (terms.length === 0) return null;
  return [...new Set(terms)].map((t) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

export function searchStatement(project: string, query: SearchQuery, prefixed: PrefixedTag[]): { text: string; values: unknown[] } | undefined {
  const o = DEFAULT_RANKING;
  const keywords = query.keywords;
  if (keywords.length === 0 || query.limit <= 0) return undefined;
  const units = { k: [] as number[], j: [] as number[], term: [] as string[] };
  const parts = { k: [] as number[], j: [] as number[], term: [] as string[] };
  keywords.forEach((kw, k) => {
    kw.units.forEach((u, j) => {
      units.k.push(k);
      units.j.push(j);
      units.term.push(u.term);
      for (const p of u.parts) {
        parts.k.push(k);
        parts.j.push(j);
        parts.term.push(p);
      }
    });
  });
  const values = [
    project,
    keywords.map((_, k) => k),
    keywords.map((kw) => kw.tag),
    keywords.map((kw) => kw.tagStem),
    keywords.map((kw) => kw.units.length > 0),
    keywords.map((kw) => kw.units.length > 0 && kw.tag.length >= MIN_PREFIX),
    // The same thresholds as SearchIndex.search, with its allowance for rounding.
    keywords.map((kw) => (kw.units.length >= o.longKeywordWords ? o.longMatchThreshold : o.matchThreshold) - 1e-9),
    keywords.map((kw) => kw.stopWordsOnly),
    units.k, units.j, units.term,
    parts.k, parts.j, parts.term,
    query.tags,
    [0, o.prefixTag, o.inflectedTag, o.exactTag],
    o.tagAndDescriptionBonus,
    o.description,
    o.partialFactor,
    o.minCoverage,
    query.limit,
    prefixed.map((p) => p.k),
    prefixed.map((p) => p.tag),
    anyTerm([...units.term, ...parts.term]),
    [...new Set([...keywords.map((kw) => kw.tag), ...prefixed.map((p) => p.tag)])],
    keywords.filter((kw) => kw.units.length > 0).map((kw) => kw.tagStem),
  ];
  return { text: SEARCH_SQL, values };
}
