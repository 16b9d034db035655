import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseInput, RecordEpisodeInput } from '../../../src/core/contract';
import { Ontology } from '../../../src/core/playbook/ontology';
import { readPolicyFile, resolvePolicy } from '../../../src/core/playbook/policy';
import { formatSkillYaml, parseSkillYaml } from '../../../src/core/playbook/skillYaml';
import { refusal } from '../../helpers/assertions';

// The playbook seed's own examples, copied verbatim into test/data/seeds: a new user copies them.
const seed = (f: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'seeds', f), 'utf8');

describe("the playbook seed's files, read as written", () => {
  it('its lifecycle configuration (memory: root, backend:, keep_recent_turns) is accepted; unused keys are reported with why', () => {
    const { overrides, notes } = readPolicyFile(seed('policy.yaml'));
    assert.deepEqual(overrides, {
      working: { max_tokens: 12000 },
      episodic: { ttl_days: 90 },
      semantic: { require_source: true, require_confidence: true },
      procedural: { promotion_min_successes: 3 },
      forgetting: { run_every_hours: 24 },
    });
    assert.deepEqual(
      notes.map((n) => [n.key, n.line]),
      [
        ['working.keep_recent_turns', 4],
        ['episodic.backend', 6],
        ['semantic.backend', 9],
        ['procedural.backend', 13],
      ],
    );
    assert.match(notes[0]!.why, /the chat client keeps the conversation's turns/);
    assert.match(notes[1]!.why, /every tier lives in one store/);
    assert.equal(resolvePolicy({ file: { text: seed('policy.yaml') } }).working.max_tokens, 12000);
  });

  it('a mistake under memory: is reported at its line; settings under memory: and at the top level both are refused', () => {
    assert.match(refusal(() => readPolicyFile('memory:\n  episodic:\n    ttl_day: 3\n')).message, /line 3: unknown key episodic\.ttl_day/);
    assert.match(
      refusal(() => readPolicyFile('memory:\n  working: {}\nepisodic:\n  ttl_days: 3\n')).message,
      /either under memory: or at the top level/,
    );
  });

  it('its ontology (entities: instead of types:) loads, with its relations', () => {
    const o = Ontology.parse(seed('ontology.yaml'));
    assert.deepEqual(o.types, ['user', 'project', 'service', 'deployment']);
    assert.deepEqual(
      o.relations.map((r) => [r.name, r.from, r.to, r.cardinality]),
      [
        ['owns', ['user'], ['project'], 'many'],
        ['contains', ['project'], ['service'], 'many'],
        ['deployed_as', ['service'], ['deployment'], 'many'],
      ],
    );
    assert.match(refusal(() => Ontology.parse('types: [a]\nentities: [b]\nrelations: []\n')).message, /types or entities, not both/);
  });

  it('its episode line: source "conversation:abc" is a chat pointer, the time without milliseconds is accepted', () => {
    const { id, ...line } = JSON.parse(seed('episode.jsonl')) as Record<string, unknown>;
    assert.equal(id, 'evt_20260915_001');
    const e = parseInput(RecordEpisodeInput, line);
    assert.deepEqual(e.source, { type: 'chat', ref: 'abc' });
    assert.equal(e.timestamp, '2026-09-15T09:00:00.000Z');
    assert.deepEqual(parseInput(RecordEpisodeInput, { ...line, source: 'https://github.com/o/r/issues/1' }).source, {
      type: 'url',
      ref: 'https://github.com/o/r/issues/1',
    });
    assert.match(
      refusal(() => parseInput(RecordEpisodeInput, { ...line, source: 'fax:123' })).message,
      /source.type: is one of commit, issue/,
    );
  });

  it('its skill (success, failure, plain-text steps, a snake_case name) is read, every mapping noted, and round-trips', () => {
    const parsed = parseSkillYaml(seed('skill.yaml'));
    const d = parsed.data;
    assert.equal(d.name, 'diagnose-frontend-build');
    assert.equal(parsed.version, 1);
    assert.deepEqual(d.trigger, ['build failed', 'missing asset']);
    assert.deepEqual(d.preconditions, ['repository is available', 'package manager is known']);
    assert.deepEqual(d.tools, ['git', 'package-manager']);
    assert.deepEqual(d.steps[0], { do: 'capture the exact error and current commit' });
    assert.equal(d.steps.length, 5);
    assert.deepEqual(d.success_checks, ['targeted check passes', 'build passes']);
    assert.deepEqual(d.failure_handling, ['preserve error output', 'stop before release']);
    assert.deepEqual(parsed.notes, [
      'success is read as success_checks',
      'failure is read as failure_handling',
      'name diagnose_frontend_build is saved as diagnose-frontend-build (skill names join words with "-"; both spellings find it)',
      '5 step(s) written as plain text are steps without "expect": the skill\'s success checks say when the task worked',
    ]);
    // Written back in the product's keys, steps still plain text; reading that gives the same skill.
    const again = parseSkillYaml(formatSkillYaml(d, 1));
    assert.deepEqual(again.data, d);
    assert.deepEqual(again.notes, [parsed.notes[3]]);
    assert.match(formatSkillYaml(d, 1), /^steps:\n {2}- capture the exact error and current commit\n/m);
  });

  it("a seed-shaped skill's mistakes are refused at the line the document has them; a mapping step still needs expect", () => {
    const text = seed('skill.yaml');
    assert.match(
      refusal(() => parseSkillYaml(text.replace('success:\n  - targeted check passes\n  - build passes\n', 'success: []\n'))).message,
      /line 18: success needs at least 1/,
    );
    assert.match(refusal(() => parseSkillYaml(`${text}success_checks: [x]\n`)).message, /unknown field\(s\) "success"/);
    assert.match(
      refusal(() => parseSkillYaml(text.replace('  - apply the smallest fix\n', '  - do: apply the smallest fix\n'))).message,
      /line 16: steps\[3\]\.expect is missing/,
    );
  });
});
