import { screenMemory } from '../screening';
import { ValidationError } from '../errors';
import type { MemoryService } from '../memoryService';
import { asSkill } from './kinds';
import { byEarlierAttempt, type ApplyRequest, type Duplicate, type ProposalTargetHandler } from './proposalTargets';
import { jaccard, skillTerms } from './skillMatch';
import { canonicalSkill } from './skillData';
import { SkillService } from './skillService';

/**
 * The skill and memory targets of the proposal queue (the fact target lives with the fact
 * service). Near-duplicates are items whose analysed terms (src/core/text.ts) have a Jaccard
 * similarity of at least NEAR_DUPLICATE with the proposal's: for a skill its name, description
 * and triggers; for a memory its description and tags, by the rule creates use (core/duplicates.ts).
 */
export const NEAR_DUPLICATE = 0.6;
const MAX_DUPLICATES = 5;
/** Most memories changed since an interrupted approval that are examined for the one it created. */
const RECOVERY_SCAN_MAX = 1000;

const round = (n: number) => Math.round(n * 100) / 100;

function top(d: Duplicate[]): Duplicate[] {
  return d
    .filter((x) => x.similarity >= NEAR_DUPLICATE)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, MAX_DUPLICATES);
}

/**
 * Skill proposals: the payload is the skill (YAML text or data); approving saves it (a new
 * skill or the next version of its name). The proposal is pinned to the version of the live
 * skill of that name when proposed (or to "none"), so approving after someone changed it, or
 * after the name was taken, is a conflict rather than an overwrite. The version it writes
 * carries the proposal id, so a retried approval finds it.
 */
export function skillProposalHandler(skills: SkillService): ProposalTargetHandler {
  return {
    async validate(payload, action, targetId) {
      const { data, evidenceGiven } = SkillService.parse(payload);
      const live = await skills.liveRecords();
      const same = live.find((r) => asSkill(r).name === data.name);
      const warnings: string[] = [];
      if (action === 'edit') {
        const target = live.find((r) => r.id === targetId || asSkill(r).name === targetId);
        if (!target) throw new ValidationError('targetId', `names no live skill; give the id or name of the skill to change`);
        if (asSkill(target).name !== data.name)
          throw new ValidationError(
            'payload.name',
            `is "${data.name}" but the skill to change is "${asSkill(target).name}"; renaming is a new skill`,
          );
      }
      if (same) {
        // Saving a skill without evidence keeps the live version's (SkillService.save); compare what would be stored.
        const saved = canonicalSkill(asSkill(same));
        const next = evidenceGiven ? data : { ...data, evidence: saved.evidence };
        warnings.push(
          JSON.stringify(saved) === JSON.stringify(next)
            ? `identical to skill "${data.name}" version ${same.version}; approving changes nothing`
            : `skill "${data.name}" exists at version ${same.version}; approving saves version ${same.version + 1}`,
        );
      }
      const mine = skillTerms(data);
      const duplicates = top(
        live
          .filter((r) => r !== same)
          .map((r) => ({
            kind: 'skill',
            id: r.id,
            similarity: round(jaccard(mine, skillTerms(asSkill(r)))),
            label: `${asSkill(r).name} v${r.version}`,
          })),
      );
      const verb = same ? `new version of "${data.name}"` : `new skill "${data.name}"`;
      const { evidence: _omitted, ...withoutEvidence } = data;
      return {
        payload: (evidenceGiven ? data : withoutEvidence) as unknown as Record<string, unknown>,
        summary: `skill: ${verb} — ${data.description}`.slice(0, 300),
        duplicates,
        warnings,
        targetVersion: same?.version ?? null,
      };
    },
    async apply(r) {
      const pin = r.targetVersion === undefined ? {} : { expectedVersion: r.targetVersion };
      const saved = await skills.save(r.payload, { author: r.decidedBy, proposedBy: r.proposedBy, proposalId: r.proposalId, ...pin });
      return { id: saved.id };
    },
    async applied(r) {
      return (await skills.approvedFrom(String(r.payload.name), r.proposalId)) ?? null;
    },
  };
}

export interface MemoryHandlerOptions {
  /** Searches and reads for validation. */
  service: MemoryService;
  /** The service that writes an approved proposal as `author` (the person who approved it), naming who proposed it; default `service`. */
  serviceFor?: (author: string, proposedBy: string) => MemoryService;
}

