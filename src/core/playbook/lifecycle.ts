/**
 * The forgetting run: applies the lifecycle policy to what is stored, then records a report
 * a person can read. It expires facts past valid_until (a new version with status expired,
 * then purged when semantic.expired is forget), opens the disputes a git merge left unrecorded
 * (mergeDisputes.ts), and retires episodes older than episodic.ttl_days (purged when
 * episodic.expired is forget, else a soft-delete version), except episodes kept as evidence by
 * a live skill or by a pending skill proposal.
 *
 * Bounded work: each tier is read in pages of PAGE records in the store's order, with a
 * cursor, up to `maxPerRun` records per tier; what is left is handled by the next run (the
 * records it has not reached are still due). A cursor is a position in the order, not a
 * record, so paging stays correct while the run changes what it pages through. Forgetting is
 * one purge per kind per run (on the workspace store each purge rewrites the journal), of the
 * records whose current version is still the one the run decided on.
 *
 * Which runs are recorded: a run a person asked for (`command`, `cli`) always writes its report;
 * an unattended one (`activation`, `schedule`) only when it changed something or has a position
 * of the merge check to carry over. The workspace store's journal is committed to git, so a
 * report of a run that found nothing would give a teammate who only opened the views a diff
 * to commit and merge. When such a run is not recorded, the caller keeps its time where git
 * does not look (VS Code: workspaceState) and passes it to `isDue`.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { RecordCursor, RecordKind, RecordStore, StoredRecord } from '../ports/records';
import { parseInput } from '../contract/validate';
import { isPastDue, LIVE_STATUSES, nextFactVersion, releasePartners } from './factRules';
import { asFact, asProposal, asReport, asSkill, reportColumns, type ReportData, type SkillData } from './kinds';
import { disputeMergedContradictions } from './mergeDisputes';
import type { Ontology } from './ontology';
import { DEFAULT_POLICY, type Policy } from './policy';
import { readAll, RecordWriter, type TierServiceOptions } from './recordRows';

const PAGE = 200;
const DAY_MS = 24 * 3600_000;
/** Skills, and pending skill proposals, read to learn which episodes are evidence; far more than any team writes. */
const SKILLS_MAX = 50_000;
/** Usage records one run reports (a server writes one when it stops). */
const USAGE_MAX = 1000;
/** Due facts of one subject expired in one write. */
const SUBJECT_MAX = 1000;

export interface LifecycleOptions extends TierServiceOptions {
  policy?: Policy | (() => Policy);
  /** The workspace ontology, when there is one: its single-valued relations are checked for contradictions a merge brought. */
  ontology?: Ontology | null | (() => Ontology | null | undefined);
  /** Proposes skill drafts from repeated successes (the procedural tier); returns the proposal ids. */
  promote?: (context: { now: Date; policy: Policy }) => Promise<string[]>;
  /** Most records one run handles per tier (default 5000). */
  maxPerRun?: number;
}

const Counter = z.number().int().min(0);
const RunInput = z
  .object({
    trigger: z.enum(['activation', 'schedule', 'command', 'cli']),
    now: z.date().optional(),
    searchReads: z.object({ searches: Counter, returned: Counter, read: Counter }).strict().optional(),
  })
  .strict();

export type Report = ReportData & { id: string };

/** What a run returns: its report, with `id` null when the run was not recorded (unattended, and nothing to record). */
export type RunReport = ReportData & { id: string | null };

const UNATTENDED: ReadonlySet<ReportData['trigger']> = new Set(['activation', 'schedule']);

export class Lifecycle {
  private readonly w: RecordWriter;

  constructor(
    private readonly records: RecordStore,
    private readonly options: LifecycleOptions,
  ) {
    this.w = new RecordWriter(options);
  }

  private policy(): Policy {
    const p = this.options.policy;
    return (typeof p === 'function' ? p() : p) ?? DEFAULT_POLICY;
  }

