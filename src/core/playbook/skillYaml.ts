import * as YAML from 'yaml';
import { SecretError, ValidationError } from '../errors';
import type { SkillData } from './kinds';
import { SKILL_LIMITS, SkillInputSchema } from '../contract/skills';
import { assertSkillHasNoSecret, canonicalSkill, givesEvidence, pathOf, ruleOf } from './skillData';

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
 * Every refusal names the line and the reason, so an editor save or an import can be fixed.
 */

/** What a document holds: the skill, and the version it says it is (a save refuses it once the skill has moved on). */
export interface ParsedSkill {
  data: SkillData;
  version?: number;
  /** Whether the document has an `evidence:` key (without one, `data.evidence` holds empty lists). */
  evidenceGiven: boolean;
}

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
  const raw: unknown = doc.toJS({ maxAliasCount: 50 });
  if (raw === null || raw === undefined) throw new ValidationError('document', 'the skill document is empty; start with "name: …"');
  const result = SkillInputSchema.safeParse(raw);
  if (!result.success) {
    const located = result.error.issues.map((issue) => {
      const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const line = lineOfPath(doc, counter, issue.path, unknownKey);
      const field = pathOf(issue.path);
      return { line, field, text: `line ${line}: ${field ? `${field} ` : ''}${ruleOf(issue)}` };
    });
    located.sort((a, b) => a.line - b.line);
    const first = located[0]!;
    throw new ValidationError(first.field, first.text, located.map((l) => l.text).join('; '));
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
    throw new SecretError(`line ${lineOfPath(doc, counter, path)}: ${err.field}`, err.kind, err.line);
  }
  const evidenceGiven = givesEvidence(raw);
  return version === undefined ? { data, evidenceGiven } : { data, version, evidenceGiven };
}

/**
 * Formats a skill as its document, keys in a fixed order (name, version, description, trigger,
 * preconditions, tools, steps, success_checks, failure_handling, evidence), so formatting what
 * was parsed gives the same text back. `comment` lines go above the first key. Data without
 * `evidence` (a proposal's payload when the proposer gave none) is formatted without the key,
 * since saving it keeps the evidence of the skill's current version.
 */
export function formatSkillYaml(data: SkillData, version?: number, comment: string[] = []): string {
  const c = canonicalSkill(data);
  const { name, evidence, ...others } = c;
  const rest = (data as Partial<SkillData>).evidence === undefined ? others : { ...others, evidence };
  const ordered = version === undefined ? { name, ...rest } : { name, version, ...rest };
  const doc = new YAML.Document(ordered);
  if (comment.length) (doc.contents as YAML.YAMLMap).commentBefore = comment.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}
