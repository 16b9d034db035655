import type { z } from 'zod';
import type { ListCursor, Store, StoredVersion } from './ports/store';
import { withChannel } from './ports/origin';
import type { CitationChecker } from './citations';
import { LIMITS } from './contract/fields';
import * as C from './contract/memories';
import { parseInput } from './contract/validate';
import { ConflictError, refusalAt } from './errors';
import { duplicatePairs, mergedFields, type DuplicatePair } from './duplicates';
import { MemoryService, type MemoryServiceOptions } from './memoryService';
import { assertNoSecretFields, mustExist } from './memoryRefusals';
import { Writer } from './writer';
import { type SeedLine, seedVersionsOf } from './seedLines';

type Out<S extends z.core.$ZodType> = z.output<S>;

/**
 * People's upkeep of the memories, beside the operations agents call (MemoryService): likely
 * duplicates and merging them, the check of every memory's citations, purge, and version rows in
 * bulk (export, import, a seed's memory lines). The CLI's and VS Code's commands use it; no
 * tool a model calls does. A merge is an edit and a delete through `memories`, refused and
 * recorded as any other.
 */
export class MemoryUpkeep {
  private readonly writer: Writer;
  private readonly checker: CitationChecker | undefined;

  /** `memories`: the MemoryService over the same store with the same options (a services' own); made here when not given. */
  constructor(
    private readonly store: Store,
    options: MemoryServiceOptions,
    private readonly memories: MemoryService = new MemoryService(store, options),
  ) {
    this.writer = new Writer(options);
    this.checker = options.citations;
  }

