import type { Pool } from 'pg';
import type { SearchQuery } from '../../core/search/query';
import { splitTerms } from '../../core/search/analysis';
import { ANALYZER_VERSION, SearchIndex } from '../../core/search/searchIndex';
import type { StoredHit } from '../../core/ports/store';
import { LIVE_COUNT_SQL } from './termCounts';

/**
 * Where a PgStore ranks searches. `background` (the default): the first search is answered by
 * the server while the project's live memories load into a local index, later ones locally;
 * `eager`: the first search waits for the load; `off`: always on the server.
 */
export type LocalIndexMode = 'background' | 'eager' | 'off';

/** Live heads per query while loading: small enough that filing a page blocks the event loop briefly. */
const PAGE = 2000;

interface HeadRow {
  id: string;
  description: string;
  tags: string[];
  changed_at: Date;
  terms: string[];
  tag_stems: string[];
  /** Only when the stored terms are another release's (the memory is analysed here). */
  content: string | null;
}

interface ChangeRow {
  /** 'h' a head (live or deleted), 'p' a purged id, 'x' the snapshot's xmin (in `id`). */
  kind: 'h' | 'p' | 'x';
  id: string;
  description: string | null;
  tags: string[] | null;
  changed_at: Date | null;
  live: boolean;
  terms: string[] | null;
  tag_stems: string[] | null;
  content: string | null;
}

/**
 * A core `SearchIndex` of one project's current, non-deleted memories, kept in this process,
 * so a long-lived client (the extension, the MCP server) ranks with exactly the workspace
 * store's code and pays only a small catch-up query per search.
 *
 * Catch-up is ordered by transaction, not by a sequence: a trigger stamps every head and
 * purge row with the writing transaction's id (`xid`, a 64-bit xid8, schema version 3), and
 * each catch-up statement also returns the xmin of its own snapshot, the oldest transaction
 * still running then. Every transaction below that xmin had finished, so its changes were
 * visible to that statement; a change the statement could not see comes from a transaction
 * at or above it. The next catch-up asks for `xid >= xmin`, so a transaction that took its
 * id early and committed late is still found, with no window to guess. Rows come back as
 * they are now, so reading one twice is harmless. Catch-ups run one at a time.
 */