  /**
   * Runs the rules once and writes the report (also when a step fails, which is then thrown: the
   * ontology, the promotion), except for an unattended run that changed nothing (see the top).
   */
  async runForgetting(input: unknown): Promise<RunReport> {
    const run = parseInput(RunInput, input);
    const now = run.now ?? this.w.now();
    const policy = this.policy();
    const failures: unknown[] = [];
    const attempt = async <T>(step: () => Promise<T>, otherwise: T): Promise<T> => {
      try {
        return await step();
      } catch (err) {
        failures.push(err);
        return otherwise;
      }
    };
    const expiredFacts = await this.expireFacts(now.toISOString(), policy.semantic.expired);
    const merge = await attempt(() => this.disputeMerged(now.toISOString()), { disputed: [], resume: null });
    const episodes = await this.retireEpisodes(
      new Date(now.getTime() - policy.episodic.ttl_days * DAY_MS).toISOString(),
      policy.episodic.expired,
    );
    const promotions = await attempt(async () => (await this.options.promote?.({ now, policy })) ?? [], []);
    // Counts other processes left in the store (an MCP server that stopped): reported here, and
    // deleted in the report's own write, so each is counted once.
    const usage = await this.records.query({ kind: 'usage', limit: USAGE_MAX });
    const counted = usage.reduce(
      (sum, r) => {
        const u = r.data as { searches?: number; returned?: number; read?: number };
        return { searches: sum.searches + (u.searches ?? 0), returned: sum.returned + (u.returned ?? 0), read: sum.read + (u.read ?? 0) };
      },
      run.searchReads ?? { searches: 0, returned: 0, read: 0 },
    );
    const data: ReportData = {
      ranAt: now.toISOString(),
      trigger: run.trigger,
      expiredFacts,
      disputedOnMerge: merge.disputed,
      forgottenEpisodes: episodes.forgotten,
      archivedEpisodes: episodes.archived,
      promotions,
      searchReads: counted,
      mergeCheckResume: merge.resume,
    };
    const changed =
      expiredFacts.length > 0 || merge.disputed.length > 0 || episodes.forgotten > 0 || episodes.archived > 0 || promotions.length > 0;
    // A merge check that stopped part-way, or that finished one which had, must leave its position for the next run.
    const carries = merge.resume !== null || merge.from != null;
    if (UNATTENDED.has(run.trigger) && !changed && !carries && usage.length === 0) {
      if (failures.length) throw failures[0];
      return { id: null, ...data };
    }
    const id = randomUUID();
    await this.records.write(`report:${id}`, async (r) => {
      const consumed: StoredRecord[] = [];
      for (const u of usage) {
        const cur = await r.get('usage', u.id);
        if (!cur || cur.deletedAt) continue;
        const row = this.w.row('usage', u.id, (await r.maxVersion('usage', u.id)) + 1, 'delete', cur, cur.data, cur);
        consumed.push({ ...row, deletedAt: row.changedAt });
      }
      return [this.w.row('report', id, 1, 'create', reportColumns(data), data), ...consumed];
    });
    if (failures.length) throw failures[0];
    return { id, ...data };
  }

  /**
   * Leaves this process's search→read counts in the store (a process that is stopping, such as an
   * MCP server): the next forgetting run, by any client, reports them. Nothing is written for none.
   */
  async recordUsage(counts: { searches: number; returned: number; read: number }, client: string): Promise<boolean> {
    if (counts.searches === 0 && counts.read === 0) return false;
    const id = randomUUID();
    const data = { ...counts, client: client.slice(0, 200), at: this.w.now().toISOString() };
    await this.records.write(`usage:${id}`, () => [
      this.w.row('usage', id, 1, 'create', { status: 'open', keys: ['', '', ''], rank: 0, dueAt: null }, data),
    ]);
    return true;
  }

  /** The most recent reports, newest first. */
  async reports(input: unknown = {}): Promise<Report[]> {
    const { limit } = parseInput(z.object({ limit: z.number().int().min(1).max(100).optional() }).strict(), input ?? {});
    const rows = await this.records.query({ kind: 'report', limit: limit ?? 10 });
    return rows.map((r) => ({ id: r.id, ...asReport(r) }));
  }

  /**
   * True when no run was reported within forgetting.run_every_hours, nor made by this client
   * within it: `ranHere` is the time of this client's last run (ISO), recorded or not.
   */
  async isDue(now: Date = this.w.now(), ranHere?: string): Promise<boolean> {
    const [last] = await this.reports({ limit: 1 });
    const latest = Math.max(last ? Date.parse(last.ranAt) : -Infinity, ranHere ? Date.parse(ranHere) : -Infinity);
    return !Number.isFinite(latest) || latest + this.policy().forgetting.run_every_hours * 3600_000 <= now.getTime();
  }

  /**
   * Live facts past valid_until: one write per subject marks them expired and releases their
   * disputes; under forget, the expired versions are then purged in one go.
   */
  private async expireFacts(nowIso: string, action: Policy['semantic']['expired']): Promise<string[]> {
    const expired: StoredRecord[] = [];
    const done = new Set<string>();
    await this.pages({ kind: 'fact', status: LIVE_STATUSES, dueBefore: nowIso }, async (page) => {
      for (const subject of new Set(page.map((r) => r.keys[0]))) {
        if (done.has(subject)) continue;
        done.add(subject);
        const rows = await this.records.write(`fact:${subject}`, async (r) => {
          // Re-read under the lock: another writer may have refreshed or retracted them since.
          const due = (await readAll(r, { kind: 'fact', keys: [subject], status: LIVE_STATUSES, dueBefore: nowIso }, SUBJECT_MAX)).filter(
            (f) => isPastDue(f, nowIso),
          );
          const mine = await Promise.all(
            due.map((f) => nextFactVersion(this.w, r, f, { ...asFact(f), status: 'expired', disputedWith: [] })),
          );
          return [...mine, ...(await releasePartners(this.w, r, due))];
        });
        // The facts' expired versions (released partners stay live).
        expired.push(...rows.filter((x) => x.status === 'expired'));
      }
    });
    if (action === 'forget') await this.purgeUnchanged('fact', expired);
    return expired.map((f) => f.id);
  }

