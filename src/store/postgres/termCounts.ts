import type { ClientBase, Pool } from 'pg';
import { CONTENT_MARK } from '../../core/search/analysis';
import type { TermStats } from '../../core/search/uncounted';
import type { KeptCounts } from '../../core/search/uncountedKeywords';

// How many live memories of a project hold each search term (each lexeme of memory_heads'
// search_vector), carry each tag (counted as TAG_MARK + tag) and each tag stem (STEM_MARK +
// stem), kept as the heads change, so a
// search can weigh a keyword's words by their document frequencies without counting the
// memories they reach (core's uncounted.ts), and judge how many a block of them holds.
//
// Every statement that changes heads adds its net change per term to memory_term_changes (a
// statement-level trigger over its transition tables: one row per term it changed, whatever
// the number of heads). Writers only insert there, so concurrent writers never wait on each
// other's counts, nor lock rows in an order that could deadlock with their head locks. A count
// is the folded total in memory_term_counts plus the changes not folded yet; now and then a
// writer folds the changes into the totals (one folder at a time per project) before it
// commits, so a reader's snapshot sees either the changes or the totals they went into.

/** Schema version 8 (migrations.ts): the tables, their first totals, and the triggers. */
export const TERM_COUNTS_SCHEMA = `
  CREATE TABLE memory_term_counts (
    project text NOT NULL,
    term text NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (project, term)
  );
  CREATE TABLE memory_term_changes (
    project text NOT NULL,
    term text NOT NULL,
    d bigint NOT NULL
  );
  CREATE INDEX memory_term_changes_by_term ON memory_term_changes (project, term);
  -- What a head is counted under: its lexemes, its distinct tags marked with '=', its tag stems with '^'.
  CREATE FUNCTION agent_memory_counted_terms(v tsvector, tags text[], stems text[]) RETURNS text[] LANGUAGE sql IMMUTABLE AS
    $f$ SELECT tsvector_to_array(v) || ARRAY(SELECT DISTINCT '=' || t FROM unnest(tags) AS t) || ARRAY(SELECT DISTINCT '^' || s FROM unnest(stems) AS s) $f$;
  INSERT INTO memory_term_counts (project, term, n)
    SELECT h.project, t.term, count(*) FROM memory_heads h CROSS JOIN LATERAL unnest(agent_memory_counted_terms(h.search_vector, h.tags, h.tag_stems)) AS t(term)
    WHERE NOT h.deleted GROUP BY h.project, t.term;
  CREATE FUNCTION agent_memory_count_terms() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO memory_term_changes (project, term, d)
          SELECT h.project, t.term, count(*) FROM new_heads h CROSS JOIN LATERAL unnest(agent_memory_counted_terms(h.search_vector, h.tags, h.tag_stems)) AS t(term)
          WHERE NOT h.deleted GROUP BY h.project, t.term;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO memory_term_changes (project, term, d)
          SELECT h.project, t.term, -count(*) FROM old_heads h CROSS JOIN LATERAL unnest(agent_memory_counted_terms(h.search_vector, h.tags, h.tag_stems)) AS t(term)
          WHERE NOT h.deleted GROUP BY h.project, t.term;
      ELSE
        INSERT INTO memory_term_changes (project, term, d)
          SELECT c.project, c.term, sum(c.d) FROM (
            SELECT h.project, t.term, 1 AS d FROM new_heads h CROSS JOIN LATERAL unnest(agent_memory_counted_terms(h.search_vector, h.tags, h.tag_stems)) AS t(term)
            WHERE NOT h.deleted
            UNION ALL
            SELECT h.project, t.term, -1 FROM old_heads h CROSS JOIN LATERAL unnest(agent_memory_counted_terms(h.search_vector, h.tags, h.tag_stems)) AS t(term)
            WHERE NOT h.deleted
          ) c GROUP BY c.project, c.term HAVING sum(c.d) <> 0;
      END IF;
      RETURN NULL;
    END
  $f$;
  CREATE TRIGGER memory_heads_terms_insert AFTER INSERT ON memory_heads
    REFERENCING NEW TABLE AS new_heads FOR EACH STATEMENT EXECUTE FUNCTION agent_memory_count_terms();
  CREATE TRIGGER memory_heads_terms_update AFTER UPDATE ON memory_heads
    REFERENCING OLD TABLE AS old_heads NEW TABLE AS new_heads FOR EACH STATEMENT EXECUTE FUNCTION agent_memory_count_terms();
  CREATE TRIGGER memory_heads_terms_delete AFTER DELETE ON memory_heads
    REFERENCING OLD TABLE AS old_heads FOR EACH STATEMENT EXECUTE FUNCTION agent_memory_count_terms();
`;

/**
 * The term every live head is counted under: its count is the project's number of live memories
 * (search's weights, the local index's size check). Schema 13; no lexeme, tag or stem mark is it.
 */
export const LIVE_TERM = '*';

/** The project's live memories (`$1`), as a float8 expression: the live term's total and its changes not folded. */
export const LIVE_COUNT_SQL = `(SELECT coalesce(sum(c.n), 0)::float8 FROM (
    SELECT n FROM memory_term_counts WHERE project = $1 AND term = '${LIVE_TERM}'
    UNION ALL SELECT d FROM memory_term_changes WHERE project = $1 AND term = '${LIVE_TERM}') c)`;

