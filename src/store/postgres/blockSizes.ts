import type { SearchQuery } from '../../core/search/query';
import { TagMatch } from '../../core/search/ranking';
import { Held } from '../../core/search/signatures';
import type { Shape } from '../../core/search/uncounted';
import { tagParts } from '../../core/tags';
import type { PrefixedTag } from './prefixedTags';
import { type CountedTerms, termStats } from './termCounts';
import type { ClientBase } from 'pg';

// How many memories a query reaches at most, which of its signatures no live memory can have,
// and how many memories a block of them likely holds, from the counts the write path
// keeps (termCounts.ts): what a broad search reads its blocks by (serverSearch.ts) without
// counting or sampling what it reaches. The counts are exact in the search's snapshot, so a
// signature they rule out holds nothing; the sizes are guesses, and only decide how a block is
// read (walked or by index, with which others), never which rows are returned.

export interface BlockModel {
  /** At most how many live memories the keywords reach. */
  reached: number;
  /** False when no live memory can have this signature (it needs a term, tag or stem no memory has, or a required tag none carries). */
  possible(s: Shape): boolean;
  /** False when no live memory holds the term so (Held). */
  possibleTerm(term: string, held: number): boolean;
  /** False when no live memory can meet keyword `k` with this tag match. */
  possibleKind(k: number, kind: number): boolean;
  /** The likely number of live memories of a block (its signatures) that carry the required tags. */
  estimate(block: readonly Shape[]): number;
}

/** Reads the counts a query's blocks are judged by, in the transaction `client` is in. */
export async function blockModel(
  client: ClientBase,
  project: string,
  query: SearchQuery,
  terms: readonly string[],
  prefixed: readonly PrefixedTag[],
): Promise<BlockModel & { stats: CountedTerms }> {
  const tags = [...new Set([...query.keywords.map((kw) => kw.tag), ...prefixed.map((p) => p.tag), ...query.tags])];
  const stats = await termStats(client, project, terms, tags, [...new Set(query.keywords.map((kw) => kw.tagStem))]);
  return { stats, ...modelOf(query, terms, prefixed, stats) };
}

/**
 * The model over counts already read. Estimates: each term held or not independently of the
 * others, at its own rates, but for the words a tag match implies (a tag's own words are among
 * the memory's terms); each keyword's tag match independently of the others: an exact match as
 * likely as the keyword's tag, an inflection as a tag of its stem that is not the tag itself, a
 * prefix match as the other tags the keyword is a prefix of.
 */
export function modelOf(query: SearchQuery, terms: readonly string[], prefixed: readonly PrefixedTag[], stats: CountedTerms): BlockModel {
  const live = stats.live;
  const rate = (n: number) => (live > 0 ? Math.min(1, n / live) : 0);
  const textCount = terms.map((t) => stats.text(t));
  const contentCount = terms.map((t) => stats.content(t));
  const position = new Map(terms.map((t, i) => [t, i]));
  const heldBySome = (i: number, state: number) => state === Held.No || (state === Held.Text ? textCount[i]! : contentCount[i]!) > 0;
  const held = terms.map((_, i) => {
    const text = rate(textCount[i]!);
    const content = rate(contentCount[i]!);
    return [Math.max(0, 1 - text - content), content, text];
  });
  const wordsOf = (tags: string[]) =>
    tags.length === 0 ? new Set<string>() : new Set(tagParts(tags[0]!).filter((w) => tags.every((t) => tagParts(t).includes(w))));
  const keywords = query.keywords.map((kw, k) => {
    const prefixes = prefixed.filter((p) => p.k === k && tagParts(p.tag).join('-') !== kw.tagStem).map((p) => p.tag);
    const exact = stats.tagged(kw.tag);
    const inflection = Math.max(0, stats.stemmed(kw.tagStem) - exact);
    const prefix = prefixes.reduce((a, t) => a + stats.tagged(t), 0);
    return {
      implied: [new Set<string>(), wordsOf(prefixes), new Set(kw.tagStem.split('-')), wordsOf([kw.tag])],
      count: [live, prefix, inflection, exact],
      rate: [Math.max(0, rate(live - exact - inflection - prefix)), rate(prefix), rate(inflection), rate(exact)],
    };
  });
  const required = query.tags.reduce((a, t) => a * rate(stats.tagged(t)), 1);
  const possibleTerm = (term: string, state: number) => heldBySome(position.get(term)!, state);
  const possibleKind = (k: number, kind: number) => keywords[k]!.count[kind]! > 0;
  const possible = (s: Shape) =>
    required > 0 && s.tagMatch.every((kind, k) => possibleKind(k, kind)) && s.terms.every((state, i) => heldBySome(i, state));
  const one = (s: Shape) => {
    if (!possible(s)) return 0;
    let p = required;
    s.tagMatch.forEach((kind, k) => (p *= keywords[k]!.rate[kind]!));
    terms.forEach((t, i) => {
      const state = s.terms[i]!;
      const implied = s.tagMatch.some((kind, k) => kind !== TagMatch.None && keywords[k]!.implied[kind]!.has(t));
      p *= implied ? (state === Held.Text ? 1 : 0) : held[i]![state]!;
    });
    return p;
  };
  const tagReach = [...new Set([...query.keywords.map((kw) => kw.tag), ...prefixed.map((p) => p.tag)])].reduce(
    (a, t) => a + stats.tagged(t),
    0,
  );
  return {
    reached: Math.min(live, terms.reduce((a, t) => a + stats.df(t), 0) + tagReach),
    possible,
    possibleTerm,
    possibleKind,
    estimate: (block) => live * block.reduce((a, s) => a + one(s), 0),
  };
}