/** The approver is told when the text reads like instructions to an agent (core/screening.ts). */
const instructionWarnings = (m: { description?: string; content?: string }) =>
  screenMemory(m).map((reason) => `reads like instructions to an agent: ${reason}`);

/**
 * Memory proposals (when writes are queued for review): the payload is a create input, or an
 * edit's fields (the memory is the proposal's targetId). An edit is pinned to the version it
 * was proposed against, so approving it after someone else changed the memory is a conflict.
 */
export function memoryProposalHandler(options: MemoryHandlerOptions): ProposalTargetHandler {
  const { service } = options;
  const writer = (r: ApplyRequest) => options.serviceFor?.(r.decidedBy, r.proposedBy) ?? service;
  async function duplicatesOf(description: string, tags: string[], except: string | null): Promise<Duplicate[]> {
    const similar = await service.similarTo({ description, tags }, except, MAX_DUPLICATES);
    return similar.map((h) => ({ kind: 'memory', id: h.id, similarity: h.similarity, label: h.description.slice(0, 120) }));
  }
  type Fields = { description?: string; tags?: string[]; content?: string };
  const sameFields = (m: Required<Fields>, want: Fields) =>
    (['description', 'tags', 'content'] as const).every((f) => want[f] === undefined || JSON.stringify(m[f]) === JSON.stringify(want[f]));
  /** The memory an earlier attempt created: its first version written by an approver since the first claim, with the payload's fields. */
  async function createdEarlier(r: ApplyRequest): Promise<{ id: string } | null> {
    const mine = byEarlierAttempt(r);
    const since = r.attempts[0]!.at;
    for (const deleted of [false, true]) {
      let cursor: string | undefined;
      for (let scanned = 0; scanned < RECOVERY_SCAN_MAX;) {
        const page = await service.list({ deleted, limit: 100, ...(cursor ? { cursor } : {}) });
        for (const m of page.items) {
          if (m.changedAt < since) break;
          const first = (await service.history({ id: m.id }))[0];
          if (first && mine(first.author, first.changedAt) && sameFields(first, r.payload as Fields)) return { id: m.id };
        }
        scanned += page.items.length;
        const last = page.items.at(-1);
        if (!page.nextCursor || !last || last.changedAt < since) break;
        cursor = page.nextCursor;
      }
    }
    return null;
  }
  /** Whether an earlier attempt already made the edit: a later version than the pinned one, by an approver, with the payload's fields. */
  async function editedEarlier(r: ApplyRequest): Promise<{ id: string } | null> {
    const mine = byEarlierAttempt(r);
    const pinned = Number(r.payload.expectedVersion ?? 0);
    const versions = await service.history({ id: r.targetId! });
    return versions.some((v) => v.version > pinned && mine(v.author, v.changedAt) && sameFields(v, r.payload as Fields))
      ? { id: r.targetId! }
      : null;
  }
  return {
    async validate(payload, action, targetId) {
      if (action === 'create') {
        // The same checks as a direct create (MemoryService is the one home of the rule).
        const m = service.checkCreate(payload);
        return {
          payload: m,
          summary: `memory: create "${m.description}"`.slice(0, 300),
          duplicates: await duplicatesOf(m.description, m.tags, null),
          warnings: instructionWarnings(m),
        };
      }
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
        throw new ValidationError('payload', 'must be the fields to change: description, tags, content');
      const { id, ...fields } = service.checkEdit({ ...(payload as object), id: targetId });
      const cur = await service.editable(id);
      const pinned = { ...fields, expectedVersion: fields.expectedVersion ?? cur.version };
      const changed = (['description', 'tags', 'content'] as const).filter(
        (f) => fields[f] !== undefined && JSON.stringify(fields[f]) !== JSON.stringify(cur[f]),
      );
      const warnings = changed.length
        ? instructionWarnings(fields)
        : [`memory ${id} already holds these values; approving changes nothing`];
      return {
        payload: pinned,
        targetVersion: pinned.expectedVersion,
        summary: `memory: edit ${id.slice(0, 8)} "${cur.description}" (${changed.join(', ') || 'no change'})`.slice(0, 300),
        duplicates: await duplicatesOf(fields.description ?? cur.description, fields.tags ?? cur.tags, id),
        warnings,
      };
    },
    async apply(r) {
      if (r.action === 'create') return writer(r).create(r.payload);
      await writer(r).edit({ ...r.payload, id: r.targetId });
      return { id: r.targetId! };
    },
    applied: (r) => (r.action === 'create' ? createdEarlier(r) : editedEarlier(r)),
  };
}