/**
 * Schema version 13 (migrations.ts): the live count kept as the term counts are, by the
 * statement-level trigger (every live head counted under LIVE_TERM), in place of schema 3's
 * deferred row triggers on memory_live_counts. Those added each head's +1 or -1 to one counter
 * row at commit: a transaction that inserted, deleted or revived n heads updated that row n
 * times, and each update walked the chain of the row's versions the transaction had made
 * before it, so its commit took time in n squared (95,000 heads into an empty project: 59 s
 * at commit; the heads of one project of that size deleted: 52 s). Seeded from the heads.
 */
export const LIVE_COUNT_SCHEMA = `
  CREATE OR REPLACE FUNCTION agent_memory_counted_terms(v tsvector, tags text[], stems text[]) RETURNS text[] LANGUAGE sql IMMUTABLE AS
    $f$ SELECT ARRAY['${LIVE_TERM}'] || tsvector_to_array(v) || ARRAY(SELECT DISTINCT '=' || t FROM unnest(tags) AS t) || ARRAY(SELECT DISTINCT '^' || s FROM unnest(stems) AS s) $f$;
  INSERT INTO memory_term_counts (project, term, n)
    SELECT project, '${LIVE_TERM}', count(*) FROM memory_heads WHERE NOT deleted GROUP BY project;
  DROP TRIGGER memory_heads_live_insert ON memory_heads;
  DROP TRIGGER memory_heads_live_update ON memory_heads;
  DROP TRIGGER memory_heads_live_delete ON memory_heads;
  DROP FUNCTION agent_memory_count_live();
  DROP TABLE memory_live_counts;
`;

/** Marks a tag among the counted terms: no lexeme starts with it (terms are letters and digits, tag parts add `#` and `+`). */
export const TAG_MARK = '=';
/** Marks a tag stem (analysis.ts, tagStems) among the counted terms. */
export const STEM_MARK = '^';

/** First key of the fold's advisory lock ("term"); the second is the project's hash. */
const FOLD_LOCK = 0x7465726d;

/**
 * Share of writes that fold the project's term changes into its totals before they commit: a
 * change row per term a write changed (about 40) piles up otherwise, and a search sums a term's
 * rows. At 1 in 32, a fold takes the changes of some 32 writes (one statement, a few
 * milliseconds) and a common term has a few dozen rows to sum between folds.
 */
export const FOLD_SHARE = 1 / 32;

/**
 * Folds the project's term changes that this statement sees into its totals, unless another
 * transaction is folding them (then it leaves them to it: nothing waits). One statement, so it
 * runs as its own transaction on a pool as well as inside a caller's: the fold's lock is taken
 * before the changes are read, and a change another fold deleted first is not returned by this
 * one's DELETE. Changes committed after this statement's snapshot stay for the next fold.
 * Returns whether it folded.
 */
export async function foldTermChanges(client: ClientBase | Pool, project: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>(
    `WITH lk AS (SELECT pg_try_advisory_xact_lock($2, hashtext($1)) AS locked),
     gone AS (DELETE FROM memory_term_changes WHERE project = $1 AND (SELECT locked FROM lk) RETURNING term, d),
     added AS (
       INSERT INTO memory_term_counts AS c (project, term, n)
         SELECT $1, term, sum(d) FROM gone GROUP BY term ORDER BY term
       ON CONFLICT (project, term) DO UPDATE SET n = c.n + excluded.n
     )
     SELECT locked FROM lk`,
    [project, FOLD_LOCK],
  );
  return rows[0]!.locked;
}

/** Counts read for one search: TermStats, and what core's uncountedKeywords.ts asks for (KeptCounts). */
export type CountedTerms = TermStats & KeptCounts;

/**
 * The counts of `terms` (each as held in the description and tags and as a content term), of
 * `tags` and of `stems`, and the number of live memories, in the snapshot of the transaction `client` is in.
 * `df` is a term's document frequency: how many live memories hold it in either way.
 */
export async function termStats(
  client: ClientBase,
  project: string,
  terms: readonly string[],
  tags: readonly string[],
  stems: readonly string[] = [],
): Promise<CountedTerms> {
  const asked = [
    LIVE_TERM,
    ...terms.flatMap((t) => [t, CONTENT_MARK + t]),
    ...tags.map((t) => TAG_MARK + t),
    ...stems.map((s) => STEM_MARK + s),
  ];
  const { rows } = await client.query<{ term: string; n: number }>(
    `SELECT term, sum(n)::float8 AS n FROM (
       SELECT term, n FROM memory_term_counts WHERE project = $1 AND term = ANY ($2::text[])
       UNION ALL
       SELECT term, d FROM memory_term_changes WHERE project = $1 AND term = ANY ($2::text[])
     ) c GROUP BY term`,
    [project, asked],
  );
  const count = new Map(rows.map((r) => [r.term, Number(r.n)]));
  const lexeme = (l: string) => count.get(l) ?? 0;
  return {
    live: lexeme(LIVE_TERM),
    df: (term) => lexeme(term) + lexeme(CONTENT_MARK + term),
    text: lexeme,
    content: (term) => lexeme(CONTENT_MARK + term),
    tagged: (tag) => lexeme(TAG_MARK + tag),
    stemmed: (stem) => lexeme(STEM_MARK + stem),
  };
}
