import type { PoolClient } from 'pg';
import { analyzeMemory, ANALYZER_VERSION, flatTerms } from '../../core/search/analysis';
import { getMeta, setMeta } from './schema';

/** Heads re-analysed per statement. */
const REANALYZE_BATCH = 1000;

/**
 * The heads carry terms from core's analysis; when that analysis changed (ANALYZER_VERSION),
 * every head of every project is analysed again, in the migration's transaction. The content
 * is read from the head's version row (by seq: memory_heads has no content column).
 */
export async function reanalyzeIfNeeded(client: PoolClient): Promise<void> {
  const stored = await getMeta(client, 'analyzer');
  if (stored === String(ANALYZER_VERSION)) return;
  let after = { project: '', id: '' };
  for (;;) {
    const { rows } = await client.query<{ project: string; id: string; description: string; tags: string[]; content: string }>(
      `SELECT h.project, h.id, h.description, h.tags, v.content FROM memory_heads h JOIN memory_versions v ON v.seq = h.seq
       WHERE (h.project, h.id) > ($1, $2) ORDER BY h.project, h.id LIMIT $3`,
      [after.project, after.id, REANALYZE_BATCH],
    );
    if (rows.length === 0) break;
    const payload = rows.map((r) => {
      const a = analyzeMemory(r);
      return { project: r.project, id: r.id, terms: flatTerms(a), tagStems: a.tagStems };
    });
    await client.query(
      `UPDATE memory_heads h SET tag_stems = r."tagStems", search_vector = array_to_tsvector(r.terms)
       FROM jsonb_to_recordset($1::jsonb) AS r(project text, id text, terms text[], "tagStems" text[])
       WHERE h.project = r.project AND h.id = r.id`,
      [JSON.stringify(payload)],
    );
    after = rows[rows.length - 1]!;
  }
  await setMeta(client, 'analyzer', String(ANALYZER_VERSION));
}
