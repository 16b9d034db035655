import type { SearchQuery } from '../../core/search/query';
import { CONTENT_MARK } from '../../core/search/analysis';
import { Held, queryTerms, type Signature } from '../../core/search/signatures';
import type { Shape } from '../../core/search/uncounted';
import type { PrefixedTag } from './prefixedTags';
import type { CountedTerms } from './termCounts';

/**
 * The statements of a search on the server, ranked by match signature (core's signatures.ts):
 * - (before them, prefixedTags.ts: the tags each keyword is a prefix of);
 * - `groups`: the live memories any keyword reaches (GIN on search_vector, tags, tag_stems),
 *   counted per signature: which query terms each holds, and per keyword its best tag match;
 * - `fetch`: the rows of the best groups only, most recently changed first, with LIMIT;
 * - `blocks`: the rows of blocks of a query ranked without counts (uncounted.ts).
 * Every value is a parameter; only the shape (how many terms, keywords and blocks, the bit
 * positions) is in the text.
 */

/** A signature as the server counted it; `key` names it in `fetch`. */
export interface PgSignature extends Signature {
  key: string;
  /** Of `count`, the memories carrying every required tag: those that may be returned. */
  eligible: number;
}

/** A group of signatures to fetch rows of, best first, and how many rows of it are wanted. */
export interface FetchBlock {
  signatures: PgSignature[];
  want: number;
}

/** A term as a one-lexeme tsquery, quoted (as `to_tsquery` would not). */
export function lexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The lexeme of a term held among a memory's content terms (analysis.ts, flatTerms). */
function contentLexeme(term: string): string {
  return lexeme(CONTENT_MARK + term);
}

/** A signature with the key `groups()` reports for it. */
export type Keyed = Shape & { key: string };

/**
 * How a block's rows are read (SearchStatements.blockRows): `{ size, counts }` by index, through
 * its rarest condition alone when that reaches few more memories than the block likely holds.
 */
type How = 'walk' | 'index' | { budget: number } | { size: number; counts: TermCounts };

/** The kept counts a block read by index chooses its conditions on (termCounts.ts). */
export type TermCounts = Pick<CountedTerms, 'text' | 'content' | 'tagged' | 'stemmed'>;

/**
 * A block is read through its rarest condition alone when that condition reaches at most this
 * many times the memories the block likely holds: the block's other conditions (implied by its
 * signatures, checked on each row read) would cut few rows, and walking their lists in the
 * index costs more than reading those rows (at 1M, a rare compound tag of two common words:
 * the tag alone 2.9 ms, the tag and the words 6.0 ms, for the same 1,355 rows).
 */
const RAREST_ALONE = 2;

/** Bits per digit of a signature key (a bigint, sign bit unused). */
const DIGIT_BITS = 62;

/** Where a field of the signature sits: the digit, the bit offset in it, its width. */
interface Field {
  digit: number;
  shift: number;
  width: number;
}

/** Lays fields of the given widths out in digits of DIGIT_BITS bits, none straddling two digits. */
function layout(widths: number[]): Field[] {
  let digit = 0;
  let shift = 0;
  return widths.map((width) => {
    if (shift + width > DIGIT_BITS) [digit, shift] = [digit + 1, 0];
    const f = { digit, shift, width };
    shift += width;
    return f;
  });
}

/** A statement's values, each added once where the text refers to it. */
export class Params {
  readonly values: unknown[];
  constructor(project: string) {
    this.values = [project];
  }
  /** The placeholder of a new value. */
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

/**
 * The search statements of one query. A signature is two bits per query term (Held: not, in
 * the content terms, in the description or tags) and two bits per keyword (its tag match
 * kind), packed in bigint digits. The key the server groups
 * by is one expression, so the planner expects few groups and hashes them: the digit itself
 * when one suffices (almost always), else the digits as text joined with ','.
 */
export class SearchStatements {
  private readonly fields: Field[];
  private readonly keyType: 'int8' | 'text';
  readonly terms: string[];

  constructor(
    private readonly project: string,
    private readonly query: SearchQuery,
    private readonly prefixed: PrefixedTag[],
  ) {
    this.terms = queryTerms(query);
    this.fields = layout([...this.terms.map(() => 2), ...query.keywords.map(() => 2)]);
    this.keyType = this.fields[this.fields.length - 1]!.digit === 0 ? 'int8' : 'text';
  }

