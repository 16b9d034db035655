/**
 * Semantic facts: subject, predicate, object with their evidence, versioned like memories
 * (never updated in place). Every write for one subject runs in the scope `fact:<subject>`,
 * so its decision (same triple? a contradiction?) sees every other writer's facts.
 *
 * - The same triple as a live (active or disputed) fact is a new version of that fact with
 *   the new evidence, not a second fact. A retracted or expired triple asserted again is a
 *   new fact: its old history stays as it was.
 * - Conflicts exist only for relations the ontology declares `cardinality: one`; without an
 *   ontology predicates are many-valued. A contradicting fact does not replace the other:
 *   both become disputed, pointing at each other, in one atomic write, and the answer shows
 *   both with their evidence for a person to resolve.
 * - verify and resolve are for people; the tool adapters never offer them to a model, and their
 *   retract refuses disputed and verified facts (factDisputes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RecordStore, StoredRecord } from '../ports/records';
import { parseInput } from '../contract/validate';
import { ConflictError, NotFoundError } from '../errors';
import { FACT_LIMITS, FactIdInput, QueryFactsInput, ResolveFactsInput, RetractFactInput, VerifyFactInput } from '../contract/facts';
import { factView, isPastDue, LIVE_STATUSES, nextFactVersion, otherObjects, releasePartners, type FactView } from './factRules';
import { checkAssertion, type CheckedAssertion } from './factAssertion';
import { refuseModelRetraction, settleDispute } from './factDisputes';
import { asFact, factColumns, normalizeKey, type FactData } from './kinds';
import type { Ontology } from './ontology';
import { DEFAULT_POLICY, type Policy } from './policy';
import { assertNoSecrets, pageOf, RecordWriter, type TierServiceOptions } from './recordRows';

export interface FactServiceOptions extends TierServiceOptions {
  /** The policy in force (read at every call, so a changed setting applies at once). */
  policy?: Policy | (() => Policy);
  /** The workspace ontology, when there is one. */
  ontology?: Ontology | null | (() => Ontology | null | undefined);
}

export interface AssertResult {
  id: string;
  version: number;
  /** created: a new fact; refreshed: a new version of the same triple; disputed: it contradicts live facts. */
  outcome: 'created' | 'refreshed' | 'disputed';
  fact: FactView;
  /** When disputed: this fact and every fact it contradicts, each with its evidence. */
  disputes: FactView[];
  /**
   * Without an ontology nothing says whether a predicate has one value: the live facts of the same
   * subject and predicate with another object, each with its evidence, for a person to judge.
   * Both stay active; nothing is replaced.
   */
  possibleContradictions: FactView[];
  /**
   * When a verified fact was re-asserted from another source: the verification the new version
   * no longer carries (a person checked the old source's claim, not the new one's).
   */
  verificationCleared?: { by: string; at: string; evidence: string };
}

export class FactService {
  private readonly w: RecordWriter;

  constructor(
    private readonly records: RecordStore,
    private readonly options: FactServiceOptions,
  ) {
    this.w = new RecordWriter(options);
  }

  private policy(): Policy {
    const p = this.options.policy;
    return (typeof p === 'function' ? p() : p) ?? DEFAULT_POLICY;
  }

  private ontology(): Ontology | undefined {
    const o = this.options.ontology;
    return (typeof o === 'function' ? o() : o) ?? undefined;
  }

  /** Checks an assertion against every rule (schema, policy, clock, secrets, ontology) and builds its data; writes nothing. */
  private validated(input: unknown): CheckedAssertion {
    return checkAssertion(input, this.policy(), this.ontology(), this.w);
  }

