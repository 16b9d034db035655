import { FOLD_LOCK } from './termCounts';

// The statements that put memory versions into the team database, as server functions (schema
// version 9), so a write is one call instead of a conversation: a write's transaction used to
// take seven round trips (BEGIN, the id's lock, the head read, the version insert, the heads'
// lock, the heads' update, COMMIT), and under load every round trip waits for the server's turn
// on a busy machine (16 clients on 2 cores: about 15 ms each, so a write took 165 ms at 1M while
// a read, one round trip, took 17). Imports call the same functions per batch
// (versionRows.ts), so there is one implementation of each step.
//
// Every function runs as the caller (SECURITY INVOKER, the default): a member role may do through
// them exactly what its table rights allow (roles.ts). Each statement of a PL/pgSQL function
// takes its own snapshot (READ COMMITTED), so what a function reads after taking a lock is what
// was committed before the lock was granted, as the separate statements read it before.

/** Schema version 9: the functions. */
export const WRITE_FUNCTIONS_SCHEMA = `
  -- Inserts version rows (in the given order) that are not stored yet by row_id and whose id was
  -- not purged; returns the inserted rows. A row whose (id, version) is taken by another row fails
  -- the statement (the UNIQUE backstop) unless p_twins (imports): it then goes in as a twin. Two
  -- rows of one call sharing a number: the later one is marked twin by the caller (the
  -- statement's own rows are not visible to its EXISTS check, stored rows are).
  CREATE OR REPLACE FUNCTION agent_memory_insert_versions(p_project text, p_rows jsonb, p_twins boolean)
    RETURNS TABLE (row_id text, seq bigint, db_role text) LANGUAGE plpgsql AS $f$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      INSERT INTO memory_versions AS v (project, row_id, id, version, op, description, tags, content, changed_at, deleted_at, author,
        restored_from, citations, channel, proposed_by, twin)
      SELECT p_project, r.row_id, r.id, r.version, r.op, r.description, r.tags, r.content, r.changed_at, r.deleted_at, r.author,
        r.restored_from, r.citations, r.channel, r.proposed_by,
        r.twin OR (p_twins AND EXISTS (SELECT 1 FROM memory_versions o
          WHERE o.project = p_project AND o.id = r.id AND o.version = r.version AND o.row_id <> r.row_id))
      FROM jsonb_to_recordset(p_rows) AS r(ord int, row_id text, id text, version int, op text, description text, tags text[],
        content text, changed_at timestamptz, deleted_at timestamptz, author text, restored_from int, citations jsonb, channel text,
        proposed_by text, twin boolean)
      WHERE NOT EXISTS (SELECT 1 FROM memory_purged p WHERE p.project = p_project AND p.id = r.id)
      ORDER BY r.ord
      ON CONFLICT (project, row_id) DO NOTHING
      RETURNING v.row_id::text, v.seq, v.db_role;
    END
  $f$;

  -- Moves heads forward (p_heads: one object per id, sorted by id, carrying the new version's
  -- seq and its analysed terms). Monotonic: only a newer version (changed_at, version, row_id)
  -- replaces a head; the highest version number is kept either way. The heads are locked first,
  -- in the given (id) order, so two calls cannot deadlock, and their tags are read as last
  -- committed: imports take no per-id lock, and the tag rows the update replaces are those of
  -- the tags the heads have now. Each old tag row goes by primary key (a LATERAL lookup that
  -- OFFSET 0 keeps apart), whatever the planner's statistics say about the project.
  CREATE OR REPLACE FUNCTION agent_memory_advance_heads(p_project text, p_heads jsonb) RETURNS void LANGUAGE plpgsql AS $f$
    #variable_conflict use_column
    DECLARE
      was_ids text[];
      was_tags text[];
    BEGIN
      SELECT coalesce(array_agg(l.id ORDER BY l.ord), '{}'), coalesce(array_agg(l.tag ORDER BY l.ord), '{}') INTO was_ids, was_tags
      FROM (
        SELECT u.ord, h.id, tag FROM jsonb_array_elements(p_heads) WITH ORDINALITY AS u(head, ord)
          CROSS JOIN LATERAL (SELECT m.id, m.tags, m.deleted FROM memory_heads m WHERE m.project = p_project AND m.id = u.head ->> 'id' FOR UPDATE) h
          CROSS JOIN LATERAL unnest(h.tags) AS tag
        WHERE NOT h.deleted
      ) l;
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(p_heads) AS r(id text, seq bigint, row_id text, version int, changed_at timestamptz,
          deleted_at timestamptz, max_version int, description text, tags text[], tag_stems text[], terms text[])
      ), was AS (
        SELECT * FROM unnest(was_ids, was_tags) AS was(id, tag)
      ), up AS (
        INSERT INTO memory_heads AS h (project, id, seq, row_id, version, changed_at, deleted_at, max_version, description, tags, tag_stems, search_vector)
        SELECT p_project, r.id, r.seq, r.row_id, r.version, r.changed_at, r.deleted_at, r.max_version, r.description, r.tags, r.tag_stems,
          array_to_tsvector(r.terms)
        FROM r ORDER BY r.id
        ON CONFLICT (project, id) DO UPDATE SET
          seq = excluded.seq, row_id = excluded.row_id, version = excluded.version, changed_at = excluded.changed_at,
          deleted_at = excluded.deleted_at, max_version = greatest(h.max_version, excluded.max_version),
          description = excluded.description, tags = excluded.tags, tag_stems = excluded.tag_stems, search_vector = excluded.search_vector
        WHERE (excluded.changed_at, excluded.version, excluded.row_id) > (h.changed_at, h.version, h.row_id)
        RETURNING h.id, h.tags, h.deleted_at
      ), older AS (
        UPDATE memory_heads h SET max_version = r.max_version FROM r
        WHERE h.project = p_project AND h.id = r.id AND h.max_version < r.max_version AND r.id NOT IN (SELECT up.id FROM up)
      ), gone AS (
        DELETE FROM memory_head_tags t WHERE t.ctid = ANY (ARRAY(
          SELECT x.ctid FROM was JOIN up ON up.id = was.id
            CROSS JOIN LATERAL (SELECT m.ctid FROM memory_head_tags m WHERE m.project = p_project AND m.tag = was.tag AND m.id = was.id OFFSET 0) x
          WHERE up.deleted_at IS NOT NULL OR NOT (was.tag = ANY (up.tags))))
      )
      INSERT INTO memory_head_tags (project, tag, id)
      SELECT p_project, tag, up.id FROM up CROSS JOIN LATERAL unnest(up.tags) AS tag WHERE up.deleted_at IS NULL
      ON CONFLICT DO NOTHING;
    END
  $f$;

  -- Folds the project's term changes this statement sees into their totals (termCounts.ts), unless
  -- another transaction is folding them: then it leaves them (nothing waits) and returns false.
  CREATE OR REPLACE FUNCTION agent_memory_fold_terms(p_project text) RETURNS boolean LANGUAGE plpgsql AS $f$
    BEGIN
      IF NOT pg_try_advisory_xact_lock(${FOLD_LOCK}, hashtext(p_project)) THEN
        RETURN false;
      END IF;
      WITH gone AS (DELETE FROM memory_term_changes c WHERE c.project = p_project RETURNING c.term, c.d)
      INSERT INTO memory_term_counts AS c (project, term, n)
        SELECT p_project, gone.term, sum(gone.d) FROM gone GROUP BY gone.term ORDER BY gone.term
      ON CONFLICT (project, term) DO UPDATE SET n = c.n + excluded.n;
      RETURN true;
    END
  $f$;

  -- One write of one memory, in the caller's statement (one round trip): the id's lock (writers
  -- and purges of an id take turns), then, only if the head is still the one the caller decided
  -- on (p_expected: its seq, NULL for none), the version and the head, and the fold when asked.
  -- Outcome 'moved' (nothing written: read the head again and decide again), 'purged' (the id was
  -- purged: nothing written), or 'written' with the row's seq and the role the database recorded.
  CREATE OR REPLACE FUNCTION agent_memory_write(p_project text, p_id text, p_expected bigint, p_row jsonb, p_head jsonb, p_fold boolean)
    RETURNS TABLE (outcome text, seq bigint, db_role text) LANGUAGE plpgsql AS $f$
    #variable_conflict use_column
    DECLARE
      cur bigint;
      ins record;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext(p_project), hashtext(p_id));
      SELECT h.seq INTO cur FROM memory_heads h WHERE h.project = p_project AND h.id = p_id;
      IF cur IS DISTINCT FROM p_expected THEN
        RETURN QUERY SELECT 'moved'::text, NULL::bigint, NULL::text;
        RETURN;
      END IF;
      SELECT i.seq, i.db_role INTO ins FROM agent_memory_insert_versions(p_project, jsonb_build_array(p_row), false) AS i;
      IF NOT FOUND THEN
        RETURN QUERY SELECT 'purged'::text, NULL::bigint, NULL::text;
        RETURN;
      END IF;
      PERFORM agent_memory_advance_heads(p_project, jsonb_build_array(p_head || jsonb_build_object('seq', ins.seq)));
      IF p_fold THEN
        PERFORM agent_memory_fold_terms(p_project);
      END IF;
      RETURN QUERY SELECT 'written'::text, ins.seq, ins.db_role;
    END
  $f$;
`;
