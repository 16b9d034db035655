import { ValidationError } from '../errors';
import type { FactService } from './factService';
import type { ProposalTargetHandler } from './proposalService';

/**
 * The fact target of the proposal queue. A model's assertion is validated as `assert` would
 * validate it (schema, policy, ontology, secrets) without writing; the same live triple is
 * reported as a duplicate (approving refreshes it), and the live facts it contradicts as a
 * warning (approving marks them and it disputed). Approving asserts it as the approver.
 */
export function factProposalHandler(factsFor: (author: string) => FactService, preview: FactService): ProposalTargetHandler {
  return {
    async validate(payload, action) {
      if (action !== 'create') throw new ValidationError('action', 'facts are proposed as new assertions (action create); retract a fact to end it');
      const { fact, same, rivals } = await preview.preview(payload);
      const conf = fact.confidence === null ? 'confidence not given' : `confidence ${fact.confidence}`;
      const summary = `fact: ${fact.subject} ${fact.predicate} ${fact.object} (${conf}; source ${fact.source ?? 'not given'})`.slice(0, 300);
      const duplicates = same ? [{ kind: 'fact', id: same.id, similarity: 1, label: `${same.subject} ${same.predicate} ${same.object} v${same.version} (${same.status})` }] : [];
      const warnings = [
        ...(same ? [`the same fact is stored (${same.id}, version ${same.version}); approving records this evidence as its next version`] : []),
        ...rivals.map((r) =>
          `contradicts ${r.status} fact ${r.id}: ${r.subject} ${r.predicate} ${r.object} (source ${r.source ?? 'none'}, confidence ${r.confidence ?? 'none'}, asserted by ${r.assertedBy}); approving marks both disputed for a person to resolve`),
      ];
      return { payload: payload as Record<string, unknown>, summary, duplicates, warnings };
    },
    async apply(payload, _action, _targetId, decidedBy) {
      return { id: (await factsFor(decidedBy).assert(payload)).id };
    },
  };
}
