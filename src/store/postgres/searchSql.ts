import type { SearchQuery } from '../../core/search/query';
import { Held, queryTerms, type Signature } from '../../core/search/signatures';
import type { Shape } from '../../core/search/uncounted';
import type { PrefixedTag } from './prefixedTags';
import { type Common, indexConditions, type TermCounts } from './blockConditions';
import { contentLexeme, lexeme, Params } from './sqlParams';
import { LIVE_COUNT_SQL } from './termCounts';

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

/** A signature with the key `groups()` reports for it. */
export type Keyed = Shape & { key: string };

/**
 * How a block's rows are read (SearchStatements.blockRows): `{ size, counts }` by index, through
 * its rarest condition alone when that reaches few more memories than the block likely holds.
 */
type How = 'walk' | 'index' | { budget: number } | { size: number; counts: TermCounts };

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
   * number of live memories of the project (LIVE_COUNT_SQL, kept by the write path).
   */
  groups(): { text: string; values: unknown[] } {
    const p = new Params(this.project);
    // OFFSET 0 keeps the key a column of its own: grouping by the expression, the planner would
    // expect as many groups as rows (one per distinct search_vector) and sort them.
    const text = `
      SELECT ${LIVE_COUNT_SQL} AS live, g.key::text AS key, g.count, g.eligible
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
  private common(signatures: Shape[]): Common {
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
    const chosen = indexConditions(p, this.query, this.terms, this.prefixed, this.common(signatures), how === 'index' ? undefined : how);
    const held = [...required(), ...chosen.sql];
    // Read through the rarest alone, the block leaves out what a keyword reaches too (which the
    // signatures imply, as a walk's block does): the planner would fold that OR of common words'
    // lists into the scan.
    const reached = chosen.alone ? 'h.project = $1 AND NOT h.deleted' : candidate();
    return `(SELECT * FROM (SELECT ${columns} FROM memory_heads h WHERE ${[reached, ...held, inBlock].join(' AND ')} OFFSET 0) s
          ORDER BY s.changed_at DESC, s.id LIMIT ${p.add(want)})`;
  }
}