  /** The signature key of row `h`. */
  private key(p: Params): string {
    const exprs = [
      ...this.terms.map(
        (t) =>
          `CASE WHEN h.search_vector @@ ${p.add(lexeme(t))}::tsquery THEN ${Held.Text} WHEN h.search_vector @@ ${p.add(contentLexeme(t))}::tsquery THEN ${Held.Content} ELSE 0 END`,
      ),
      ...this.query.keywords.map((kw, k) => {
        const stem = kw.units.length > 0 ? ` WHEN ${p.add(kw.tagStem)} = ANY (h.tag_stems) THEN 2` : '';
        const tags = this.prefixed.filter((x) => x.k === k).map((x) => x.tag);
        const prefix = tags.length > 0 ? ` WHEN h.tags && ${p.add(tags)}::text[] THEN 1` : '';
        return `CASE WHEN ${p.add(kw.tag)} = ANY (h.tags) THEN 3${stem}${prefix} ELSE 0 END`;
      }),
    ];
    const digits: string[][] = [];
    this.fields.forEach((f, i) => (digits[f.digit] ??= []).push(`(${exprs[i]})::int8 * ${1n << BigInt(f.shift)}`));
    const sums = digits.map((d) => `(${d.join(' + ')})`);
    return this.keyType === 'int8' ? sums[0]! : `concat_ws(',', ${sums.join(', ')})`;
  }

  /**
   * Live memories of the project that a keyword reaches: holding a query term or part, or
   * carrying a keyword as a tag, as a tag stem, or a tag it is a prefix of. Plain values, so
   * the planner sees them and ORs three scans of the heads' GIN index (schema 12).
   */
  private candidate(p: Params): string {
    const kw = this.query.keywords;
    const reach = [
      ...(this.terms.length > 0
        ? [`h.search_vector @@ ${p.add(this.terms.flatMap((t) => [lexeme(t), contentLexeme(t)]).join(' | '))}::tsquery`]
        : []),
      `h.tags && ${p.add([...new Set([...kw.map((k) => k.tag), ...this.prefixed.map((x) => x.tag)])])}::text[]`,
      `h.tag_stems && ${p.add(kw.filter((k) => k.units.length > 0).map((k) => k.tagStem))}::text[]`,
    ];
    return `h.project = $1 AND NOT h.deleted AND (${reach.join(' OR ')})`;
  }

  /**
   * Every live memory a keyword reaches, counted per signature (all of them: the document
   * frequencies are summed from these counts), with how many carry the required tags, and the
   * number of live memories of the project (memory_live_counts, kept by triggers).
   */
  groups(): { text: string; values: unknown[] } {
    const p = new Params(this.project);
    // OFFSET 0 keeps the key a column of its own: grouping by the expression, the planner would
    // expect as many groups as rows (one per distinct search_vector) and sort them.
    const text = `
      SELECT (SELECT coalesce(sum(n), 0) FROM memory_live_counts WHERE project = $1)::float8 AS live, g.key::text AS key, g.count, g.eligible
      FROM (
        SELECT c.key, count(*)::float8 AS count, count(*) FILTER (WHERE c.eligible)::float8 AS eligible
        FROM (SELECT ${this.key(p)} AS key, h.tags @> ${p.add(this.query.tags)}::text[] AS eligible FROM memory_heads h WHERE ${this.candidate(p)} OFFSET 0) c
        GROUP BY c.key
      ) g`;
    return { text, values: p.values };
  }

  /** The signatures of `groups()`' rows. */
  signatures(rows: Array<{ key: string; count: number; eligible: number }>): PgSignature[] {
    return rows.map((r) => {
      const digits = r.key.split(',').map(BigInt);
      const field = (i: number) => {
        const f = this.fields[i]!;
        return Number((digits[f.digit]! >> BigInt(f.shift)) & ((1n << BigInt(f.width)) - 1n));
      };
      const terms = this.terms.map((_, t) => field(t));
      const tagMatch = this.query.keywords.map((_, k) => field(this.terms.length + k));
      return { key: r.key, terms, tagMatch, count: r.count, eligible: r.eligible };
    });
  }

