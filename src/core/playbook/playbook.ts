/**
 * the tiers of the playbook composed over one store: what the adapters (tools, MCP, CLI,
 * views) use. Policy and ontology are read through functions at every call, so a changed
 * setting or file applies without rebuilding anything.
 */
import { parseInput, RecordRow } from '../contract';
import { refusalAt, SecretError } from '../errors';
import type { StoredRecord } from '../ports/records';
import type { Store } from '../ports/store';
import { type Channel, withChannel } from '../ports/origin';
import { findSecret } from '../secrets';
import type { MemoryService } from '../memoryService';
import { ContextService } from './contextService';
import { EpisodeService } from './episodeService';
import { factProposalHandler } from './factProposals';
import { FactService } from './factService';
import { Lifecycle, type RunReport } from './lifecycle';
import type { Ontology } from './ontology';
import { DEFAULT_POLICY, type Policy } from './policy';
import { draftProposalId, findPromotions, type PromotionResult } from './promotion';

/** What a promotion run did: the proposals it queued, and why no other group was proposed. */
export interface PromotionOutcome extends Omit<PromotionResult, 'drafts'> {
  /** Ids of the skill proposals queued by this run. */
  proposals: string[];
}
import { memoryProposalHandler, skillProposalHandler } from './proposalHandlers';
import { ProposalService } from './proposalService';
import { SkillService } from './skillService';

export interface PlaybookOptions {
  /** Who writes (a person or the agent's host); a function is called at the first write. */
  author: string | (() => string);
  now?: () => Date;
  /** The client the writes come through, recorded on every version. */
  channel?: Channel;
  policy?: () => Policy;
  ontology?: () => Ontology | null;
  /** A MemoryService that writes as `author` (approvals are written as the approver, naming the proposer). */
  memoriesFor?: (author: string, proposedBy?: string) => MemoryService;
}

/**
 * How often search results were read afterwards: the ids the last searches returned, and
 * reads of them. Kept per process, reported and reset by each forgetting run.
 */
export class SearchReads {
  private returned = new Set<string>();
  private counts = { searches: 0, returned: 0, read: 0 };

  searched(ids: readonly string[]): void {
    this.counts.searches++;
    this.counts.returned += ids.length;
    for (const id of ids) this.returned.add(id);
    // Bounded: only the recent past matters for "read after being found".
    if (this.returned.size > 5000) this.returned = new Set([...this.returned].slice(-2500));
  }

  read(id: string): void {
    if (this.returned.delete(id)) this.counts.read++;
  }

  /** The counts since the last take, and a fresh start. */
  take(): { searches: number; returned: number; read: number } {
    const c = this.counts;
    this.counts = { searches: 0, returned: 0, read: 0 };
    return c;
  }

  /** Adds taken counts back (their run was not recorded), so the next recorded run reports them. */
  giveBack(c: { searches: number; returned: number; read: number }): void {
    this.counts = {
      searches: this.counts.searches + c.searches,
      returned: this.counts.returned + c.returned,
      read: this.counts.read + c.read,
    };
  }
}

export class Playbook {
  readonly episodes: EpisodeService;
  readonly facts: FactService;
  readonly skills: SkillService;
  readonly proposals: ProposalService;
  readonly lifecycle: Lifecycle;
  readonly context: ContextService;
  readonly searchReads = new SearchReads();
  /** The client this playbook's writes come through (imported records without one are marked with it). */
  readonly channel: Channel | undefined;
  private readonly policyNow: () => Policy;
  /** The workspace ontology (null without one); throws the file's parse error (line and reason). */
  readonly ontology: () => Ontology | null;

