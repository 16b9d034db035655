/**
 * The forgetting run: applies the lifecycle policy to what is stored, then records a report
 * a person can read. It expires facts past valid_until (a new version with status expired,
 * or purged when semantic.expired is forget) and retires episodes older than
 * episodic.ttl_days (purged when episodic.expired is forget, else a soft-delete version),
 * except episodes that a live skill keeps as evidence.
 *
 * Bounded work: each layer is read in pages of PAGE records in the store's order, with a
 * cursor, up to `maxPerRun` records per layer; what is left is handled by the next run (the
 * records it has not reached are still due). Handled records leave the query (expired,
 * deleted, purged), and a cursor is a position in the order, not a record, so paging stays
 * correct while the run changes what it pages through.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RecordCursor, RecordStore, StoredRecord } from '../../store/records';
import { parseInput } from '../contract/validate';
import { isPastDue, nextFactVersion, releasePartners } from './factRules';
import { asFact, asReport, asSkill, reportColumns, type ReportData } from './kinds';
import { DEFAULT_POLICY, type Policy } from './policy';
import { readAll, Writer, type LayerServiceOptions } from './recordRows';

const PAGE = 200;
const DAY_MS = 24 * 3600_000;
/** Skills read to learn which episodes are evidence; far more than any team writes. */
const SKILLS_MAX = 50_000;
/** Due facts of one subject expired in one write. */
const SUBJECT_MAX = 1000;

export interface LifecycleOptions extends LayerServiceOptions {
  policy?: Policy | (() => Policy);
  /** Proposes skill drafts from repeated successes (the procedural layer); returns the proposal ids. */
  promote?: (context: { now: Date; policy: Policy }) => Promise<string[]>;
  /** Most records one run handles per layer (default 5000). */
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

export class Lifecycle {
  private readonly w: Writer;

  constructor(
    private readonly records: RecordStore,
    private readonly options: LifecycleOptions,
  ) {
    this.w = new Writer(options);
  }

  private policy(): Policy {
    const p = this.options.policy;
    return (typeof p === 'function' ? p() : p) ?? DEFAULT_POLICY;
  }

  /** Runs the rules once and writes the report (also when the promotion callback fails, which is then thrown). */
  async runForgetting(input: unknown): Promise<Report> {
    const run = parseInput(RunInput, input);
    const now = run.now ?? this.w.now();
    const policy = this.policy();
    const expiredFacts = await this.expireFacts(now.toISOString(), policy.semantic.expired);
    const episodes = await this.retireEpisodes(new Date(now.getTime() - policy.episodic.ttl_days * DAY_MS).toISOString(), policy.episodic.expired);
    let promotions: string[] = [];
    let failure: unknown;
    try {
      promotions = (await this.options.promote?.({ now, policy })) ?? [];
    } catch (err) {
      failure = err;
    }
    const data: ReportData = {
      ranAt: now.toISOString(), trigger: run.trigger, expiredFacts,
      forgottenEpisodes: episodes.forgotten, archivedEpisodes: episodes.archived, promotions,
      searchReads: run.searchReads ?? { searches: 0, returned: 0, read: 0 },
    };
    const id = randomUUID();
    await this.records.write(`report:${id}`, () => [this.w.row('report', id, 1, 'create', reportColumns(data), data)]);
    if (failure) throw failure;
    return { id, ...data };
  }

  /** The most recent reports, newest first. */
  async reports(input: unknown = {}): Promise<Report[]> {
    const { limit } = parseInput(z.object({ limit: z.number().int().min(1).max(100).optional() }).strict(), input ?? {});
    const rows = await this.records.query({ kind: 'report', limit: limit ?? 10 });
    return rows.map((r) => ({ id: r.id, ...asReport(r) }));
  }

  /** True when no run was reported within forgetting.run_every_hours. */
  async isDue(now: Date = this.w.now()): Promise<boolean> {
    const [last] = await this.reports({ limit: 1 });
    return !last || Date.parse(last.ranAt) + this.policy().forgetting.run_every_hours * 3600_000 <= now.getTime();
  }

  /** Live facts past valid_until: one write per subject expires them and releases their disputes. */
  private async expireFacts(nowIso: string, action: Policy['semantic']['expired']): Promise<string[]> {
    const expired: string[] = [];
    const done = new Set<string>();
    await this.pages({ kind: 'fact', status: ['active', 'disputed'], dueBefore: nowIso }, async (page) => {
      for (const subject of new Set(page.map((r) => r.keys[0]))) {
        if (done.has(subject)) continue;
        done.add(subject);
        let due: StoredRecord[] = [];
        await this.records.write(`fact:${subject}`, async (r) => {
          // Re-read under the lock: another writer may have refreshed or retracted them since.
          due = (await readAll(r, { kind: 'fact', keys: [subject], status: ['active', 'disputed'], dueBefore: nowIso }, SUBJECT_MAX)).filter((f) => isPastDue(f, nowIso));
          const partners = await releasePartners(this.w, r, due);
          if (action === 'forget') return partners;
          const rows = await Promise.all(due.map((f) => nextFactVersion(this.w, r, f, { ...asFact(f), status: 'expired', disputedWith: [] })));
          return [...rows, ...partners];
        });
        if (action === 'forget' && due.length) await this.records.purge('fact', due.map((f) => f.id));
        expired.push(...due.map((f) => f.id));
      }
    });
    return expired;
  }

  /** Episodes recorded before `cutoffIso`, except the evidence of live skills: purged or archived. */
  private async retireEpisodes(cutoffIso: string, action: Policy['episodic']['expired']): Promise<{ forgotten: number; archived: number }> {
    const skills = await readAll(this.records, { kind: 'skill' }, SKILLS_MAX);
    const evidence = new Set(skills.flatMap((s) => asSkill(s).evidence?.episodes ?? []));
    let forgotten = 0;
    let archived = 0;
    await this.pages({ kind: 'episode', dueBefore: cutoffIso }, async (page) => {
      const ids = page.filter((e) => !evidence.has(e.id)).map((e) => e.id);
      if (ids.length === 0) return;
      if (action === 'forget') {
        await this.records.purge('episode', ids);
        forgotten += ids.length;
        return;
      }
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
    });
    return { forgotten, archived };
  }

  /** Calls `handle` on each page of current records matching `q`, up to maxPerRun records. */
  private async pages(q: { kind: StoredRecord['kind']; status?: string[]; dueBefore: string }, handle: (page: StoredRecord[]) => Promise<void>): Promise<void> {
    const max = this.options.maxPerRun ?? 5000;
    let after: RecordCursor | undefined;
    for (let seen = 0; seen < max; ) {
      const page = await this.records.query({ ...q, limit: Math.min(PAGE, max - seen), after });
      if (page.length === 0) return;
      await handle(page);
      seen += page.length;
      const last = page[page.length - 1]!;
      after = { rank: last.rank, changedAt: last.changedAt, id: last.id };
    }
  }
}