  /** Disputes between facts of the ontology's single-valued relations that no write recorded (a git merge), from where the last run stopped. */
  private async disputeMerged(
    nowIso: string,
  ): Promise<{ disputed: string[]; resume: ReportData['mergeCheckResume']; from?: ReportData['mergeCheckResume'] }> {
    const o = this.options.ontology;
    const ontology = typeof o === 'function' ? o() : o;
    const single = (ontology?.relations ?? []).filter((r) => r.cardinality === 'one').map((r) => r.name);
    if (single.length === 0) return { disputed: [], resume: null };
    const [last] = await this.reports({ limit: 1 });
    const from = last?.mergeCheckResume;
    return { ...(await disputeMergedContradictions(this.records, this.w, single, { nowIso, max: this.max(), from })), from };
  }

  /**
   * Episodes recorded before `cutoffIso`, except evidence: purged (once) or archived. The
   * evidence is read after the candidates, so a skill or a draft that cites one meanwhile keeps it.
   */
  private async retireEpisodes(cutoffIso: string, action: Policy['episodic']['expired']): Promise<{ forgotten: number; archived: number }> {
    const due: StoredRecord[] = [];
    await this.pages({ kind: 'episode', dueBefore: cutoffIso }, async (page) => void due.push(...page));
    if (due.length === 0) return { forgotten: 0, archived: 0 };
    const evidence = await this.evidenceEpisodes();
    const retired = due.filter((e) => !evidence.has(e.id));
    if (action === 'forget') return { forgotten: (await this.purgeUnchanged('episode', retired)).length, archived: 0 };
    let archived = 0;
    for (let i = 0; i < retired.length; i += PAGE) {
      const ids = retired.slice(i, i + PAGE).map((e) => e.id);
      const rows = await this.records.write('episodes:archive', async (r) => {
        const out: StoredRecord[] = [];
        for (const id of ids) {
          const cur = await r.get('episode', id);
          if (!cur || cur.deletedAt) continue;
          const row = this.w.row('episode', id, (await r.maxVersion('episode', id)) + 1, 'delete', cur, cur.data, cur);
          out.push({ ...row, deletedAt: row.changedAt });
        }
        return out;
      });
      archived += rows.length;
    }
    return { forgotten: 0, archived };
  }

  /** Ids of the episodes that live skills, and skill drafts waiting for a person, keep as evidence. */
  private async evidenceEpisodes(): Promise<Set<string>> {
    const skills = await readAll(this.records, { kind: 'skill' }, SKILLS_MAX);
    const drafts = await readAll(this.records, { kind: 'proposal', keys: ['skill'], status: ['pending'] }, SKILLS_MAX);
    const cited = (d: Partial<SkillData> | undefined) => (Array.isArray(d?.evidence?.episodes) ? d.evidence.episodes : []);
    return new Set(
      [...skills.map((s) => cited(asSkill(s))), ...drafts.map((p) => cited(asProposal(p).payload as Partial<SkillData>))].flat(),
    );
  }

  /**
   * Purges, in one call, the records of `seen` whose current version is still the one seen
   * (checked right before: a record refreshed, restored or changed since is left alone).
   */
  private async purgeUnchanged(kind: RecordKind, seen: readonly StoredRecord[]): Promise<string[]> {
    const ids: string[] = [];
    for (const r of seen) if ((await this.records.get(kind, r.id))?.rowId === r.rowId) ids.push(r.id);
    if (ids.length) await this.records.purge(kind, ids, this.w.author);
    return ids;
  }

  private max(): number {
    return this.options.maxPerRun ?? 5000;
  }

  /** Calls `handle` on each page of current records matching `q`, up to maxPerRun records. */
  private async pages(
    q: { kind: StoredRecord['kind']; status?: string[]; dueBefore: string },
    handle: (page: StoredRecord[]) => Promise<void>,
  ): Promise<void> {
    const max = this.max();
    let after: RecordCursor | undefined;
    for (let seen = 0; seen < max;) {
      const page = await this.records.query({ ...q, limit: Math.min(PAGE, max - seen), after });
      if (page.length === 0) return;
      await handle(page);
      seen += page.length;
      const last = page[page.length - 1]!;
      after = { rank: last.rank, changedAt: last.changedAt, id: last.id };
    }
  }
}