export class LocalIndex {
  private index: SearchIndex | undefined;
  /** The xmin of the last snapshot whose changes are all in `index`. */
  private watermark = '0';
  /** The heads' stored terms are this release's analysis: filed as they are, else analysed here (with the content). */
  private sameAnalysis = true;
  private loading: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The project outgrew `max`: searches stay on the server for this process. */
  private tooLarge = false;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly project: string,
    private readonly mode: LocalIndexMode,
    private readonly max: number,
    private readonly onLoadFailed: (err: unknown) => void,
  ) {}

  /** Memories held, or undefined when there is no index (not loaded, off, too large). */
  get size(): number | undefined {
    return this.index?.size;
  }

  /**
   * Searches locally after catching up, or returns undefined when the server must answer
   * (mode off, project too large, index still loading in the background).
   */
  search(query: SearchQuery): Promise<StoredHit[] | undefined> {
    return this.answer((index) =>
      index.search(query).map((h) => ({ id: h.id, description: h.description, tags: h.tags, changedAt: h.changedAt })),
    );
  }

  /** `SearchIndex.similar` after catching up, or undefined as for search. */
  similar(terms: ReadonlySet<string>, min: number, limit: number): Promise<Array<StoredHit & { similarity: number }> | undefined> {
    return this.answer((index) => index.similar(terms, min, limit));
  }

  /** `ask` of the caught-up index, or undefined when there is none to ask (see search). */
  private async answer<T>(ask: (index: SearchIndex) => T): Promise<T | undefined> {
    if (this.mode === 'off' || this.tooLarge || this.stopped) return undefined;
    if (!this.index) {
      if (this.mode === 'eager') await this.load();
      else void this.load().catch((err: unknown) => this.onLoadFailed(err));
      if (!this.index) return undefined;
    }
    return this.serially(async () => {
      // An earlier catch-up in the queue may have found the project grown past the bound.
      if (!this.index) return undefined;
      await this.catchUp();
      return this.index ? ask(this.index) : undefined;
    });
  }

  /** Loads the index once; a failed load may be tried again by a later search. */
  load(): Promise<void> {
    this.loading ??= this.build().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  /** Stops a load in progress (after its current page) and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loading?.catch(() => undefined);
    await this.queue.catch(() => undefined);
  }

  private async build(): Promise<void> {
    // Taken before the first page: anything a page misses was written by a transaction at
    // or above this xmin, and the first catch-up reads it again (see the class comment).
    const { rows: snap } = await this.pool.query<{ xmin: string; analyzer: string | null; live: number }>(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, (SELECT value FROM agent_memory_meta WHERE key = 'analyzer') AS analyzer,
         ${LIVE_COUNT_SQL} AS live`,
      [this.project],
    );
    // Too large already (the live count, kept by the write path: termCounts.ts): reading up to `max` heads only
    // to drop them cost every client of a large project seconds of CPU and its heap.
    if (snap[0]!.live > this.max) {
      this.tooLarge = true;
      return;
    }
    // The heads keep core's analysis of each memory (versionRows.ts); made by this release's
    // analyser, it is used as it is, which halves the load. Otherwise every memory is analysed
    // here, its content read from its version row.
    this.sameAnalysis = snap[0]!.analyzer === String(ANALYZER_VERSION);
    const index = new SearchIndex();
    let after = '';
    for (;;) {
      if (this.stopped) return;
      const { rows } = await this.pool.query<HeadRow>(
        `SELECT h.id, h.description, h.tags, h.changed_at, tsvector_to_array(h.search_vector) AS terms, h.tag_stems, ${this.contentColumn()}
         FROM memory_heads h WHERE h.project = $1 AND NOT h.deleted AND h.id > $2 ORDER BY h.id LIMIT $3`,
        [this.project, after, PAGE],
      );
      for (const r of rows) this.file(index, r);
      if (index.size > this.max) {
        this.tooLarge = true;
        return;
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    this.watermark = snap[0]!.xmin;
    this.index = index;
  }

  private async catchUp(): Promise<void> {
    const { rows } = await this.pool.query<ChangeRow>(
      `SELECT 'h' AS kind, h.id, h.description, h.tags, h.changed_at, NOT h.deleted AS live,
         tsvector_to_array(h.search_vector) AS terms, h.tag_stems, ${this.contentColumn()}
       FROM memory_heads h WHERE h.project = $1 AND h.xid >= $2::xid8
       UNION ALL SELECT 'p', id, NULL, NULL, NULL, false, NULL, NULL, NULL FROM memory_purged WHERE project = $1 AND xid >= $2::xid8
       UNION ALL SELECT 'x', pg_snapshot_xmin(pg_current_snapshot())::text, NULL, NULL, NULL, false, NULL, NULL, NULL`,
      [this.project, this.watermark],
    );
    const index = this.index!;
    let xmin = this.watermark;
    for (const r of rows) {
      if (r.kind === 'x') xmin = r.id;
      else if (r.kind === 'h' && r.live) this.file(index, r as HeadRow);
      else index.remove(r.id);
    }
    this.watermark = xmin;
    if (index.size > this.max) {
      this.tooLarge = true;
      this.index = undefined;
    }
  }

  /** The content of a head's version, read only when the memory is to be analysed here. */
  private contentColumn(): string {
    return this.sameAnalysis ? 'NULL::text AS content' : '(SELECT v.content FROM memory_versions v WHERE v.seq = h.seq) AS content';
  }

  /** Files a head: with its stored analysis when it is this release's, else analysed from its text. */
  private file(index: SearchIndex, r: HeadRow): void {
    const memory = { id: r.id, description: r.description, tags: r.tags, changedAt: r.changed_at.toISOString() };
    if (this.sameAnalysis) index.putAnalyzed(memory, { ...splitTerms(r.terms), tagStems: r.tag_stems });
    else index.put({ ...memory, content: r.content ?? '' });
  }

  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
