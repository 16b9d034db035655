import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { RecordReader, StoredRecord } from '../ports/records';
import type { Store } from '../ports/store';
import { parseInput } from '../contract/validate';
import { ConflictError, NotFoundError } from '../errors';
import { asSkill as storedSkill, normalizeKey, skillColumns, type SkillData, type SkillRecordData } from './kinds';
import { decodeRecordCursor, encodeRecordCursor, readAll, RecordWriter } from './recordRows';
import { saveConflict, staleDocument } from './skillConflicts';
import { matchSkill, RELEVANCE_FLOOR, termSet } from './skillMatch';
import { outcomesByTag, outcomeStats, type OutcomeStats, type TagOutcomes } from './skillOutcomes';
import { FindSkillsInput, ListSkillsInput, ReadSkillInput, SkillName, VersionNo } from '../contract/skills';
import { canonicalSkill, parseSkillData, type ParsedSkillData } from './skillData';
import { formatSkillYaml, parseSkillYaml } from './skillYaml';
import type { Channel } from '../ports/origin';

export interface SkillServiceOptions {
  /** Recorded on every version this service writes (unless a save names another author). */
  author: string | (() => string);
  now?: () => Date;
  /** The client the writes come through, recorded on every version. */
  channel?: Channel;
}

/** A skill's current version as lists show it. */
export interface SkillSummary {
  id: string;
  name: string;
  version: number;
  description: string;
  changedAt: string;
  author: string;
}

export interface SkillRecord extends SkillSummary {
  data: SkillData;
  deletedAt: string | null;
  /** How the episodes that followed this version ended, by time window. */
  outcomes: OutcomeStats;
  /** The same by task type (the episodes' tags), most episodes first; `truncated` when only the newest were read. */
  outcomesByTag: { tags: TagOutcomes[]; truncated: boolean };
}

export interface SaveResult {
  id: string;
  name: string;
  version: number;
  /** False when the skill already held exactly this data: nothing was written. */
  changed: boolean;
  /** How a document in the playbook seed's shape was read (skillSeedShape.ts); absent for the product's shape. */
  notes?: string[];
}

export interface FoundSkill extends SkillSummary {
  /** Relevance (skillMatch.ts): above RELEVANCE_FLOOR, higher is better. */
  score: number;
  /** The trigger phrase the task matched, or null when only the description did. */
  trigger: string | null;
}

const SaveOptions = z.strictObject({
  /** The live version the save is meant to follow; null: there must be no live skill of that name. */
  expectedVersion: VersionNo.nullable().optional(),
  author: z.string().trim().min(1).max(200).optional(),
  /** The proposal whose approval writes this version (kept with the version, so a retried approval finds it). */
  proposalId: z.uuid().optional(),
});
const DeleteOptions = z.strictObject({ expectedVersion: VersionNo.optional() });

/** A stored skill in its canonical key order (PostgreSQL's jsonb does not keep the order it was given). */
const asSkill = (r: StoredRecord): SkillData => canonicalSkill(storedSkill(r));

/** Most skills a find or a coverage check reads: a team's playbook, not a corpus. */
const MAX_SKILLS_SCANNED = 5000;

/**
 * Procedural skills: YAML playbooks, versioned like memories (a new version per change, soft
 * delete). A skill is named uniquely among live skills; saving a name that exists makes its
 * next version, and saving the name of a deleted skill brings it back as the next version of
 * the same record, so (name, version) always means one playbook to the episodes that cite it.
 */
export class SkillService {
  private readonly writer: RecordWriter;

  constructor(
    private readonly store: Store,
    options: SkillServiceOptions,
  ) {
    this.writer = new RecordWriter(options);
  }

  /** The newest record named `name`: the live one if any, else the most recently deleted. */
  private static async byName(reader: RecordReader, name: string): Promise<StoredRecord | undefined> {
    const key = normalizeKey(name);
    const live = await reader.query({ kind: 'skill', keys: [key], limit: 1 });
    if (live[0]) return live[0];
    return (await reader.query({ kind: 'skill', keys: [key], deleted: true, limit: 1 }))[0];
  }

  private async live(name: string): Promise<StoredRecord> {
    const rec = await SkillService.byName(this.store.records, name);
    if (!rec) throw new NotFoundError(`skill "${name}" does not exist; find or list skills to see their names`);
    if (rec.deletedAt)
      throw new NotFoundError(`skill "${name}" was deleted at ${rec.deletedAt} (version ${rec.version}); saving it again brings it back`);
    return rec;
  }

  private static summary(r: StoredRecord): SkillSummary {
    const d = asSkill(r);
    return { id: r.id, name: d.name, version: r.version, description: d.description, changedAt: r.changedAt, author: r.author };
  }

