import { mayPrefixTag } from '../../core/search/signatures';
import type { SearchQuery } from '../../core/search/query';

// The first statement of a search on the server (serverSearch.ts): the tags each keyword is a
// prefix of (`type` → `typescript`), so the ranking knows which prefix matches can occur.

/** A tag a keyword (by its position in the query) is a prefix of, carried by a live memory. */
export interface PrefixedTag {
  k: number;
  tag: string;
}

// Each distinct tag is found by one index descent (the next tag after the last one found, within
// the prefix's range), not by reading every row of the range: a common tag (`error-handling`) has
// a row per memory carrying it.
const PREFIXED_SQL = `
WITH RECURSIVE found AS (
  SELECT k.k, k.tag AS prefix, (SELECT min(t.tag) FROM memory_head_tags t WHERE t.project = $1 AND t.tag > k.tag AND t.tag < k.tag || '~') AS tag
  FROM unnest($2::int[], $3::text[]) AS k(k, tag)
  UNION ALL
  SELECT f.k, f.prefix, (SELECT min(t.tag) FROM memory_head_tags t WHERE t.project = $1 AND t.tag > f.tag AND t.tag < f.prefix || '~')
  FROM found f WHERE f.tag IS NOT NULL
)
SELECT k, tag FROM found WHERE tag IS NOT NULL AND left(tag, length(prefix)) = prefix`;

/** The query for the tags the keywords are prefixes of; undefined when no keyword can be one. */
export function prefixedTagsStatement(project: string, query: SearchQuery): { text: string; values: unknown[] } | undefined {
  const ks = query.keywords.flatMap((_, k) => (mayPrefixTag(query, k) ? [k] : []));
  if (ks.length === 0) return undefined;
  return { text: PREFIXED_SQL, values: [project, ks, ks.map((k) => query.keywords[k]!.tag)] };
}
