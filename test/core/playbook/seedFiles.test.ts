import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseInput, RecordEpisodeInput } from '../../../src/core/contract';
import { Ontology } from '../../../src/core/playbook/ontology';
import { readPolicyFile, resolvePolicy } from '../../../src/core/playbook/policy';
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
});