  /** Validates a skill as YAML text or data; throws ValidationError / SecretError with the reason. */
  static validate(input: unknown): SkillData {
    return SkillService.parse(input).data;
  }

  /**
   * As validate, and whether the input gave its evidence (without it, `data.evidence` is empty lists)
   * and, for a YAML document, the version it says it is.
   */
  static parse(input: unknown): ParsedSkillData {
    return typeof input === 'string' ? parseSkillYaml(input) : parseSkillData(input);
  }

  /**
   * Creates the skill, or the next version of the skill with its name. With `expectedVersion`
   * the save is refused unless that is still the live version (null: unless there is none).
   * An input without `evidence` keeps the previous version's. Saving unchanged data writes nothing.
   * Without `expectedVersion`, a YAML document's `version:` is the version it was exported from: a
   * change is refused unless that is still the skill's newest version (a document naming a skill
   * that never existed creates it as version 1, whatever it says).
   */
  async save(
    input: unknown,
    options: { expectedVersion?: number | null; author?: string; proposalId?: string; proposedBy?: string } = {},
  ): Promise<SaveResult> {
    const parsed = SkillService.parse(input);
    const { proposedBy, ...rest } = options;
    const opts = parseInput(SaveOptions, rest);
    const name = parsed.data.name;
    const notes = parsed.notes.length ? { notes: parsed.notes } : {};
    let result: SaveResult | undefined;
    await this.store.records.write(`skill:${name}`, async (reader) => {
      const cur = await SkillService.byName(reader, name);
      const live = cur && !cur.deletedAt ? cur : undefined;
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== (live?.version ?? null))
        throw saveConflict(name, opts.expectedVersion, live);
      // A document that leaves evidence out (say, written by hand) must not erase the episodes the skill came from.
      const data = parsed.evidenceGiven || !cur ? parsed.data : { ...parsed.data, evidence: asSkill(cur).evidence };
      if (live && JSON.stringify(asSkill(live)) === JSON.stringify(data)) {
        result = { id: live.id, name, version: live.version, changed: false, ...notes };
        return [];
      }
      // After the unchanged check, so re-running a save that already went through is not a conflict.
      if (opts.expectedVersion === undefined && parsed.version !== undefined && cur && parsed.version !== cur.version)
        throw staleDocument(name, parsed.version, cur);
      const id = cur?.id ?? randomUUID();
      const version = cur ? (await reader.maxVersion('skill', id)) + 1 : 1;
      const op = !cur ? 'create' : cur.deletedAt ? 'restore' : 'edit';
      const stored: SkillRecordData = opts.proposalId ? { ...data, proposalId: opts.proposalId } : data;
      const row = this.writer.row('skill', id, version, op, skillColumns(data), stored, cur);
      result = { id, name, version, changed: true, ...notes };
      return [{ ...row, ...(opts.author ? { author: opts.author } : {}), ...(proposedBy ? { proposedBy } : {}) }];
    });
    return result!;
  }

  /** The version of skill `name` that approving `proposalId` wrote, if any (a retried approval must not write it twice). */
  async approvedFrom(name: string, proposalId: string): Promise<{ id: string; version: number } | undefined> {
    const cur = await SkillService.byName(this.store.records, name);
    if (!cur) return undefined;
    const found = (await this.store.records.history('skill', cur.id)).find((r) => storedSkill(r).proposalId === proposalId);
    return found && { id: found.id, version: found.version };
  }

  /** The live skill (or one of its versions), with the outcomes of the episodes that followed that version. */
  async read(input: unknown): Promise<SkillRecord> {
    const rec = await this.readVersion(input);
    const [outcomes, byTag] = await Promise.all([
      this.outcomes(rec.name, rec.version),
      outcomesByTag(this.store.records, rec.name, rec.version, this.writer.now()),
    ]);
    return { ...rec, outcomes, outcomesByTag: byTag };
  }

  /** `read` without the outcomes (which cost the store a dozen counts): for documents and checks. */
  async readVersion(input: unknown): Promise<Omit<SkillRecord, 'outcomes' | 'outcomesByTag'>> {
    const r = parseInput(ReadSkillInput, input);
    const cur = await this.live(r.name);
    let rec = cur;
    if (r.version !== undefined && r.version !== cur.version) {
      const found = [...(await this.store.records.history('skill', cur.id))].reverse().find((v) => v.version === r.version);
      if (!found) throw new NotFoundError(`skill "${r.name}" has no version ${r.version}; its current version is ${cur.version}`);
      rec = found;
    }
    return { ...SkillService.summary(rec), data: asSkill(rec), deletedAt: rec.deletedAt };
  }

  /** Success rates of one version (default: the live one) over the last 7, 30, 90 days and all time. */
  async outcomes(name: string, version?: number): Promise<OutcomeStats> {
    const v = version ?? (await this.live(name)).version;
    return outcomeStats(this.store.records, name, v, this.writer.now());
  }

  /** Live skills for a task, best first: triggers weigh most, then the description; unrelated tasks get []. */
  async find(input: unknown): Promise<FoundSkill[]> {
    const f = parseInput(FindSkillsInput, input);
    const task = termSet(f.task);
    const found: FoundSkill[] = [];
    for (const r of await this.liveRecords()) {
      const m = matchSkill(task, asSkill(r));
      if (m.score >= RELEVANCE_FLOOR)
        found.push({ ...SkillService.summary(r), score: Math.round(m.score * 1000) / 1000, trigger: m.trigger });
    }
    found.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
    return found.slice(0, f.limit ?? 5);
  }

  /** Every live skill record (bounded by MAX_SKILLS_SCANNED), for matching and coverage checks. */
  async liveRecords(): Promise<StoredRecord[]> {
    return readAll(this.store.records, { kind: 'skill' }, MAX_SKILLS_SCANNED);
  }

  /** Skills, most recently changed first; `deleted: true` lists the deleted ones. */
  async list(input: unknown = {}): Promise<{ items: SkillSummary[]; nextCursor: string | null }> {
    const l = parseInput(ListSkillsInput, input ?? {});
    const limit = l.limit ?? 100;
    const after = l.cursor === undefined ? undefined : decodeRecordCursor(l.cursor);
    const rows = await this.store.records.query({ kind: 'skill', deleted: l.deleted ?? false, limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(SkillService.summary), nextCursor: rows.length > limit && last ? encodeRecordCursor(last) : null };
  }

  /** Every version of the skill named `name` (live or deleted), oldest first. */
  async history(name: string): Promise<Array<SkillSummary & { op: string; deletedAt: string | null; data: SkillData }>> {
    const n = parseInput(SkillName, name);
    const cur = await SkillService.byName(this.store.records, n);
    if (!cur) throw new NotFoundError(`skill "${n}" does not exist; find or list skills to see their names`);
    const rows = await this.store.records.history('skill', cur.id);
    return rows.map((r) => ({ ...SkillService.summary(r), op: r.op, deletedAt: r.deletedAt, data: asSkill(r) }));
  }

  /** Soft delete: a new version with deletedAt set; the name is free for a new skill afterwards. */
  async delete(
    name: string,
    options: { expectedVersion?: number } = {},
  ): Promise<{ id: string; name: string; version: number; deletedAt: string }> {
    const n = parseInput(SkillName, name);
    const opts = parseInput(DeleteOptions, options);
    const [row] = await this.store.records.write(`skill:${n}`, async (reader) => {
      const cur = await SkillService.byName(reader, n);
      if (!cur || cur.deletedAt) throw new NotFoundError(`skill "${n}" does not exist or is already deleted`);
      if (opts.expectedVersion !== undefined && opts.expectedVersion !== cur.version) {
        throw new ConflictError(
          `skill "${n}" is at version ${cur.version}, not ${opts.expectedVersion}; read it again before deleting`,
          cur.version,
        );
      }
      const version = (await reader.maxVersion('skill', cur.id)) + 1;
      const row = this.writer.row('skill', cur.id, version, 'delete', skillColumns(asSkill(cur)), asSkill(cur), cur);
      return [{ ...row, deletedAt: row.changedAt }];
    });
    return { id: row!.id, name: n, version: row!.version, deletedAt: row!.deletedAt! };
  }

  /** The live skill (or a version of it) as its YAML document, with a provenance comment. */
  async exportYaml(name: string, version?: number): Promise<string> {
    return skillDocument(await this.readVersion({ name, ...(version === undefined ? {} : { version }) }));
  }

  /** Saves a YAML document (a new skill or the next version of its name); unchanged text writes nothing. */
  async importYaml(text: string, options: { expectedVersion?: number } = {}): Promise<SaveResult> {
    if (typeof text !== 'string') throw new TypeError('importYaml takes the YAML text');
    return this.save(text, options);
  }
}

/** A skill version as its YAML document, with a provenance comment (and any further comment lines). */
export function skillDocument(s: Omit<SkillRecord, 'outcomes' | 'outcomesByTag'>, comments: string[] = []): string {
  return formatSkillYaml(s.data, s.version, [`skill ${s.name} · version ${s.version} · ${s.changedAt} · ${s.author}`, ...comments]);
}
