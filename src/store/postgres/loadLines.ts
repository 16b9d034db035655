import { type Analysis, analyzeMemory, CONTENT_MARK } from '../../core/search/analysis';
import type { StoredVersion } from '../../core/ports/store';
import { room } from '../../core/typedArrays';
import type { CopyRows } from './copyRows';
import { LIVE_TERM, STEM_MARK, TAG_MARK } from './termCounts';

// A load's rows for its binary COPYs (bulkLoad.ts, copyRows.ts): the versions' written in the
// load's own thread, the heads' in its worker threads (loadThreads.ts).
//
// The versions: the columns versionPayload gives an import's statement.
//
// The heads: an import inserts them through statements whose triggers stamp each head (its
// transaction, its count of own terms) and count its search terms
// (termCounts.ts); at 1M memories those triggers were most of the server's time for the heads
// (about 40 of 60 µs a head, measured on 200k: the statement-level count calls
// agent_memory_counted_terms once a head). A load turns those three triggers off for its
// transaction and does their work here, once: the same values, written with the rows.

/** The version columns a load copies, in the order `versionLine` writes them (seq is the table's own; db_role its trigger's). */
export const VERSION_COLUMNS = `project, row_id, id, version, op, description, tags, content, changed_at, deleted_at, author, restored_from,
  citations, channel, proposed_by, twin`;

/** The head columns a load copies, in the order `headLine` writes them (`deleted` is generated). */
export const HEAD_COLUMNS =
  'project, id, seq, row_id, version, changed_at, deleted_at, max_version, description, tags, tag_stems, search_vector, xid, own_terms';

/** Fields in a version's row and in a head's. */
const VERSION_FIELDS = VERSION_COLUMNS.split(',').length;
const HEAD_FIELDS = HEAD_COLUMNS.split(',').length;

/** The heads' triggers whose work headLine and HeadCounts do: turned off for a load's transaction only. */
export const LOADED_HEAD_TRIGGERS = ['memory_heads_xid', 'memory_heads_own_terms', 'memory_heads_terms_insert'];

/** What a load keeps of a head until it writes it. */
export interface LoadedHead {
  row: StoredVersion;
  seq: number;
  /** The highest number any of its id's rows holds. */
  maxVersion: number;
}

/** One version's row: the values versionPayload gives an import's statement, `twin` as twinFlags decided it. */
export function versionLine(out: CopyRows, project: string, r: StoredVersion, twin: boolean): void {
  out
    .row(VERSION_FIELDS)
    .text(project)
    .text(r.rowId)
    .text(r.id)
    .int4(r.version)
    .text(r.op)
    .text(r.description)
    .textArray(r.tags)
    .text(r.content)
    .timestamptz(r.changedAt)
    .timestamptz(r.deletedAt)
    .text(r.author)
    .int4(r.restoredFrom)
    .jsonb(r.citations?.length ? JSON.stringify(r.citations) : null)
    .text(r.channel)
    .text(r.proposedBy)
    .bool(twin);
}

/**
 * Writes `head`'s row, as the import's statement and the heads' triggers would store it in
 * transaction `xid`, and counts its terms into `counts`. The analysis's terms are distinct, and
 * its content terms distinct and none of its terms (analysis.ts): the lexemes as given.
 */
export function headLine(out: CopyRows, project: string, head: LoadedHead, xid: bigint, counts: HeadCounts): void {
  const r = head.row;
  const a = analyzeMemory(r);
  out
    .row(HEAD_FIELDS)
    .text(project)
    .text(r.id)
    .int8(BigInt(head.seq))
    .text(r.rowId)
    .int4(r.version)
    .timestamptz(r.changedAt)
    .timestamptz(r.deletedAt)
    .int4(head.maxVersion)
    .text(r.description)
    .textArray(r.tags)
    .textArray(a.tagStems)
    .tsvector(a.terms, a.contentTerms, CONTENT_MARK)
    .int8(xid)
    // agent_memory_own_terms: the lexemes that are not content terms.
    .int4(a.terms.length);
  if (r.deletedAt === null || r.deletedAt === undefined) counts.add(a, r.tags);
}

/**
 * What the term-count trigger (termCounts.ts, agent_memory_count_terms) adds for a statement that
 * inserts live heads, summed over a load's heads: each is counted under the live term, each of
 * its lexemes (its terms, and its content terms with CONTENT_MARK), each of its distinct tags
 * (TAG_MARK) and each of its tag stems (STEM_MARK), as agent_memory_counted_terms lists them.
 * Kept by kind, unmarked (the analysis's strings are shared: no string is made to count one).
 */
export class HeadCounts {
  private live = 0;
  private readonly terms = new Tally();
  private readonly contentTerms = new Tally();
  private readonly tags = new Tally();
  private readonly stems = new Tally();

  add(a: Pick<Analysis, 'terms' | 'contentTerms' | 'tagStems'>, tags: readonly string[]): void {
    this.live++;
    for (const t of a.terms) this.terms.add(t);
    for (const t of a.contentTerms) this.contentTerms.add(t);
    for (let i = 0; i < tags.length; i++) if (tags.indexOf(tags[i]!) === i) this.tags.add(tags[i]!);
    for (const s of a.tagStems) this.stems.add(s);
  }

  /** The marked terms and their counts, as two arrays in the same order. */
  columns(): { terms: string[]; counts: number[] } {
    const terms: string[] = [];
    const counts: number[] = [];
    if (this.live) {
      terms.push(LIVE_TERM);
      counts.push(this.live);
    }
    for (const [kind, mark] of [
      [this.terms, ''],
      [this.contentTerms, CONTENT_MARK],
      [this.tags, TAG_MARK],
      [this.stems, STEM_MARK],
    ] as const)
      kind.forEach((t, n) => {
        terms.push(mark + t);
        counts.push(n);
      });
    return { terms, counts };
  }
}

/** Counts of strings: a string's number found once a count (a count kept in a map cost a lookup to read it and another to write it). */
class Tally {
  private readonly numbers = new Map<string, number>();
  private counts = new Int32Array(1024);

  add(key: string): void {
    const n = this.numbers.get(key);
    if (n !== undefined) this.counts[n]!++;
    else {
      const next = this.numbers.size;
      this.numbers.set(key, next);
      this.counts = room(this.counts, next);
      this.counts[next] = 1;
    }
  }

  forEach(fn: (key: string, count: number) => void): void {
    for (const [key, n] of this.numbers) fn(key, this.counts[n]!);
  }
}
