import * as YAML from 'yaml';
import { SecretError, ValidationError } from '../errors';
import type { SkillData } from './kinds';
import { SKILL_LIMITS, SkillInputSchema } from '../contract/skills';
import {
  assertSkillHasNoSecret,
  canonicalSkill,
  givesEvidence,
  MISSING_EXPECT,
  type ParsedSkillData,
  pathOf,
  ruleOf,
  stepsMissingExpect,
} from './skillData';
import { fromSeedShape } from './skillSeedShape';

/**
 * A skill as the YAML document a person edits and exports:
 *
 *     name: fix-flaky-test
 *     version: 3            # the version it was exported as: saving makes the next one, unless a teammate did first
 *     description: …
 *     trigger: [fix a flaky test, test fails only in CI]
 *     steps:
 *       - do: Run the test 20 times
 *         tool: npx mocha --repeat 20
 *         expect: the failure rate, e.g. 3/20 failed
 *     …
 *
 * The playbook seed's shape (`success`, `failure`, plain-text steps, a snake_case name) is read
 * too, each mapping said in `notes` (skillSeedShape.ts). Every refusal names the line and the
 * reason, so an editor save or an import can be fixed.
 */

/**
 * What a document holds: the skill, the version it says it is (a save refuses it once the skill
 * has moved on), whether it has an `evidence:` key (without one, `data.evidence` holds empty
 * lists), and the seed's spellings it used.
 */
export type ParsedSkill = ParsedSkillData;

function lineOf(counter: YAML.LineCounter, offset: number | undefined): number {
  return offset === undefined ? 1 : counter.linePos(offset).line;
}

/** The line of the deepest node on `path` that the document has (a missing key points at its mapping). */
function lineOfPath(doc: YAML.Document.Parsed, counter: YAML.LineCounter, path: readonly PropertyKey[], unknownKey?: string): number {
  for (let k = path.length; k >= 0; k--) {
    const node = k === 0 ? doc.contents : doc.getIn(path.slice(0, k) as unknown[], true);
    if (!YAML.isNode(node)) continue;
    if (unknownKey !== undefined && k === path.length && YAML.isMap(node)) {
      const pair = node.items.find((p) => YAML.isScalar(p.key) && String(p.key.value) === unknownKey);
      if (pair && YAML.isNode(pair.key)) return lineOf(counter, pair.key.range?.[0]);
    }
    return lineOf(counter, node.range?.[0]);
  }
  return 1;
}

/** Parses and validates a skill document; refuses with "line N: field rule" for every problem found. */
export function parseSkillYaml(text: string): ParsedSkill {
  if (text.length > SKILL_LIMITS.documentMax) {
    throw new ValidationError('document', `the skill document is ${text.length} characters; the limit is ${SKILL_LIMITS.documentMax}`);
  }
  const counter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const bad = doc.errors[0];
  if (bad) {
    const line = bad.linePos?.[0]?.line ?? lineOf(counter, bad.pos[0]);
    const reason = bad.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ValidationError('document', `line ${line}: ${reason}`, `line ${line}: ${reason}`);
  }
  const written: unknown = doc.toJS({ maxAliasCount: 50 });
  if (written === null || written === undefined) throw new ValidationError('document', 'the skill document is empty; start with "name: …"');
  const seed = fromSeedShape(written);
  const raw = seed.value;
  // A refusal names the key as the document spells it, at its line.
  const asWritten = (path: readonly PropertyKey[]): PropertyKey[] =>
    path.length && seed.renamed.has(String(path[0])) ? [seed.renamed.get(String(path[0]))!, ...path.slice(1)] : [...path];
  const result = SkillInputSchema.safeParse(raw);
  if (!result.success) {
    const located = result.error.issues.map((issue) => {
      const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const line = lineOfPath(doc, counter, asWritten(issue.path), unknownKey);
      const field = pathOf(asWritten(issue.path));
      return { line, field, text: `line ${line}: ${field ? `${field} ` : ''}${ruleOf(issue)}` };
    });
    located.sort((a, b) => a.line - b.line);
    const first = located[0]!;
    throw new ValidationError(first.field, first.text, located.map((l) => l.text).join('; '));
  }
  const missing = stepsMissingExpect(raw, seed.plainSteps);
  if (missing.length) {
    const texts = missing.map((i) => `line ${lineOfPath(doc, counter, ['steps', i])}: steps[${i}].expect ${MISSING_EXPECT}`);
    throw new ValidationError(`steps[${missing[0]}].expect`, texts[0]!, texts.join('; '));
  }
  const { version, ...rest } = result.data;
  const data = canonicalSkill(rest);
  try {
    assertSkillHasNoSecret(data);
  } catch (err) {
    // The document's line helps a person find it; the value is never echoed.
    if (!(err instanceof SecretError)) throw err;
    const path = err.field
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    throw new SecretError(`line ${lineOfPath(doc, counter, asWritten(path))}: ${err.field}`, err.kind, err.line);
  }
  const evidenceGiven = givesEvidence(raw);
  const notes = seed.notes;
  return version === undefined ? { data, evidenceGiven, notes } : { data, version, evidenceGiven, notes };
}

/**
 * Formats a skill as its document, keys in a fixed order (name, version, description, trigger,
 * preconditions, tools, steps, success_checks, failure_handling, evidence), so formatting what
 * was parsed gives the same text back. `comment` lines go above the first key. Data without
 * `evidence` (a proposal's payload when the proposer gave none) is formatted without the key,
 * since saving it keeps the evidence of the skill's current version. A step with neither `tool`
 * nor `expect` is written as plain text, as the seed writes it, so reading it back gives the same step.
 */
export function formatSkillYaml(data: SkillData, version?: number, comment: string[] = []): string {
  const c = canonicalSkill(data);
  const { name, evidence, ...others } = c;
  const rest = (data as Partial<SkillData>).evidence === undefined ? others : { ...others, evidence };
  const steps = rest.steps.map((s) => (s.tool === undefined && s.expect === undefined ? s.do : s));
  const ordered = version === undefined ? { name, ...rest, steps } : { name, version, ...rest, steps };
  const doc = new YAML.Document(ordered);
  if (comment.length) (doc.contents as YAML.YAMLMap).commentBefore = comment.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}
