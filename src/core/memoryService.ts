import type { z } from 'zod';
import type { Store, StoredVersion } from './ports/store';
import { decodeCursor, encodeCursor } from './listCursor';
import { channelLabel, originOf } from './ports/origin';
import { type CitationChecker, citationsDiffer } from './citations';
import { MemoryCitations } from './memoryCitations';
import { LIMITS } from './contract/fields';
import * as C from './contract/memories';
import { parseInput } from './contract/validate';
import { ConflictError, NotFoundError, ValidationError } from './errors';
import { assertNoSecretFields, mustBeAt, mustBeLive, mustExist } from './memoryRefusals';
import { analyzeQuery } from './search/query';
import { nearDuplicates, type SimilarMemory } from './duplicates';
import { instructionLikeField } from './screening';
import { normalizeTag, suggestTags, tagProblem } from './tags';
import { randomUUID } from './nodeCrypto';
import { Writer, type WriterOptions } from './writer';

/** Who writes and by which clock (as every tier service), and the workspace citations are checked against. */
export interface MemoryServiceOptions extends WriterOptions {
  /** Absent where no workspace is open: citations are then kept as they are, and shown unchecked. */
  citations?: CitationChecker;
}

type Out<S extends z.core.$ZodType> = z.output<S>;
type Field = 'description' | 'tags' | 'content';

/** Most tags a tags answer lists, so a large vocabulary never floods a model's context. */
const TAGS_ANSWER_MAX = 200;

/**
 * The memory domain: the contract's operations with type-2 semantics. Every input is
 * parsed against the contract here, so every adapter gets the same validation and
 * messages. Writes go through `Store.write`, which hands `decide` the freshest current
 * row under the store's lock; whatever `decide` throws leaves the store unchanged.
 */
export class MemoryService {
  private readonly writer: Writer;
  private readonly citations: MemoryCitations;

  constructor(
    private readonly store: Store,
    options: MemoryServiceOptions,
  ) {
    this.writer = new Writer(options);
    this.citations = new MemoryCitations(store, options.citations);
  }

  private row(
    id: string,
    version: number,
    op: StoredVersion['op'],
    data: Pick<StoredVersion, Field | 'citations'>,
    previous?: StoredVersion,
  ): StoredVersion {
    return {
      ...(data.citations?.length ? { citations: data.citations } : {}),
      rowId: randomUUID(),
      id,
      version,
      op,
      description: data.description,
      tags: data.tags,
      content: data.content,
      changedAt: this.writer.stamp(previous?.changedAt),
      deletedAt: null,
      author: this.writer.author,
      restoredFrom: null,
      ...this.writer.origin,
    };
  }

  async search(input: unknown): Promise<Out<typeof C.SearchOutput>> {
    const q = parseInput(C.SearchInput, input);
    const hits = await this.store.search(analyzeQuery(q.keywords, q.tags ?? [], q.limit ?? LIMITS.searchLimitDefault));
    return this.citations.withFreshness(
      hits.map(({ id, description, tags }) => ({ id, description, tags, ...instructionLikeField({ description }) })),
    );
  }

  /** Live memories whose description and tags closely match these (core/duplicates.ts), `except` one id. */
  similarTo(m: { description: string; tags: string[] }, except: string | null = null, max = 5): Promise<SimilarMemory[]> {
    return nearDuplicates(this.store, m, except, max);
  }

  /** The checks of a create, before anything is written: the one rule for direct and queued creates. */
  checkCreate(input: unknown): Out<typeof C.CreateInput> {
    const data = parseInput(C.CreateInput, input);
    assertNoSecretFields(data);
    if (data.citations) this.citations.anchor(data.citations); // refused now when a cited file or line does not exist
    return data;
  }

  /** The checks of an edit that need no store: the input, at least one field to change, secrets (direct and queued edits). */
  checkEdit(input: unknown): Out<typeof C.EditInput> {
    const e = parseInput(C.EditInput, input);
    if (e.description === undefined && e.tags === undefined && e.content === undefined && e.citations === undefined) {
      throw new ValidationError('', 'give at least one of description, tags, content or citations to change');
    }
    assertNoSecretFields(e);
    if (e.citations) this.citations.anchor(e.citations);
    return e;
  }

  /** The current version of a memory an edit may change; refused as an edit would be when it is missing or deleted. */
  async editable(id: string): Promise<Out<typeof C.ReadOutput>> {
    return this.citations.read(mustBeLive(id, await this.store.current(id), 'edited'));
  }

  async create(input: unknown): Promise<Out<typeof C.CreateOutput>> {
    const data = this.checkCreate(input);
    const id = randomUUID();
    const citations = this.citations.anchor(data.citations ?? []);
    // Not refused: the writer is told which memory to edit instead next time. The check does not
    // wait for the write nor the write for the check (a team store answers both at once, each a
    // round trip); the new memory is left out of what the check finds.
    const [similar] = await Promise.all([
      this.similarTo(data, id),
      this.store.write(id, () => this.row(id, 1, 'create', { ...data, citations }), { newId: true }),
    ]);
    return { id, ...instructionLikeField(data), ...(similar.length ? { similar } : {}) };
  }

