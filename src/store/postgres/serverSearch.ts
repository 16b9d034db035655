import type { PoolClient } from 'pg';
import type { SearchQuery } from '../../core/search/query';
import { rankSignatures } from '../../core/search/signatures';
import { rankUncounted, type Shape, type UncountedRanking } from '../../core/search/uncounted';
import type { StoredHit } from '../../core/ports/store';
import { type PrefixedTag, prefixedTagsStatement } from './prefixedTags';
import { type FetchBlock, type Keyed, type PgSignature, SearchStatements } from './searchSql';

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
 * the best groups are read, `limit` at most. A query of one word whose order needs no counts
 * (uncounted.ts) counts only a sample of what it reaches when it reaches many: its blocks are
 * read best first without counting. Run it in a SEARCH_TRANSACTION on `client`, so the counts
 * and the rows come from the same snapshot. `tuning`: the sample's size and the walk's budget
 * (SAMPLE, WALK_BUDGET; tests make them small).
 */
export async function searchOnServer(
  client: PoolClient,
  project: string,
  query: SearchQuery,
  tuning: { sample: number; walkBudget: number } = { sample: SAMPLE, walkBudget: WALK_BUDGET },
): Promise<StoredHit[]> {
  if (query.keywords.length === 0 || query.limit <= 0) return [];
  const prefixes = prefixedTagsStatement(project, query);
  const prefixed = prefixes ? (await client.query<PrefixedTag>(prefixes.text, prefixes.values)).rows : [];
  const statements = new SearchStatements(project, query, prefixed);
  const uncounted = rankUncounted(query, prefixed.length > 0);
  const groups = await client.query<{ live: number; key: string; count: number; eligible: number }>(
    statements.groups(uncounted ? tuning.sample + 1 : undefined),
  );
  if (groups.rows.length === 0) return [];
  const live = Number(groups.rows[0]!.live);
  const signatures = statements.signatures(groups.rows);
  if (uncounted && signatures.reduce((a, s) => a + s.count, 0) > tuning.sample)
    return readBlocks(client, statements, uncounted, signatures, live, query.limit, tuning.walkBudget);
  const ranked = rankSignatures(query, signatures, live);
  const blocks = pickBlocks(ranked.blocks, ranked.limit);
  if (blocks.length === 0) return [];
  return (await rowsOf(client, statements.fetch(blocks, signatures, live))).map(({ block: _, ...hit }) => hit);
}

/**
 * How many reached memories a one-word query counts before it is judged broad and read without
 * counts: a narrow word's memories are all counted (as cheap as reading them), a broad one's
 * first SAMPLE tell which blocks hold many memories.
 */
const SAMPLE = 1000;

/** How many of the most recent live memories a block seen in the sample is looked for among, before its index is read. */
const WALK_BUDGET = 5000;

/**
 * The hits of a query ranked without counts (uncounted.ts): the blocks best first, each
 * block's rows newest first, until `limit` are read; the fallback blocks (below the floor) when
 * the passing ones return nothing. A block the sample holds is looked for among the most recent
 * memories first (cheap when it is large); one the sample does not hold, or that walk did not
 * fill, is read through the GIN indexes (cheap when it is small).
 */
async function readBlocks(
  client: PoolClient,
  statements: SearchStatements,
  ranked: UncountedRanking,
  sample: PgSignature[],
  live: number,
  limit: number,
  budget: number,
): Promise<StoredHit[]> {
  const seen = new Set(sample.map((s) => s.key));
  const keyed = (blocks: Shape[][]) => blocks.map((b) => b.map((s): Keyed => ({ ...s, key: statements.keyOf(s) })));
  const sampled = (block: Keyed[]) => block.some((s) => seen.has(s.key));
  const read = async (blocks: Keyed[][], want: number) => {
    const hits: StoredHit[] = [];
    let next = 0;
    while (next < blocks.length && hits.length < want) {
      // One statement: the blocks the sample did not see (likely small, read by index) up to
      // and including the next one it saw, read by a walk over the most recent memories.
      let end = next;
      while (end < blocks.length - 1 && !sampled(blocks[end]!)) end++;
      const batch = blocks.slice(next, end + 1).map((signatures) => ({ signatures, budget: sampled(signatures) ? budget : undefined }));
      const left = want - hits.length;
      const rows = await rowsOf(client, statements.blocks(batch, left));
      for (let b = 0; b < batch.length && hits.length < want; b++) {
        let got = rows.filter((r) => r.block === b);
        // A walk that found fewer than it could use says nothing of older memories: read the block by index.
        if (batch[b]!.budget !== undefined && got.length < want - hits.length && budget < live)
          got = await rowsOf(client, statements.blocks([{ signatures: batch[b]!.signatures }], want - hits.length));
        hits.push(...got.slice(0, want - hits.length).map(({ block: _, ...hit }) => hit));
      }
      next = end + 1;
    }
    return hits;
  };
  const passing = await read(keyed(ranked.passing), limit);
  return passing.length > 0 ? passing : read(keyed(ranked.partial), ranked.partialLimit);
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
