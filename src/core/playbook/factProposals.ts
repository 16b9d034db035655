import { ValidationError } from '../errors';
import type { FactService } from './factService';
import { byEarlierAttempt, type ProposalTargetHandler } from './proposalTargets';

/** Facts of the proposed triple (any status) examined for the one an interrupted approval wrote. */
const RECOVERY_FACTS_MAX = 100;

/**
 * The fact target of the proposal queue. A model's assertion is validated as `assert` would
 * validate it (schema, policy, ontology, secrets) without writing; the same live triple is
 * reported as a duplicate (approving refreshes it), and the live facts it contradicts as a
 * warning (approving marks them and it disputed). Approving asserts it as the approver.
 *
 * What is queued is the checked assertion with its observedAt filled in at proposal time: a
 * fact proposed on the 1st and approved on the 11th was observed on the 1st. That evidence
 * (triple, source, observedAt, confidence, validUntil) also identifies the write: a version
 * carrying it, written by an approver since the first claim, is what an interrupted approval
 * wrote. (The fact's data has no place for the proposal id; its service is not ours to change.)
 */
export function factProposalHandler(
  factsFor: (author: string, proposedBy: string) => FactService,
  preview: FactService,
): ProposalTargetHandler {
  return {
    async validate(payload, action) {
      if (action !== 'create')
        throw new ValidationError('action', 'facts are proposed as new assertions (action create); retract a fact to end it');
      const { fact, same, rivals, possible } = await preview.preview(payload);
      const conf = fact.confidence === null ? 'confidence not given' : `confidence ${fact.confidence}`;
      const summary = `fact: ${fact.subject} ${fact.predicate} ${fact.object} (${conf}; source ${fact.source ?? 'not given'})`.slice(
        0,
        300,
      );
      const duplicates = same
        ? [
            {
              kind: 'fact',
              id: same.id,
              similarity: 1,
              label: `${same.subject} ${same.predicate} ${same.object} v${same.version} (${same.status})`,
            },
          ]
        : [];
      const warnings = [
        ...(same
          ? [`the same fact is stored (${same.id}, version ${same.version}); approving records this evidence as its next version`]
          : []),
        ...rivals.map(
          (r) =>
            `contradicts ${r.status} fact ${r.id}: ${r.subject} ${r.predicate} ${r.object} (source ${r.source ?? 'none'}, confidence ${r.confidence ?? 'none'}, asserted by ${r.assertedBy}); approving marks both disputed for a person to resolve`,
        ),
        ...possible.map(
          (r) =>
            `may contradict ${r.status} fact ${r.id}: ${r.subject} ${r.predicate} ${r.object} (source ${r.source ?? 'none'}, confidence ${r.confidence ?? 'none'}, asserted by ${r.assertedBy}); no ontology says whether "${r.predicate}" has one value, so approving keeps both active — retract the wrong one, or declare the relation with cardinality: one in ontology.yaml`,
        ),
      ];
      const { subject, predicate, object, source, confidence, observedAt, validUntil } = fact;
      return { payload: { subject, predicate, object, source, confidence, observedAt, validUntil }, summary, duplicates, warnings };
    },
    async apply(r) {
      return { id: (await factsFor(r.decidedBy, r.proposedBy).assert(r.payload)).id };
    },
    async applied(r) {
      const p = r.payload as {
        subject: string;
        predicate: string;
        object: string;
        source: string | null;
        confidence: number | null;
        observedAt: string;
        validUntil: string | null;
      };
      const mine = byEarlierAttempt(r);
      const { items } = await preview.query({
        subject: p.subject,
        predicate: p.predicate,
        object: p.object,
        includeInactive: true,
        limit: RECOVERY_FACTS_MAX,
      });
      for (const f of items) {
        const versions = await preview.history({ id: f.id });
        const written = versions.some(
          (v) =>
            mine(v.writtenBy, v.changedAt) &&
            v.source === p.source &&
            v.confidence === p.confidence &&
            v.observedAt === p.observedAt &&
            v.validUntil === p.validUntil,
        );
        if (written) return { id: f.id };
      }
      return null;
    },
  };
}