  /**
   * The rows of `blocks`, in order: per block, its memories carrying the required tags, most
   * recently changed first (then by id, as SearchIndex breaks ties), at most `want` of them.
   * Each block is read the cheaper of two ways, judged from the counts (`groups`, `live`):
   * - walking the most recent live memories (the changed_at index) until `want` of the block
   *   are found: about want × live / (the block's memories) rows, good for a large block;
   * - through the GIN indexes, on what every memory of the block holds (its common terms and
   *   exact tags), then a top-N sort: as many rows as hold all that, good for a small block.
   * The planner cannot tell which (it does not know how many memories a signature has), so the
   * statement's shape decides: the walk has no indexable condition but the project, the other
   * has no order an index could give.
   */
  fetch(blocks: FetchBlock[], groups: PgSignature[], live: number): { text: string; values: unknown[] } {
    return this.union(
      blocks.map((b) => {
        // The memories reached that hold what every signature of the block holds.
        const { terms, tagMin } = this.common(b.signatures);
        const reach = groups.filter(
          (g) =>
            terms.every((held, t) => held === Held.No || g.terms[t] === held) && tagMin.every((m, k) => m !== 3 || g.tagMatch[k] === 3),
        );
        const eligible = b.signatures.reduce((a, s) => a + s.eligible, 0);
        const walk = (b.want * live) / eligible <= reach.reduce((a, g) => a + g.eligible, 0);
        return { signatures: b.signatures, want: b.want, how: walk ? 'walk' : 'index' };
      }),
    );
  }

  /**
   * The rows of blocks of signatures (uncounted.ts: a query ranked without counts; each
   * signature with its `keyOf`), in order, each block's most recently changed first, at most
   * `want` of each: a block with a `budget` by walking only the `budget` most recent live
   * memories (fewer than `want` rows then says nothing about older ones), the others through
   * the GIN indexes.
   */
  blocks(
    blocks: Array<{ signatures: Keyed[]; budget?: number; size?: number }>,
    want: number,
    counts?: TermCounts,
  ): { text: string; values: unknown[] } {
    const byIndex = (size: number | undefined): How => (size !== undefined && counts ? { size, counts } : 'index');
    return this.union(
      blocks.map((b) => ({ signatures: b.signatures, want, how: b.budget === undefined ? byIndex(b.size) : { budget: b.budget } })),
    );
  }

  /** One statement reading each block's rows (blockRows), numbered in `block` and ordered block by block. */
  private union(blocks: Array<{ signatures: Keyed[]; want: number; how: How }>): { text: string; values: unknown[] } {
    const p = new Params(this.project);
    // Written once, referred to by every block (a value no statement refers to has no type: an error).
    const key = this.key(p);
    let candidate: string | undefined;
    const parts = blocks.map((b, i) => this.blockRows(p, key, () => (candidate ??= this.candidate(p)), i, b.signatures, b.want, b.how));
    return { text: `SELECT * FROM (${parts.join(' UNION ALL ')}) r ORDER BY block, changed_at DESC, id`, values: p.values };
  }

  /** The key `groups()` reports for a signature. */
  keyOf(shape: Shape): string {
    const values = [...shape.terms, ...shape.tagMatch];
    const digits: bigint[] = [];
    this.fields.forEach((f, i) => (digits[f.digit] = (digits[f.digit] ?? 0n) + (BigInt(values[i]!) << BigInt(f.shift))));
    return digits.map(String).join(',');
  }

  /** Per term, how every signature holds it (Held.No when they differ); per keyword, the weakest tag match among them. */
  private common(signatures: Shape[]): { terms: number[]; tagMin: number[] } {
    const first = signatures[0]!;
    return {
      terms: this.terms.map((_, t) => (signatures.every((s) => s.terms[t] === first.terms[t]) ? first.terms[t]! : Held.No)),
      tagMin: this.query.keywords.map((_, k) => Math.min(...signatures.map((s) => s.tagMatch[k]!))),
    };
  }

