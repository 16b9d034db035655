import type { PoolClient } from 'pg';
import type { SearchQuery } from '../../core/search/query';
import { rankSignatures } from '../../core/search/signatures';
import {
  rankableUncounted,
  rankUncounted,
  readRanking,
  type Shape,
  UncertainOrder,
  type UncountedRanking,
} from '../../core/search/uncounted';
import type { StoredHit } from '../../core/ports/store';
import { type PrefixedTag, prefixedTagsStatement } from './prefixedTags';
import type { TermCounts } from './blockConditions';
import { type FetchBlock, type Keyed, type PgSignature, SearchStatements } from './searchSql';
import { type BlockModel, blockModel } from './blockSizes';
import type { CountedTerms } from './termCounts';
import { matchCountBounds, rankableKeywords, rankUncountedKeywords } from '../../core/search/uncountedKeywords';

/**
 * How a search's transaction begins: one snapshot for its statements, nothing written, and
 * plans made for the query's own terms (the store's other statements are planned for any
 * value: connection.ts, PLAN_FOR_ANY_PROJECT).
 */
export const SEARCH_TRANSACTION = 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL plan_cache_mode = force_custom_plan';

/**
 * A search answered by the server, ranked as SearchIndex ranks, without scoring every memory a
 * broad keyword reaches: the server counts the reached memories per match signature, core
 * ranks the signatures (signatures.ts, the formulas SearchIndex uses), and only the rows of
 * the best groups are read, `limit` at most. A query of one keyword needs no counts but its
 * terms' document frequencies (uncounted.ts); one of several keywords of one plain word each,
 * how many memories match each (uncountedKeywords.ts): the write path keeps what gives both
 * (termCounts.ts). When such a query may reach more than `tuning.narrow` memories, its blocks
 * are read best first, without counting what it reaches. Run it in a SEARCH_TRANSACTION on
 * `client`, so the counts and the rows come from the same snapshot. `tuning`: when a query is
 * broad, the walk's budget and when a block is walked (tests make the first two small).
 */
export async function searchOnServer(
  client: PoolClient,
  project: string,
  query: SearchQuery,
  tuning: Tuning = TUNING,
): Promise<StoredHit[]> {
  if (query.keywords.length === 0 || query.limit <= 0) return [];
  const prefixes = prefixedTagsStatement(project, query);
  const prefixed = prefixes ? (await client.query<PrefixedTag>(prefixes.text, prefixes.values)).rows : [];
  const statements = new SearchStatements(project, query, prefixed);
  // The kept counts are read only for a query they may rank; any other is counted at once.
  if (rankableUncounted(query) || rankableKeywords(query)) {
    const model = await blockModel(client, project, query, statements.terms, prefixed);
    const uncounted = model.reached > tuning.narrow ? rankedWithoutCounts(query, prefixed, model) : undefined;
    if (uncounted) {
      try {
        return await readBlocks(client, statements, uncounted, model, model.stats, model.stats.live, query.limit, tuning);
      } catch (err) {
        // The answer needs blocks whose order depends on counts not kept: count, as below.
        if (!(err instanceof UncertainOrder)) throw err;
      }
    }
  }
  const groups = await client.query<{ live: number; key: string; count: number; eligible: number }>(statements.groups());
  if (groups.rows.length === 0) return [];
  const live = Number(groups.rows[0]!.live);
  const signatures = statements.signatures(groups.rows);
  const ranked = rankSignatures(query, signatures, live);
  const blocks = pickBlocks(ranked.blocks, ranked.limit);
  if (blocks.length === 0) return [];
  return (await rowsOf(client, statements.fetch(blocks, signatures, live))).map(({ block: _, ...hit }) => hit);
}

/**
 * The ranking of a query whose order its kept counts give (termCounts.ts): one keyword by its
 * terms' document frequencies (uncounted.ts), several keywords of one plain word each by how
 * many memories match each, known or bounded (uncountedKeywords.ts); else undefined (the query
 * is counted).
 */
function rankedWithoutCounts(
  query: SearchQuery,
  prefixed: PrefixedTag[],
  model: BlockModel & { stats: CountedTerms },
): UncountedRanking | undefined {
  if (rankableUncounted(query)) return rankUncounted(query, prefixed.length > 0, model.stats);
  const counts = model.stats;
  const bounds = query.keywords.map((_, k) =>
    matchCountBounds(
      query,
      k,
      counts,
      prefixed.filter((p) => p.k === k).map((p) => p.tag),
    ),
  );
  if (bounds.some((b) => b === undefined)) return undefined;
  return rankUncountedKeywords(
    query,
    query.keywords.map((_, k) => prefixed.some((p) => p.k === k)),
    bounds as Array<{ lo: number; hi: number }>,
    counts.live,
    model.possibleTerm,
    model.possibleKind,
  );
}