  async edit(input: unknown): Promise<Out<typeof C.EditOutput>> {
    const e = this.checkEdit(input);
    let result: Out<typeof C.EditOutput> | undefined;
    await this.store.write(e.id, (current, maxVersion) => {
      const cur = mustBeLive(e.id, current, 'edited');
      mustBeAt(e.id, cur, e.expectedVersion);
      const next = {
        description: e.description ?? cur.description,
        tags: e.tags ?? cur.tags,
        content: e.content ?? cur.content,
        citations: this.citations.edited(e.citations, cur),
      };
      const changedFields: Array<Field | 'citations'> = (['description', 'tags', 'content'] as const).filter(
        (f) => JSON.stringify(next[f]) !== JSON.stringify(cur[f]),
      );
      if (citationsDiffer(next.citations, cur.citations ?? [])) changedFields.push('citations');
      if (changedFields.length === 0) {
        result = { id: e.id, version: cur.version, changed: false, changedFields };
        return null;
      }
      const row = this.row(e.id, maxVersion + 1, 'edit', next, cur);
      result = { id: e.id, version: row.version, changed: true, changedFields, ...instructionLikeField(next) };
      return row;
    });
    return result!;
  }

  async read(input: unknown): Promise<Out<typeof C.ReadOutput>> {
    const r = parseInput(C.ReadInput, input);
    const v = r.version === undefined ? mustExist(r.id, await this.store.current(r.id)) : await this.store.version(r.id, r.version);
    if (!v) {
      const cur = mustExist(r.id, await this.store.current(r.id));
      throw new NotFoundError(`memory ${r.id} has no version ${r.version}; its current version is ${cur.version}`);
    }
    return this.citations.read(v);
  }

  async delete(input: unknown): Promise<Out<typeof C.DeleteOutput>> {
    const d = parseInput(C.DeleteInput, input);
    const row = await this.store.write(d.id, (current, maxVersion) => {
      const cur = mustBeLive(d.id, current, 'deleted again');
      mustBeAt(d.id, cur, d.expectedVersion);
      const next = this.row(d.id, maxVersion + 1, 'delete', cur, cur);
      return { ...next, deletedAt: next.changedAt };
    });
    return { id: d.id, version: row!.version, deletedAt: row!.deletedAt! };
  }

  async history(input: unknown): Promise<Out<typeof C.HistoryOutput>> {
    const h = parseInput(C.HistoryInput, input);
    const rows = await this.store.history(h.id);
    if (rows.length === 0) mustExist(h.id, undefined);
    return Promise.all(
      rows.map(async (v) => ({
        ...(await this.citations.read(v)),
        op: v.op,
        ...originOf(v),
        channel: channelLabel(v),
      })),
    );
  }

  async restore(input: unknown): Promise<Out<typeof C.RestoreOutput>> {
    const r = parseInput(C.RestoreInput, input);
    const history = await this.store.history(r.id);
    let restoredFrom = 0;
    const row = await this.store.write(r.id, (current, maxVersion) => {
      const cur = mustExist(r.id, current);
      mustBeAt(r.id, cur, r.expectedVersion);
      // History was read before the lock: if the memory changed since, its choice may be stale.
      if (!history.some((v) => v.rowId === cur.rowId)) {
        throw new ConflictError(
          `memory ${r.id} changed while it was being restored (now version ${cur.version}); look at its history and try again`,
          cur.version,
        );
      }
      let source: StoredVersion | undefined;
      if (r.version === undefined) {
        if (!cur.deletedAt) throw new ConflictError(`memory ${r.id} is not deleted; give a version to bring back older data`, cur.version);
        source = [...history].reverse().find((v) => !v.deletedAt) ?? cur;
      } else {
        // Journals merged through git can hold two rows with one number; like read, take the
        // newer (history is oldest first), so `read --version n` shows what restore brings back.
        source = [...history].reverse().find((v) => v.version === r.version);
        if (!source) throw new NotFoundError(`memory ${r.id} has no version ${r.version}; its current version is ${cur.version}`);
        if (
          !cur.deletedAt &&
          (['description', 'tags', 'content'] as const).every((f) => JSON.stringify(source![f]) === JSON.stringify(cur[f]))
        ) {
          throw new ConflictError(
            `version ${r.version} of memory ${r.id} holds the same data as the current version ${cur.version}; nothing to restore`,
            cur.version,
          );
        }
      }
      restoredFrom = source.version;
      return { ...this.row(r.id, maxVersion + 1, 'restore', source, cur), restoredFrom };
    });
    return { id: r.id, version: row!.version, restoredFrom };
  }

  async list(input: unknown): Promise<Out<typeof C.ListOutput>> {
    const l = parseInput(C.ListInput, input);
    const limit = l.limit ?? LIMITS.listLimitDefault;
    const after = l.cursor === undefined ? undefined : decodeCursor(l.cursor);
    const rows = await this.store.list({ deleted: l.deleted ?? false, limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await this.citations.withFreshness(page.map(({ id, description, tags, changedAt }) => ({ id, description, tags, changedAt }))),
      nextCursor: rows.length > limit && last ? encodeCursor({ changedAt: last.changedAt, id: last.id }) : null,
    };
  }

  async tags(input: unknown): Promise<Out<typeof C.TagsOutput>> {
    const t = parseInput(C.TagsInput, input ?? {});
    const vocabulary = await this.store.tagCounts();
    const suggestions = (t.proposed ?? []).map((proposed) => {
      const normalized = normalizeTag(proposed);
      return {
        proposed,
        normalized,
        exists: !tagProblem(normalized) && vocabulary.some((v) => v.tag === normalized),
        similar: suggestTags(normalized, vocabulary),
      };
    });
    return { tags: vocabulary.slice(0, TAGS_ANSWER_MAX), totalTags: vocabulary.length, suggestions };
  }
}
