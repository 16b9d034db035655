import { ConflictError } from '../../core/errors';
import type { StoredVersion } from '../../core/ports/store';
import { storageError } from './connection';
import { lockPurges } from './locks';
import { type PgSession, runTransaction } from './session';
import { foldTermChanges } from './termCounts';
import { advanceHeads, analyseNewest, insertVersions, isVersionTaken, WRITE_ATTEMPTS } from './versionRows';

/** Rows per statement of an import. */
const BATCH = 1000;

/**
 * The team store's importVersions: the rows not stored yet (by rowId) in one transaction, so a
 * failed import leaves nothing behind, BATCH rows a statement, each batch's heads moved forward
 * as it goes. A store that holds no memory at all can take a whole copy faster (bulkLoad.ts).
 */
export async function importRows(session: PgSession, rows: StoredVersion[]): Promise<{ added: number; skipped: number }> {
  const { project } = session;
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.rowId) && (seen.add(r.rowId), true));
  for (let attempt = 1; ; attempt++) {
    try {
      const added = await runTransaction(session, 'importing versions', async (client) => {
        await lockPurges(client, project, 'shared');
        let n = 0;
        for (let i = 0; i < unique.length; i += BATCH) {
          const batch = unique.slice(i, i + BATCH);
          // The statement is on its way once insertVersions returns its promise: analyse meanwhile.
          const inserting = insertVersions(client, project, batch, true);
          const analysed = analyseNewest(batch);
          const inserted = await inserting;
          await advanceHeads(client, project, inserted, analysed);
          n += inserted.length;
        }
        await foldTermChanges(client, project);
        return n;
      });
      return { added, skipped: rows.length - added };
    } catch (err) {
      // Another transaction committed the same number between our check and our insert (a
      // writer, or a second import): run again, and the row now goes in as a twin.
      if (isVersionTaken(err) && attempt < WRITE_ATTEMPTS) continue;
      if (isVersionTaken(err))
        throw new ConflictError('the import kept colliding with concurrent writers on version numbers; nothing was imported; try again');
      throw storageError(session.target, err, 'importing versions');
    }
  }
}
