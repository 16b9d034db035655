import type { PoolClient } from 'pg';
import type { SearchQuery } from '../../core/search/query';
import { rankSignatures } from '../../core/search/signatures';
import type { StoredHit } from '../../core/ports/store';
import { type FetchBlock, type PgSignature, type PrefixedTag, prefixedTagsStatement, SearchStatements } from './searchSql';

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
 * the best groups are read, `limit` at most. Run it in a SEARCH_TRANSACTION on `client`, so
 * the counts and the rows come from the same snapshot.
 */
export async function searchOnServer(client: PoolClient, project: string, query: SearchQuery): Promise<StoredHit[]> {
  if (query.keywords.length === 0 || query.limit <= 0) return [];
  const prefixes = prefixedTagsStatement(project, query);
  const prefixed = prefixes ? (await client.query<PrefixedTag>(prefixes.text, prefixes.values)).rows : [];
  const statements = new SearchStatements(project, query, prefixed);
  const groups = await client.query<{ live: number; key: string; count: number; eligible: number }>(statements.groups());
  if (groups.rows.length === 0) return [];
  const live = Number(groups.rows[0]!.live);
  const signatures = statements.signatures(groups.rows);
  const ranked = rankSignatures(query, signatures, live);
  const blocks = pickBlocks(ranked.blocks, ranked.limit);
  if (blocks.length === 0) return [];
  const { rows } = await client.query<{ id: string; description: string; tags: string[]; changed_at: Date }>(
    statements.fetch(blocks, signatures, live),
  );
  return rows.map((r) => ({ id: r.id, description: r.description, tags: r.tags, changedAt: r.changed_at.toISOString() }));
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