  /**
   * What asserting `input` would do, without writing: the checked fact, the live fact with the
   * same triple it would refresh, and the live facts it would dispute. Refuses as assert does.
   */
  async preview(
    input: unknown,
  ): Promise<{ fact: Omit<FactData, 'assertedBy' | 'keptWith'>; same: FactView | null; rivals: FactView[]; possible: FactView[] }> {
    const {
      data,
      keys: [s, p, o],
      single,
      declared,
      now,
    } = this.validated(input);
    const [same] = await this.records.query({ kind: 'fact', keys: [s, p, o], status: LIVE_STATUSES, limit: 1 });
    const { rivals, possible } = await otherObjects(this.records, [s, p, o], { single, declared, same: !!same, nowIso: now.toISOString() });
    const { assertedBy: _a, keptWith: _k, ...fact } = data;
    return { fact, same: same ? factView(same) : null, rivals: rivals.map(factView), possible: possible.map(factView) };
  }

  /** Records a fact, refreshes the same triple, or opens a dispute; refuses (writing nothing) what breaks a rule. */
  async assert(input: unknown): Promise<AssertResult> {
    const {
      data,
      keys: [s, p, o],
      single,
      declared,
      now,
    } = this.validated(input);
    const observedAt = data.observedAt;
    let possible: StoredRecord[] = [];
    let cleared: AssertResult['verificationCleared'];
    const rows = await this.records.write(`fact:${s}`, async (r) => {
      const [same] = await r.query({ kind: 'fact', keys: [s, p, o], status: LIVE_STATUSES, limit: 1 });
      const others = await otherObjects(r, [s, p, o], { single, declared, same: !!same, nowIso: now.toISOString() });
      possible = others.possible;
      if (same) {
        const old = asFact(same);
        const evidence = {
          source: data.source,
          observedAt,
          confidence: data.confidence,
          validUntil: data.validUntil,
          assertedBy: data.assertedBy,
        };
        // A refresh from the same source keeps the verification; another source (or none) needs verifying again.
        const v = old.verification;
        cleared = v.state === 'verified' && data.source !== old.source ? { by: v.by, at: v.at, evidence: v.evidence } : undefined;
        const verification: FactData['verification'] = cleared ? { state: 'unverified' } : v;
        return [await nextFactVersion(this.w, r, same, { ...old, ...evidence, verification })];
      }
      const id = randomUUID();
      const { rivals } = others;
      if (rivals.length === 0) return [this.w.row('fact', id, 1, 'create', factColumns(data), data)];
      const mine: FactData = { ...data, status: 'disputed', disputedWith: rivals.map((x) => x.id) };
      const theirs = await Promise.all(
        rivals.map((x) => {
          const d = asFact(x);
          return nextFactVersion(this.w, r, x, { ...d, status: 'disputed', disputedWith: [...d.disputedWith, id] });
        }),
      );
      return [this.w.row('fact', id, 1, 'create', factColumns(mine), mine), ...theirs];
    });
    // What was decided shows in the rows (a store may run a decision more than once).
    const outcome = rows.length > 1 ? 'disputed' : rows[0]!.version > 1 ? 'refreshed' : 'created';
    const fact = factView(rows[0]!);
    return {
      id: fact.id,
      version: fact.version,
      outcome,
      fact,
      disputes: outcome === 'disputed' ? rows.map(factView) : [],
      possibleContradictions: possible.map(factView),
      ...(outcome === 'refreshed' && cleared ? { verificationCleared: cleared } : {}),
    };
  }

  /**
   * Facts by subject and/or predicate and/or object, highest confidence first, then the most
   * recently written. Active and disputed (flagged by status: an agent should know a fact is
   * contested) and still valid, unless includeInactive also asks for retracted and expired ones.
   */
  async query(input: unknown): Promise<{ items: FactView[]; nextCursor: string | null }> {
    const q = parseInput(QueryFactsInput, input);
    const ontology = this.ontology();
    const entity = (s: string | undefined) => (s === undefined ? undefined : normalizeKey(ontology?.canonical(s) ?? s));
    const nowIso = this.w.now().toISOString();
    const { rows, nextCursor } = await pageOf(
      this.records,
      {
        kind: 'fact',
        keys: [entity(q.subject), q.predicate === undefined ? undefined : normalizeKey(q.predicate), entity(q.object)],
        status: q.includeInactive ? undefined : LIVE_STATUSES,
      },
      q.limit ?? FACT_LIMITS.queryDefault,
      q.cursor,
      (r) => q.includeInactive === true || !isPastDue(r, nowIso),
    );
    return { items: rows.map(factView), nextCursor };
  }

