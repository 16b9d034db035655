import { RECORDS_SCHEMA } from './recordsSchema';
import { OWN_TERMS_SCHEMA } from './serverSimilar';
import { LIVE_COUNT_SCHEMA, TERM_COUNTS_SCHEMA } from './termCounts';

/**
 * The PostgreSQL schema, versioned in `agent_memory_schema`. Every table carries the
 * project key, so one database holds many repositories' memories apart. Ids and row ids
 * are COLLATE "C" so the database orders them as JavaScript compares strings (the
 * tie-breaks of versions and search results must agree with the workspace store).
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE agent_memory_meta (key text PRIMARY KEY, value text NOT NULL);

      -- Append-only: a row is inserted once and never updated; only a purge deletes rows.
      CREATE TABLE memory_versions (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project text NOT NULL,
        row_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        op text NOT NULL CHECK (op IN ('create', 'edit', 'delete', 'restore')),
        description text NOT NULL,
        tags text[] NOT NULL,
        content text NOT NULL,
        changed_at timestamptz NOT NULL,
        deleted_at timestamptz,
        author text NOT NULL,
        restored_from integer,
        UNIQUE (project, row_id),
        -- The backstop against two writers giving out one version number (see version 2).
        UNIQUE (project, id, version)
      );
      CREATE INDEX memory_versions_export ON memory_versions (project, seq);

      -- The current version of every id, kept in the transaction that inserts a version,
      -- so reads, listings and searches never scan the history. description, tags and the
      -- analysed terms are copied here so a search touches this table only.
      CREATE TABLE memory_heads (
        project text NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        row_id text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        changed_at timestamptz NOT NULL,
        deleted_at timestamptz,
        deleted boolean GENERATED ALWAYS AS (deleted_at IS NOT NULL) STORED,
        max_version integer NOT NULL,
        description text NOT NULL,
        tags text[] NOT NULL,
        tag_stems text[] NOT NULL,
        search_vector tsvector NOT NULL,
        PRIMARY KEY (project, id)
      );
      CREATE INDEX memory_heads_by_change ON memory_heads (project, deleted, changed_at DESC, id DESC);
      CREATE INDEX memory_heads_terms ON memory_heads USING gin (search_vector) WHERE NOT deleted;
      CREATE INDEX memory_heads_tags ON memory_heads USING gin (tags) WHERE NOT deleted;
      CREATE INDEX memory_heads_tag_stems ON memory_heads USING gin (tag_stems) WHERE NOT deleted;

      -- The tags of live memories, one row each: the vocabulary with counts, and tag prefix
      -- lookups (a btree range in "C" order), without reading every head.
      CREATE TABLE memory_head_tags (
        project text NOT NULL,
        tag text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        PRIMARY KEY (project, tag, id)
      );

      -- Purged ids: an import of an old export must not bring a purged memory back.
      CREATE TABLE memory_purged (
        project text NOT NULL,
        id text COLLATE "C" NOT NULL,
        purged_at timestamptz NOT NULL,
        PRIMARY KEY (project, id)
      );
    `,
  },
  {
    // Journals merged through git can hold two rows of one id with the same version number
    // (two clones both edited version n). Such a row is imported as a twin: kept as it is, with
    // its number, exactly as the workspace store keeps it. The uniqueness that stops two
    // writers giving out one number now covers every row but twins, so a write still collides
    // with (and retries after) any row another transaction numbered first.
    version: 2,
    sql: `
      ALTER TABLE memory_versions ADD COLUMN twin boolean NOT NULL DEFAULT false;
      ALTER TABLE memory_versions DROP CONSTRAINT memory_versions_project_id_version_key;
      CREATE UNIQUE INDEX memory_versions_number ON memory_versions (project, id, version) WHERE NOT twin;
      CREATE INDEX memory_versions_by_id ON memory_versions (project, id, version);
    `,
  },
  {
    // Two things search needs. The local search index of long-lived clients (localIndex.ts) catches up on what changed
    // since its last look. A trigger stamps every head and purge row with the id of the
    // transaction that wrote it (xid8: 64 bits, no wraparound), whatever code wrote it, and
    // catch-up asks for ids at or above the xmin of its previous snapshot: ordered by
    // transaction, so a writer that committed late is not missed as with a sequence.
    version: 3,
    sql: `
      CREATE FUNCTION agent_memory_stamp_xid() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN NEW.xid := pg_current_xact_id(); RETURN NEW; END';
      ALTER TABLE memory_heads ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
      CREATE TRIGGER memory_heads_xid BEFORE INSERT OR UPDATE ON memory_heads FOR EACH ROW EXECUTE FUNCTION agent_memory_stamp_xid();
      CREATE INDEX memory_heads_by_xid ON memory_heads (project, xid);
      ALTER TABLE memory_purged ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
      CREATE TRIGGER memory_purged_xid BEFORE INSERT OR UPDATE ON memory_purged FOR EACH ROW EXECUTE FUNCTION agent_memory_stamp_xid();
      CREATE INDEX memory_purged_by_xid ON memory_purged (project, xid);

      -- Live memories per project, for the server-side search's IDF, so it does not count the
      -- heads on every search. Kept by deferred triggers: each row change adds its +1/-1 at
      -- commit, when the transaction holds every head lock it will take, so the counter lock
      -- (taken last) cannot be part of a deadlock. The count is split across 16 rows, chosen
      -- by the backend, so concurrent writers rarely queue on one row; a search sums them.
      CREATE TABLE memory_live_counts (
        project text NOT NULL,
        shard integer NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (project, shard)
      );
      INSERT INTO memory_live_counts (project, shard, n)
        SELECT project, 0, count(*) FROM memory_heads WHERE NOT deleted GROUP BY project;
      CREATE FUNCTION agent_memory_count_live() RETURNS trigger LANGUAGE plpgsql AS '
        DECLARE
          delta integer := CASE WHEN TG_OP = ''DELETE'' THEN -1 WHEN TG_OP = ''INSERT'' THEN 1
                                WHEN NEW.deleted THEN -1 ELSE 1 END;
          p text := CASE WHEN TG_OP = ''DELETE'' THEN OLD.project ELSE NEW.project END;
        BEGIN
          INSERT INTO memory_live_counts AS c (project, shard, n) VALUES (p, pg_backend_pid() % 16, delta)
            ON CONFLICT (project, shard) DO UPDATE SET n = c.n + excluded.n;
          RETURN NULL;
        END';
      CREATE CONSTRAINT TRIGGER memory_heads_live_insert AFTER INSERT ON memory_heads DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NOT NEW.deleted) EXECUTE FUNCTION agent_memory_count_live();
      CREATE CONSTRAINT TRIGGER memory_heads_live_update AFTER UPDATE ON memory_heads DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (OLD.deleted IS DISTINCT FROM NEW.deleted) EXECUTE FUNCTION agent_memory_count_live();
      CREATE CONSTRAINT TRIGGER memory_heads_live_delete AFTER DELETE ON memory_heads DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NOT OLD.deleted) EXECUTE FUNCTION agent_memory_count_live();
    `,
  },
  {
    // Versioned records of the other tiers, kept as memories are (recordsSchema.ts).
    version: 4,
    sql: RECORDS_SCHEMA,
  },
  {
    // Citations of code (src/core/contract/citations.ts) on the versions that have them.
    version: 5,
    sql: `ALTER TABLE memory_versions ADD COLUMN citations jsonb;`,
  },
  {
    // Who purged (the purging service's author), as the workspace journal's purge lines say it;
    // null on tombstones written before it was recorded.
    version: 6,
    sql: `
      ALTER TABLE memory_purged ADD COLUMN purged_by text;
      ALTER TABLE record_purged ADD COLUMN purged_by text;
    `,
  },
  {
    // Who did what (core/ports/origin.ts): each version's channel and, for what approving wrote,
    // its proposer, as the client says them; and the database role that inserted it, set by the
    // database whatever the client sent. Roles set up by \`agent-memory db grant\` (roles.ts) are
    // listed in agent_memory_roles: one that is not an approver cannot write a decided proposal
    // (no version and no head of a proposal other than pending), whatever SQL it runs.
    version: 7,
    sql: `
      ALTER TABLE memory_versions ADD COLUMN channel text, ADD COLUMN proposed_by text, ADD COLUMN db_role text;
      ALTER TABLE record_versions ADD COLUMN channel text, ADD COLUMN proposed_by text, ADD COLUMN db_role text;
      CREATE FUNCTION agent_memory_stamp_role() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN NEW.db_role := current_user; RETURN NEW; END';
      CREATE TRIGGER memory_versions_role BEFORE INSERT ON memory_versions FOR EACH ROW EXECUTE FUNCTION agent_memory_stamp_role();
      CREATE TRIGGER record_versions_role BEFORE INSERT ON record_versions FOR EACH ROW EXECUTE FUNCTION agent_memory_stamp_role();

      CREATE TABLE agent_memory_roles (
        role name PRIMARY KEY,
        approver boolean NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now(),
        granted_by name NOT NULL DEFAULT current_user
      );
      CREATE FUNCTION agent_memory_check_decision() RETURNS trigger LANGUAGE plpgsql AS $f$
        BEGIN
          -- A decision shows in the status column (heads and versions) and in a version's data.
          IF NEW.kind = 'proposal'
             AND (NEW.status <> 'pending' OR jsonb_typeof(to_jsonb(NEW) -> 'data' -> 'decision') = 'object')
             AND EXISTS (SELECT 1 FROM agent_memory_roles WHERE role = current_user AND NOT approver) THEN
            RAISE EXCEPTION 'database role % may not decide proposals: it is not an approver', current_user
              USING ERRCODE = '42501', HINT = 'the database owner runs: agent-memory db grant ' || current_user || ' --approver';
          END IF;
          RETURN NEW;
        END
      $f$;
      CREATE TRIGGER record_versions_decision BEFORE INSERT OR UPDATE ON record_versions
        FOR EACH ROW EXECUTE FUNCTION agent_memory_check_decision();
      CREATE TRIGGER record_heads_decision BEFORE INSERT OR UPDATE ON record_heads
        FOR EACH ROW EXECUTE FUNCTION agent_memory_check_decision();
    `,
  },
  {
    // How many live memories hold each search term, kept by the heads' triggers (termCounts.ts),
    // so a search weighs a keyword's words without counting the memories they reach.
    version: 8,
    sql: TERM_COUNTS_SCHEMA,
  },
  {
    // The tags' and tag stems' GIN indexes over every head, deleted ones too (few): the planner
    // ANDs two bitmaps only when their indexes' predicates differ, so with all three partial on
    // NOT deleted a block of one tag, one stem and three words was read as the 31,172 rows
    // holding the words, tested on the heap (28,000 pages at 1M, 670–900 ms); now the three
    // indexes' bitmaps are ANDed and only the block's 263 rows read (about 125 ms). Rebuilt in
    // the migration's transaction: about 6 s at 1M memories.
    version: 9,
    sql: `
      DROP INDEX memory_heads_tags;
      CREATE INDEX memory_heads_tags ON memory_heads USING gin (tags);
      DROP INDEX memory_heads_tag_stems;
      CREATE INDEX memory_heads_tag_stems ON memory_heads USING gin (tag_stems);
    `,
  },
  {
    // Writers lock a memory's head row, not its advisory lock (writeVersion.ts): a write is one
    // statement when nothing races it. Purges take both. A release before this one would write
    // under the advisory lock alone, beside purges that no longer serialise with it: refused.
    version: 10,
    sql: `
      COMMENT ON TABLE memory_heads IS 'Agent Memory: the current version of each memory. Writers lock the row (SELECT ... FOR UPDATE) before they insert a version of its id; purges lock it before they delete.';
    `,
  },
  {
    // How many description and tag terms a head has, kept by a row trigger (serverSimilar.ts), so
    // a likely-duplicate check need not unnest every memory it reads. No table rewrite.
    version: 11,
    sql: OWN_TERMS_SCHEMA,
  },
  {
    // One GIN index over a live head's terms, tags and tag stems in place of one per column: a
    // block's words, tag and stem are then one index scan that steps through its lists together
    // (skipping what one list lacks) instead of three bitmaps of every memory each condition
    // reaches, ANDed afterwards. At 1M, `cache config update`'s best block (263 of 31k-46k a
    // condition) 57 -> 25 ms, a rare compound tag of common words 25 -> 8 ms; one insert per
    // write instead of three. Built in the migration's transaction: about 16 s at 1M memories.
    version: 12,
    sql: `
      CREATE INDEX memory_heads_search ON memory_heads USING gin (search_vector, tags, tag_stems) WHERE NOT deleted;
      DROP INDEX memory_heads_terms;
      DROP INDEX memory_heads_tags;
      DROP INDEX memory_heads_tag_stems;
    `,
  },
  {
    // The live count kept by the statement-level term-count trigger instead of deferred row
    // triggers whose commit took time in the square of the heads a transaction changed.
    version: 13,
    sql: LIVE_COUNT_SCHEMA,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
