/**
 * Versioned records of the other tiers (src/core/ports/records.ts), kept as memories are:
 * append-only version rows, a head per (kind, id) moved forward in the inserting
 * transaction and carrying the lookup columns, tombstones of purged ids. Timestamps are
 * timestamptz, read back with toISOString() as memory rows are (the rows hold ISO UTC
 * with milliseconds, so they come back as written). Twins as in version 2.
 * Schema version 4 (migrations.ts).
 */
export const RECORDS_SCHEMA = `
      CREATE TABLE record_versions (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project text NOT NULL,
        row_id text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        op text NOT NULL CHECK (op IN ('create', 'edit', 'delete', 'restore')),
        status text COLLATE "C" NOT NULL,
        key0 text COLLATE "C" NOT NULL,
        key1 text COLLATE "C" NOT NULL,
        key2 text COLLATE "C" NOT NULL,
        rank double precision NOT NULL,
        due_at timestamptz,
        data jsonb NOT NULL,
        changed_at timestamptz NOT NULL,
        deleted_at timestamptz,
        author text NOT NULL,
        twin boolean NOT NULL DEFAULT false,
        UNIQUE (project, row_id)
      );
      CREATE UNIQUE INDEX record_versions_number ON record_versions (project, kind, id, version) WHERE NOT twin;
      CREATE INDEX record_versions_by_id ON record_versions (project, kind, id, version);
      CREATE INDEX record_versions_export ON record_versions (project, seq);

      -- The current version of each (kind, id) and the columns queries filter and sort on, so
      -- a query reads the history only for the rows it returns (by seq).
      CREATE TABLE record_heads (
        project text NOT NULL,
        kind text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        row_id text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        max_version integer NOT NULL,
        status text COLLATE "C" NOT NULL,
        key0 text COLLATE "C" NOT NULL,
        key1 text COLLATE "C" NOT NULL,
        key2 text COLLATE "C" NOT NULL,
        rank double precision NOT NULL,
        due_at timestamptz,
        changed_at timestamptz NOT NULL,
        deleted_at timestamptz,
        deleted boolean GENERATED ALWAYS AS (deleted_at IS NOT NULL) STORED,
        PRIMARY KEY (project, kind, id)
      );
      -- Each lookup column after (project, kind, deleted), then the query order, so an equality
      -- match is read in order and a LIMIT stops early.
      CREATE INDEX record_heads_by_rank ON record_heads (project, kind, deleted, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_key0 ON record_heads (project, kind, deleted, key0, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_key1 ON record_heads (project, kind, deleted, key1, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_key2 ON record_heads (project, kind, deleted, key2, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_status ON record_heads (project, kind, deleted, status, rank DESC, changed_at DESC, id DESC);
      CREATE INDEX record_heads_due ON record_heads (project, kind, deleted, due_at) WHERE due_at IS NOT NULL;

      -- Purged ids: an import of an old export must not bring a purged record back.
      CREATE TABLE record_purged (
        project text NOT NULL,
        kind text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        purged_at timestamptz NOT NULL,
        PRIMARY KEY (project, kind, id)
      );
    `;