  /** The current version of one fact, whatever its status. */
  async show(input: unknown): Promise<FactView> {
    const { id } = parseInput(FactIdInput, input);
    return factView(await this.current(id));
  }

  /**
   * Retracts a fact; facts it was disputing with are released from that dispute. A person may
   * retract any fact; a model (`by: 'model'`, the retractFact tool) may not retract a disputed
   * fact (that would settle the dispute for the other side) nor a verified one: both are a
   * person's decisions. Checked in the write's decision, against the freshest state.
   */
  async retract(input: unknown, by: 'person' | 'model' = 'person'): Promise<FactView> {
    const { id, reason } = parseInput(RetractFactInput, input);
    assertNoSecrets({ reason });
    const rows = await this.records.write(await this.scopeOf(id), async (r) => {
      const cur = FactService.existing(id, await r.get('fact', id));
      const d = asFact(cur);
      if (d.status === 'retracted')
        throw new ConflictError(
          `fact ${id} was already retracted by ${d.retraction?.by} at ${d.retraction?.at}: ${d.retraction?.reason}`,
          cur.version,
        );
      if (by === 'model') refuseModelRetraction(cur);
      const row = await nextFactVersion(this.w, r, cur, (at) => ({
        ...d,
        status: 'retracted',
        disputedWith: [],
        retraction: { by: this.w.author, at, reason },
      }));
      return [row, ...(await releasePartners(this.w, r, [cur]))];
    });
    return factView(rows[0]!);
  }

  /**
   * A person settles a dispute among `ids` (same subject): keep-one retracts the others,
   * keep-both keeps them all and remembers they were reviewed together, retract-all retracts
   * them all. Facts outside `ids` stay disputed with whoever they still contradict.
   */
  async resolve(input: unknown): Promise<FactView[]> {
    const res = parseInput(ResolveFactsInput, input);
    if (res.reason) assertNoSecrets({ reason: res.reason });
    const rows = await this.records.write(await this.scopeOf(res.ids[0]!), async (r) => {
      const facts = await Promise.all(res.ids.map(async (id) => FactService.existing(id, await r.get('fact', id))));
      return settleDispute(this.w, r, res, facts);
    });
    return rows.map(factView);
  }

  /** A person marks a fact verified, with the evidence they checked. */
  async verify(input: unknown): Promise<FactView> {
    const v = parseInput(VerifyFactInput, input);
    assertNoSecrets({ evidence: v.evidence, by: v.by });
    const rows = await this.records.write(await this.scopeOf(v.id), async (r) => {
      const cur = FactService.existing(v.id, await r.get('fact', v.id));
      if (cur.status === 'retracted')
        throw new ConflictError(`fact ${v.id} was retracted; assert it again before verifying it`, cur.version);
      const by = v.by ?? this.w.author;
      return [
        await nextFactVersion(this.w, r, cur, (at) => ({
          ...asFact(cur),
          verification: { state: 'verified', by, at, evidence: v.evidence },
        })),
      ];
    });
    return factView(rows[0]!);
  }

  /** Every version of a fact, oldest first, each with who wrote it and how. */
  async history(input: unknown): Promise<Array<FactView & { op: StoredRecord['op']; writtenBy: string }>> {
    const { id } = parseInput(FactIdInput, input);
    const rows = await this.records.history('fact', id);
    if (rows.length === 0) FactService.existing(id, undefined);
    return rows.map((r) => ({ ...factView(r), op: r.op, writtenBy: r.author }));
  }

  private async current(id: string): Promise<StoredRecord> {
    return FactService.existing(id, await this.records.get('fact', id));
  }

  private async scopeOf(id: string): Promise<string> {
    return `fact:${(await this.current(id)).keys[0]}`;
  }

  private static existing(id: string, r: StoredRecord | undefined): StoredRecord {
    if (!r || r.deletedAt) throw new NotFoundError(`fact ${id} does not exist (or was forgotten); query facts to find one`);
    return r;
  }
}
