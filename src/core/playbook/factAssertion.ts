import { parseInput } from '../contract/validate';
import { AssertFactInput } from '../contract/facts';
import { ValidationError } from '../errors';
import { factColumns, type FactData } from './kinds';
import type { Ontology } from './ontology';
import type { Policy } from './policy';
import { assertNoSecrets, type RecordWriter } from './recordRows';

/** An assertion that passed every rule: the fact's data and keys, what the ontology says of its predicate, and the time it was checked at. */
export interface CheckedAssertion {
  data: FactData;
  keys: [string, string, string];
  /** The ontology declares the predicate `cardinality: one`: another object contradicts. */
  single: boolean;
  /** The ontology declares the predicate at all. */
  declared: boolean;
  now: Date;
}

/**
 * Checks an assertion (assertFact's input) against every rule: the schema, the policy's required
 * evidence, the clock (observed not in the future, valid until later than that and than now),
 * secrets, and the ontology (canonical names, declared predicates); builds the fact's data as `w`
 * writes it. Writes nothing; throws a refusal that names the field.
 */
export function checkAssertion(input: unknown, policy: Policy, ontology: Ontology | undefined, w: RecordWriter): CheckedAssertion {
  const f = parseInput(AssertFactInput, input);
  const { semantic } = policy;
  const missing: Array<[field: string, rule: string]> = [];
  if (semantic.require_source && !f.source)
    missing.push([
      'source',
      'required; name where this comes from (a URL, a file, a commit, a memory id) — the policy semantic.require_source is on',
    ]);
  if (semantic.require_confidence && (f.confidence === undefined || f.confidence === null))
    missing.push(['confidence', 'required; say how sure the source is, from 0 to 1 — the policy semantic.require_confidence is on']);
  if (missing.length)
    throw new ValidationError(missing[0]![0], missing[0]![1], missing.map(([field, rule]) => `${field}: ${rule}`).join('; '));
  const now = w.now();
  const observedAt = f.observedAt ?? now.toISOString();
  w.checkNotFuture('observedAt', observedAt, 'give when it was observed', now);
  if (f.validUntil && f.validUntil <= observedAt)
    throw new ValidationError('validUntil', `(${f.validUntil}) must be later than observedAt (${observedAt})`);
  if (f.validUntil && Date.parse(f.validUntil) <= now.getTime())
    throw new ValidationError('validUntil', `(${f.validUntil}) has already passed; the fact would be hidden at once`);
  assertNoSecrets({ subject: f.subject, predicate: f.predicate, object: f.object, source: f.source });
  const checked = ontology?.check(f) ?? { ...f, relation: undefined };
  const data: FactData = {
    subject: checked.subject,
    predicate: checked.predicate,
    object: checked.object,
    source: f.source ?? null,
    observedAt,
    confidence: f.confidence ?? null,
    validUntil: f.validUntil ?? null,
    status: 'active',
    verification: { state: 'unverified' },
    disputedWith: [],
    retraction: null,
    assertedBy: w.author,
  };
  return {
    data,
    keys: factColumns(data).keys,
    single: checked.relation?.cardinality === 'one',
    declared: checked.relation !== undefined,
    now,
  };
}
