import type { SearchQuery } from '../../core/search/query';
import { Held } from '../../core/search/signatures';
import { tagParts } from '../../core/tags';
import type { PrefixedTag } from './prefixedTags';
import { contentLexeme, lexeme, type Params } from './sqlParams';
import type { CountedTerms } from './termCounts';

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

/** Per query term, how every signature of a block holds it (Held.No when they differ); per keyword, the weakest tag match among them. */
export interface Common {
  terms: number[];
  tagMin: number[];
}

/**
 * The conditions of a block read by index (SearchStatements.blockRows), as SQL on the heads'
 * GIN index, the required tags aside: what every memory of the block holds (`common`: its terms
 * held alike, its exact tags, its weaker tag matches). With the kept counts and the block's
 * likely size (`by`), only the rarest of them when it reaches at most RAREST_ALONE times that
 * size (`alone`); else all of them. `asked` are the query's terms (queryTerms).
 */
export function indexConditions(
  p: Params,
  query: SearchQuery,
  asked: readonly string[],
  prefixed: readonly PrefixedTag[],
  { terms, tagMin }: Common,
  by?: { counts: TermCounts; size: number },
): { alone: boolean; sql: string[] } {
  const counts = by?.counts;
  // The words a tag condition implies (a tag's parts, a tag stem's, are among its memory's terms):
  // asking the index for them beside it walks their lists for the same rows. The required tags'
  // are left out of the words always (they are always a condition), the others' beside them only.
  const impliedBy = (tags: readonly string[]) => new Set(tags.flatMap((t) => tagParts(t)));
  const byRequired = impliedBy(query.tags);
  const byAny = new Set([
    ...byRequired,
    ...query.keywords.flatMap((kw, k) =>
      tagMin[k] === 3 ? tagParts(kw.tag) : tagMin[k] === 2 && kw.units.length > 0 ? kw.tagStem.split('-') : [],
    ),
  ]);
  const words = (implied: Set<string>) =>
    asked.flatMap((term, t) =>
      terms[t] === Held.Text && !implied.has(term)
        ? [{ lexeme: lexeme(term), count: () => counts!.text(term) }]
        : terms[t] === Held.Content
          ? [{ lexeme: contentLexeme(term), count: () => counts!.content(term) }]
          : [],
    );
  const heldTerms = words(byRequired);
  const fewerTerms = words(byAny);
  // The required tags are always a condition (the signatures do not imply them); the exact tags of keywords may be left to the rows.
  const tags = [...new Set(query.keywords.filter((_, k) => tagMin[k] === 3).map((kw) => kw.tag))].filter((t) => !query.tags.includes(t));
  // What every memory of the block holds, as conditions the heads' GIN index answers, each
  // with at most how many live memories meet it (by the kept counts; unknown without them).
  // The block's signatures imply each one (blockRows checks them on every row read), so any may
  // be left out of the index; each is written only when used (a value no statement refers to
  // has no type: an error).
  const reach = (n: () => number) => (counts ? n() : Infinity);
  const conditions: Array<{ reach: number; sql: () => string; beside?: () => string | undefined }> = [];
  // No empty conditions: `tags @> '{}'` would make the GIN index read every entry.
  if (heldTerms.length > 0)
    conditions.push({
      reach: reach(() => Math.min(...heldTerms.map((w) => w.count()))),
      sql: () => `h.search_vector @@ ${p.add(heldTerms.map((w) => w.lexeme).join(' & '))}::tsquery`,
      // Beside the tag conditions: without the words they imply (none left, no words condition).
      beside: () =>
        fewerTerms.length > 0 ? `h.search_vector @@ ${p.add(fewerTerms.map((w) => w.lexeme).join(' & '))}::tsquery` : undefined,
    });
  if (tags.length > 0)
    conditions.push({
      reach: reach(() => Math.min(...tags.map((t) => counts!.tagged(t)))),
      sql: () => `h.tags @> ${p.add(tags)}::text[]`,
    });
  // A tag match weaker than exact, shared by the block: an inflection (the keyword's stem among
  // the tag stems, which an exact tag also has) or any match (exact, stem or a prefixed tag).
  query.keywords.forEach((kw, k) => {
    if (tagMin[k] !== 1 && tagMin[k] !== 2) return;
    const hasStem = kw.units.length > 0;
    const stem = () => `h.tag_stems @> ARRAY[${p.add(kw.tagStem)}::text]`;
    if (tagMin[k] === 2) {
      if (hasStem) conditions.push({ reach: reach(() => counts!.stemmed(kw.tagStem)), sql: stem });
      return;
    }
    const matched = [kw.tag, ...prefixed.filter((x) => x.k === k).map((x) => x.tag)];
    const tagged = () => `h.tags && ${p.add(matched)}::text[]`;
    conditions.push({
      reach: reach(() => matched.reduce((a, t) => a + counts!.tagged(t), hasStem ? counts!.stemmed(kw.tagStem) : 0)),
      sql: () => (hasStem ? `(${tagged()} OR ${stem()})` : tagged()),
    });
  });
  const rarest = conditions.reduce<(typeof conditions)[number] | undefined>((a, c) => (a && a.reach <= c.reach ? a : c), undefined);
  const alone = rarest && by !== undefined && rarest.reach <= RAREST_ALONE * by.size;
  if (alone) return { alone: true, sql: [rarest.sql()] };
  return { alone: false, sql: conditions.flatMap((c) => (c.beside ? (c.beside() ?? []) : [c.sql()])) };
}