/** How a search decides to read without counts, and how it reads a broad query's blocks (tests change it). */
export interface Tuning {
  /** Above how many memories a query may reach it is read without counts, when its order allows (a narrow query's are all counted: as cheap as reading them). */
  narrow: number;
  /** How many of the most recent live memories a large block is looked for among, before its index is read. */
  walkBudget: number;
  /** A block is walked when its estimated size says the walk may meet this many times the rows wanted. */
  walkYield: number;
}

const TUNING: Tuning = { narrow: 1000, walkBudget: 5000, walkYield: 2 };

/** How much deeper each walk after a short one goes (readBlocks). */
const WALK_GROWTH = 8;

/**
 * The hits of a query ranked without counts (uncounted.ts, uncountedKeywords.ts), returned as
 * readRanking says: blocks best first, each block's rows newest first. A block likely large is
 * looked for among the most recent memories first (cheap when it is large); any other, or one
 * that walk did not fill, is read through the GIN indexes (cheap when it is small).
 */
async function readBlocks(
  client: PoolClient,
  statements: SearchStatements,
  ranked: UncountedRanking,
  { possible, estimate }: BlockModel,
  counts: TermCounts,
  live: number,
  limit: number,
  { walkBudget: budget, walkYield }: Tuning,
): Promise<StoredHit[]> {
  // Signatures no live memory has are left out (blockSizes.ts), and so are blocks left empty. A
  // statement reads blocks until they likely hold the rows wanted (small blocks are read
  // together); each block by a walk over the `budget` most recent memories when the walk is
  // likely to meet the rows wanted, else by index.
  //
  // The newest `wanted` rows of a block a walk left short (its most recent memories hold fewer
  // than their share, say a burst of other notes on top): walks WALK_GROWTH times deeper while
  // that reads fewer rows than the block likely holds, then reads the block by index (which
  // reads and sorts every row of it).
  const deeper = async (signatures: Keyed[], wanted: number) => {
    for (let depth = budget * WALK_GROWTH; depth < live && depth <= estimate(signatures); depth *= WALK_GROWTH) {
      const rows = await rowsOf(client, statements.blocks([{ signatures, budget: depth }], wanted));
      if (rows.length >= wanted) return rows;
    }
    return rowsOf(client, statements.blocks([{ signatures, size: estimate(signatures) }], wanted, counts));
  };
  const read = async (shapes: Shape[][], want: number) => {
    const blocks = shapes
      .map((b, index) => ({ index, signatures: b.filter(possible).map((s): Keyed => ({ ...s, key: statements.keyOf(s) })) }))
      .filter((b) => b.signatures.length > 0);
    const hits: Array<StoredHit & { block: number }> = [];
    let next = 0;
    while (next < blocks.length && hits.length < want) {
      const left = want - hits.length;
      let end = next;
      let expected = estimate(blocks[next]!.signatures);
      while (end < blocks.length - 1 && expected < left) expected += estimate(blocks[++end]!.signatures);
      const batch = blocks.slice(next, end + 1).map((b) => ({
        index: b.index,
        signatures: b.signatures,
        budget: (estimate(b.signatures) / live) * budget >= walkYield * left ? budget : undefined,
        size: estimate(b.signatures),
      }));
      const rows = await rowsOf(client, statements.blocks(batch, left, counts));
      for (let b = 0; b < batch.length && hits.length < want; b++) {
        let got = rows.filter((r) => r.block === b);
        // A walk that found fewer than it could use says nothing of older memories: walk deeper, or read the block by index.
        if (batch[b]!.budget !== undefined && got.length < want - hits.length && budget < live)
          got = await deeper(batch[b]!.signatures, want - hits.length);
        hits.push(...got.slice(0, want - hits.length).map((hit) => ({ ...hit, block: batch[b]!.index })));
      }
      next = end + 1;
    }
    return hits;
  };
  return readRanking<StoredHit>(ranked, limit, read);
}

/** The hits of a statement's rows, each with the block it was read for. */
async function rowsOf(client: PoolClient, statement: { text: string; values: unknown[] }): Promise<Array<StoredHit & { block: number }>> {
  const { rows } = await client.query<{ block: number; id: string; description: string; tags: string[]; changed_at: Date }>(statement);
  return rows.map((r) => ({ block: r.block, id: r.id, description: r.description, tags: r.tags, changedAt: r.changed_at.toISOString() }));
}

/** The best blocks holding `limit` eligible memories between them, each with how many of its rows are wanted. */
function pickBlocks(ranked: Array<{ signatures: PgSignature[] }>, limit: number): FetchBlock[] {
  const picked: FetchBlock[] = [];
  let left = limit;
  for (const b of ranked) {
    if (left <= 0) break;
    const signatures = b.signatures.filter((s) => s.eligible > 0);
    const eligible = signatures.reduce((a, s) => a + s.eligible, 0);
    if (eligible === 0) continue;
    picked.push({ signatures, want: Math.min(eligible, left) });
    left -= eligible;
  }
  return picked;
}