  /**
   * Every pair of live memories that are likely duplicates (core/duplicates.ts), most similar
   * first: one likely-duplicate check per live memory, so a people's command, not a tool a model calls.
   */
  async likelyDuplicates(): Promise<DuplicatePair[]> {
    const live: Out<typeof C.ListOutput>['items'] = [];
    let cursor: string | undefined;
    do {
      const page = await this.memories.list({ limit: LIMITS.listLimitMax, ...(cursor ? { cursor } : {}) });
      live.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return duplicatePairs(this.store, live);
  }

  /**
   * Merges `remove` into `keep`: an edit of `keep` (its content followed by the other's, the union
   * of tags; core/duplicates.ts), then a delete of `remove`, each refused as a conflict if the
   * memory changed since the versions given. Two writes, not one: if the delete is refused, the
   * edit stands and the error says so; history keeps every version of both.
   */
  async merge(m: { keep: string; keepVersion: number; remove: string; removeVersion: number }): Promise<{ version: number }> {
    const keep = await this.memories.read({ id: m.keep, version: m.keepVersion });
    const other = await this.memories.read({ id: m.remove, version: m.removeVersion });
    const edited = await this.memories.edit({ id: keep.id, ...mergedFields(keep, other), expectedVersion: m.keepVersion });
    try {
      await this.memories.delete({ id: other.id, expectedVersion: m.removeVersion });
    } catch (err) {
      if (err instanceof ConflictError)
        throw new ConflictError(
          `memory ${keep.id} now holds both (version ${edited.version}), but ${err.message}; delete it yourself once you have looked at it`,
          err.currentVersion,
        );
      throw err;
    }
    return { version: edited.version };
  }

  /** Every live memory that cites code, checked against the workspace; the stale ones with their citations. */
  async check(input: unknown = {}): Promise<Out<typeof C.CheckOutput>> {
    parseInput(C.CheckInput, input);
    const stale: Out<typeof C.CheckOutput>['stale'] = [];
    let checked = 0;
    let after: ListCursor | undefined;
    for (;;) {
      const page = await this.store.list({ deleted: false, limit: 500, after });
      if (page.length === 0) break;
      const cited = await this.store.citationsOf(page.map((m) => m.id));
      for (const m of page) {
        const citations = cited.get(m.id);
        if (!citations) continue;
        checked++;
        if (!this.checker || !this.checker.isStale(citations)) continue;
        const cur = await this.store.current(m.id);
        if (!cur || cur.deletedAt) continue;
        const view = await this.checker.check(cur.citations ?? []);
        if (view.freshness !== 'stale') continue;
        stale.push({
          id: m.id,
          description: m.description,
          tags: m.tags,
          version: cur.version,
          freshness: 'stale',
          citations: view.citations,
        });
      }
      const last = page[page.length - 1]!;
      after = { changedAt: last.changedAt, id: last.id };
    }
    return { checked, stale, workspace: this.checker !== undefined };
  }

  async purge(input: unknown): Promise<Out<typeof C.PurgeOutput>> {
    const p = parseInput(C.PurgeInput, input);
    const versionsRemoved = await this.store.purge(p.id, this.writer.author);
    if (versionsRemoved === 0) mustExist(p.id, undefined);
    return { id: p.id, versionsRemoved };
  }

  /** Every stored version, for export. */
  exportVersions(): AsyncIterable<StoredVersion> {
    return this.store.exportVersions();
  }

  /**
   * Imports version rows (an export of this or another store). Every row is validated
   * and checked for secrets first; one bad row refuses the whole import. Rows already
   * stored (same rowId) are skipped, so importing twice changes nothing.
   */
  async importVersions(
    rows: unknown[],
    describeRow: (index: number) => string = (i) => `rows[${i}]`,
  ): Promise<{ added: number; skipped: number }> {
    return this.store.importVersions(this.checkedForImport(rows, describeRow));
  }

  /** The rows as importVersions stores them: checked (checkVersions), with this service's channel where they name none. */
  checkedForImport(rows: unknown[], describeRow: (index: number) => string = (i) => `rows[${i}]`): StoredVersion[] {
    return withChannel(this.checkVersions(rows, describeRow), this.writer.origin.channel);
  }

  /** The checks of importVersions, without writing: a refusal names the row. */
  checkVersions(rows: unknown[], describeRow: (index: number) => string = (i) => `rows[${i}]`): StoredVersion[] {
    return rows.map((r, i) =>
      named(describeRow(i), () => {
        const row = parseInput(C.VersionRow, r);
        assertNoSecretFields(row);
        return { ...row, restoredFrom: row.restoredFrom ?? null };
      }),
    );
  }

  /**
   * The version rows of the first seed's memory lines (`id`, `description`, `tags`, `content`,
   * `changedAt`, optional `deletedAt`; several lines per id are its versions) that the store does
   * not hold yet (seedLines.ts: identified by id and changedAt), written by this service's author.
   * Checks every line before returning; writes nothing (importChecked does).
   */
  async seedVersions(rows: unknown[], describeRow: (index: number) => string = (i) => `rows[${i}]`): Promise<StoredVersion[]> {
    const lines = rows.map((r, i) =>
      named(describeRow(i), () => {
        const line = parseInput(C.SeedMemoryLine, r);
        assertNoSecretFields(line);
        return { line, where: describeRow(i) };
      }),
    );
    const byId = new Map<string, SeedLine[]>();
    for (const l of lines) byId.set(l.line.id, [...(byId.get(l.line.id) ?? []), l]);
    const out: StoredVersion[] = [];
    for (const [id, of] of byId) out.push(...seedVersionsOf(of, await this.store.history(id), this.writer.author));
    return out;
  }

  /** Appends rows that checkVersions or seedVersions returned, skipping those stored already (by rowId). */
  async importChecked(rows: StoredVersion[]): Promise<{ added: number; skipped: number }> {
    return rows.length ? this.store.importVersions(withChannel(rows, this.writer.origin.channel)) : { added: 0, skipped: 0 };
  }
}

/** Runs `check`, naming `where` in a refusal it throws. */
function named<T>(where: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw refusalAt(where, err);
  }
}