  /**
   * One block's rows, read one of three ways:
   * - `walk`: the most recent live memories (the changed_at index) until `want` of the block are found;
   * - `{ budget }`: the same walk over the `budget` most recent live memories only;
   * - `index`: through the heads' GIN index, on what every memory of the block holds (its common
   *   terms and exact tags), then a top-N sort; `{ size, counts }` the same, on the rarest of those
   *   conditions alone (and the required tags) when the kept counts say it reaches at most
   *   RAREST_ALONE times the block's likely size.
   * The planner cannot tell which is cheaper (it does not know how many memories a signature
   * has), so the statement's shape decides: the walk has no indexable condition but the project,
   * the other has no order an index could give.
   */
  private blockRows(p: Params, key: string, candidate: () => string, i: number, signatures: Keyed[], want: number, how: How): string {
    const inBlock = `${key} = ANY (${p.add(signatures.map((s) => s.key))}::${this.keyType}[])`;
    const columns = `${i} AS block, h.id, h.description, h.tags, h.changed_at`;
    // Every value added is referred to (a value no statement refers to has no type: an error).
    const required = () => (this.query.tags.length > 0 ? [`h.tags @> ${p.add(this.query.tags)}::text[]`] : []);
    if (how === 'walk')
      return `(SELECT ${columns} FROM memory_heads h WHERE ${['h.project = $1 AND NOT h.deleted', ...required(), inBlock].join(' AND ')}
          ORDER BY h.changed_at DESC, h.id LIMIT ${p.add(want)})`;
    if (how !== 'index' && 'budget' in how)
      return `(SELECT ${columns} FROM (SELECT * FROM memory_heads h WHERE h.project = $1 AND NOT h.deleted ORDER BY h.changed_at DESC, h.id LIMIT ${p.add(how.budget)}) h
          WHERE ${[...required(), inBlock].join(' AND ')} ORDER BY h.changed_at DESC, h.id LIMIT ${p.add(want)})`;
    const counts = how === 'index' ? undefined : how.counts;
    const { terms, tagMin } = this.common(signatures);
    const heldTerms = this.terms.flatMap((term, t) =>
      terms[t] === Held.Text ? [lexeme(term)] : terms[t] === Held.Content ? [contentLexeme(term)] : [],
    );
    // The required tags are always a condition (the signatures do not imply them); the exact tags of keywords may be left to the rows.
    const tags = [...new Set(this.query.keywords.filter((_, k) => tagMin[k] === 3).map((kw) => kw.tag))].filter(
      (t) => !this.query.tags.includes(t),
    );
    // What every memory of the block holds, as conditions the heads' GIN index answers, each
    // with at most how many live memories meet it (by the kept counts; unknown without them).
    // The block's signatures imply each one (inBlock checks them on every row read), so any may
    // be left out of the index; each is written only when used (a value no statement refers to
    // has no type: an error).
    const reach = (n: () => number) => (counts ? n() : Infinity);
    const conditions: Array<{ reach: number; sql: () => string }> = [];
    // No empty conditions: `tags @> '{}'` would make the GIN index read every entry.
    if (heldTerms.length > 0)
      conditions.push({
        reach: reach(() =>
          Math.min(
            ...this.terms.map((term, t) =>
              terms[t] === Held.Text ? counts!.text(term) : terms[t] === Held.Content ? counts!.content(term) : Infinity,
            ),
          ),
        ),
        sql: () => `h.search_vector @@ ${p.add(heldTerms.join(' & '))}::tsquery`,
      });
    if (tags.length > 0)
      conditions.push({
        reach: reach(() => Math.min(...tags.map((t) => counts!.tagged(t)))),
        sql: () => `h.tags @> ${p.add(tags)}::text[]`,
      });
    // A tag match weaker than exact, shared by the block: an inflection (the keyword's stem among
    // the tag stems, which an exact tag also has) or any match (exact, stem or a prefixed tag).
    this.query.keywords.forEach((kw, k) => {
      if (tagMin[k] !== 1 && tagMin[k] !== 2) return;
      const hasStem = kw.units.length > 0;
      const stem = () => `h.tag_stems @> ARRAY[${p.add(kw.tagStem)}::text]`;
      if (tagMin[k] === 2) {
        if (hasStem) conditions.push({ reach: reach(() => counts!.stemmed(kw.tagStem)), sql: stem });
        return;
      }
      const matched = [kw.tag, ...this.prefixed.filter((x) => x.k === k).map((x) => x.tag)];
      const tagged = () => `h.tags && ${p.add(matched)}::text[]`;
      conditions.push({
        reach: reach(() => matched.reduce((a, t) => a + counts!.tagged(t), hasStem ? counts!.stemmed(kw.tagStem) : 0)),
        sql: () => (hasStem ? `(${tagged()} OR ${stem()})` : tagged()),
      });
    });
    const rarest = conditions.reduce<(typeof conditions)[number] | undefined>((a, c) => (a && a.reach <= c.reach ? a : c), undefined);
    const alone = rarest && how !== 'index' && rarest.reach <= RAREST_ALONE * how.size;
    const held = [...required(), ...(alone ? [rarest] : conditions).map((c) => c.sql())];
    // Read through the rarest alone, the block leaves out what a keyword reaches too (which the
    // signatures imply, as a walk's block does): the planner would fold that OR of common words'
    // lists into the scan.
    const reached = alone ? 'h.project = $1 AND NOT h.deleted' : candidate();
    return `(SELECT * FROM (SELECT ${columns} FROM memory_heads h WHERE ${[reached, ...held, inBlock].join(' AND ')} OFFSET 0) s
          ORDER BY s.changed_at DESC, s.id LIMIT ${p.add(want)})`;
  }
}