  constructor(
    readonly store: Store,
    readonly memories: MemoryService,
    options: PlaybookOptions,
  ) {
    const { author, now, channel } = options;
    const policy = (this.policyNow = options.policy ?? (() => DEFAULT_POLICY));
    const ontology = (this.ontology = options.ontology ?? (() => null));
    const factsAs = (who: string | (() => string), proposedBy?: string) =>
      new FactService(store.records, { author: who, proposedBy, now, channel, policy, ontology });
    this.channel = channel;
    this.episodes = new EpisodeService(store.records, { author, now, channel });
    this.facts = factsAs(author);
    this.skills = new SkillService(store, { author, now, channel });
    this.proposals = new ProposalService(store, {
      targets: {
        fact: factProposalHandler((who, proposedBy) => factsAs(who, proposedBy), this.facts),
        skill: skillProposalHandler(this.skills),
        memory: memoryProposalHandler({ service: memories, serviceFor: options.memoriesFor }),
      },
      selfApproval: () => policy().review.self_approval === 'allowed',
      approvers: () => {
        const p = policy();
        // The owner may always decide; naming only an owner makes them the only approver.
        const who = (l: { owner: string | null; approvers: string[] }) => (l.owner ? [l.owner, ...l.approvers] : l.approvers);
        return { fact: who(p.semantic), skill: who(p.procedural) };
      },
      now,
      channel,
    });
    this.lifecycle = new Lifecycle(store.records, { author, now, channel, policy, ontology, promote: (c) => this.promote(c.policy) });
    this.context = new ContextService(store, {
      memories,
      skills: this.skills,
      episodes: this.episodes,
      ontology,
      defaultMaxTokens: () => policy().working.max_tokens,
      now,
    });
  }

  policy(): Policy {
    return this.policyNow();
  }

  /**
   * Proposes a skill draft for each group of repeated successes no skill covers; returns the ids
   * of the proposals it queued. A draft's proposal id derives from its evidence, so runs at the
   * same time (two windows, the CLI) queue it once.
   */
  async promote(policy: Policy = this.policyNow()): Promise<string[]> {
    return (await this.promoteExplained(policy)).proposals;
  }

  /** As promote, and why the other groups were not proposed: covered by a skill or a draft, or not evidence enough yet. */
  async promoteExplained(policy: Policy = this.policyNow()): Promise<PromotionOutcome> {
    const found = await findPromotions(this.store, this.skills, { minSuccesses: policy.procedural.promotion_min_successes });
    const proposals: string[] = [];
    for (const d of found.drafts) {
      const id = draftProposalId(d.data.evidence.episodes);
      const r = await this.proposals.proposeOnce(id, { target: 'skill', payload: d.data, proposedBy: 'promotion from episodes' });
      if (r.queued) proposals.push(id);
    }
    return { proposals, scanned: found.scanned, covered: found.covered, notReady: found.notReady, untagged: found.untagged };
  }

  /** Appends rows that checkRecords (or a seed conversion) returned, those without a channel marked with this one's. */
  async importChecked(rows: StoredRecord[]): Promise<{ added: number; skipped: number }> {
    if (!rows.length) return { added: 0, skipped: 0 };
    return this.store.records.importRecords(withChannel(rows, this.channel));
  }

  /**
   * The record rows of an export (episodes, facts, skills, proposals, reports), each checked for
   * shape and secrets, one bad row refusing them all (a refusal names the row); writes nothing.
   */
  checkRecords(rows: unknown[], describeRow: (index: number) => string = (i) => `rows[${i}]`): StoredRecord[] {
    return rows.map((r, i) => {
      try {
        const row = parseInput(RecordRow, r);
        const secret = findSecret(JSON.stringify(row.data));
        if (secret) throw new SecretError('data', secret.kind, secret.line);
        return row as StoredRecord;
      } catch (err) {
        throw refusalAt(describeRow(i), err);
      }
    });
  }

  /** Leaves this process's search→read counts in the store for the next forgetting run (a stopping MCP server). */
  async saveSearchReads(client: string): Promise<void> {
    const counts = this.searchReads.take();
    try {
      await this.lifecycle.recordUsage(counts, client);
    } catch (err) {
      this.searchReads.giveBack(counts);
      throw err;
    }
  }

  async runForgetting(trigger: 'activation' | 'schedule' | 'command' | 'cli'): Promise<RunReport> {
    const searchReads = this.searchReads.take();
    // A run that fails is thrown whether or not it was recorded: its counts go with it.
    const report = await this.lifecycle.runForgetting({ trigger, searchReads });
    if (report.id === null) this.searchReads.giveBack(searchReads);
    return report;
  }
}
