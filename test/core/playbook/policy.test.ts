import { strict as assert } from 'node:assert';
import { DEFAULT_POLICY, mergePolicy, parsePolicyFile, parsePolicySettings, resolvePolicy } from '../../../src/core/playbook/policy';
import { refusal } from '../../helpers/assertions';

describe('Lifecycle policy (defaults ← settings ← repository file)', () => {
  it("has the issue's defaults", () => {
    assert.equal(DEFAULT_POLICY.working.max_tokens, 4000);
    assert.equal(DEFAULT_POLICY.episodic.ttl_days, 90);
    assert.equal(DEFAULT_POLICY.semantic.require_source, true);
    assert.equal(DEFAULT_POLICY.semantic.require_confidence, true);
    assert.equal(DEFAULT_POLICY.procedural.promotion_min_successes, 3);
    assert.equal(DEFAULT_POLICY.forgetting.run_every_hours, 24);
    assert.deepEqual(DEFAULT_POLICY.episodic, { ttl_days: 90, owner: null, approvers: [], expired: 'forget' });
    assert.equal(DEFAULT_POLICY.semantic.expired, 'archive');
  });

  it('review.agent_writes: optional by default; required in the file; another value refused with the choices', () => {
    assert.equal(DEFAULT_POLICY.review.agent_writes, 'optional');
    assert.equal(resolvePolicy({ file: { text: 'review:\n  agent_writes: required\n' } }).review.agent_writes, 'required');
    assert.equal(resolvePolicy({ file: { text: 'review.agent_writes: required\n' } }).review.agent_writes, 'required');
    const e = refusal(() => parsePolicyFile('review:\n  agent_writes: sometimes\n'));
    assert.match(e.message, /line 2.*must be required \(a person confirms every agent write\) or optional/);
  });

  it('parses a repository file, nested or with dotted keys', () => {
    const p = parsePolicyFile(
      'episodic:\n  ttl_days: 30\n  owner: ana@example.com\n  approvers: [bo@example.com]\nsemantic.require_source: false\n',
    );
    assert.deepEqual(p, {
      episodic: { ttl_days: 30, owner: 'ana@example.com', approvers: ['bo@example.com'] },
      semantic: { require_source: false },
    });
    assert.deepEqual(parsePolicyFile(''), {});
  });

  it('refuses unknown keys and out-of-range values with line and reason, in line order', () => {
    const e = refusal(() => parsePolicyFile('episodic:\n  ttl_day: 30\n  expired: keep\nforgetting:\n  run_every_hours: 0\nfoo: 1\n'));
    assert.equal(
      e.message,
      'policy.yaml line 2: unknown key episodic.ttl_day; known keys of episodic: ttl_days, owner, approvers, expired; ' +
        'policy.yaml line 3: episodic.expired: must be archive (kept, hidden) or forget (removed); ' +
        'policy.yaml line 5: forgetting.run_every_hours: is 0; it must be 1–720 hours; ' +
        'policy.yaml line 6: unknown key foo; known keys: working, episodic, semantic, procedural, forgetting, review',
    );
    assert.equal(
      refusal(() => parsePolicyFile('\nepisodic.ttl_days: 5000\n')).message,
      'policy.yaml line 2: episodic.ttl_days: is 5000; it must be 1–3650 days',
    );
    assert.match(
      refusal(() => parsePolicyFile('procedural:\n  promotion_min_successes: 1\n')).message,
      /line 2: .*is 1; it must be 2–100 successes/,
    );
    assert.match(
      refusal(() => parsePolicyFile('semantic:\n  require_source: maybe\n')).message,
      /line 2: semantic\.require_source: must be true or false/,
    );
    assert.match(
      refusal(() => parsePolicyFile('working: {max_tokens: 10.5}\n')).message,
      /line 1: working\.max_tokens: must be a whole number of tokens/,
    );
    assert.match(refusal(() => parsePolicyFile('- a\n')).message, /^policy\.yaml line 1: must be a map/);
    assert.match(refusal(() => parsePolicyFile('episodic:\n  ttl_days: [1\n')).message, /^policy\.yaml line \d+: /);
  });

  it('checks the settings object the same way, naming the setting', () => {
    assert.deepEqual(parsePolicySettings({ working: { max_tokens: 8000 } }), { working: { max_tokens: 8000 } });
    assert.equal(
      refusal(() => parsePolicySettings({ episodic: { ttl_days: 'x' } })).message,
      'settings: episodic.ttl_days: must be a number of days, 1–3650',
    );
    assert.match(
      refusal(() => parsePolicySettings({ semantic: { require: true } })).message,
      /settings: unknown key semantic\.require; known keys of semantic: require_source, require_confidence/,
    );
  });

  it('merges key by key: defaults ← settings ← file, a list replacing the list before it', () => {
    const p = resolvePolicy({
      settings: { episodic: { ttl_days: 10, approvers: ['a@x'] }, semantic: { require_confidence: false } },
      file: { text: 'episodic:\n  approvers: [b@x]\n  expired: archive\n' },
    });
    assert.deepEqual(p.episodic, { ttl_days: 10, owner: null, approvers: ['b@x'], expired: 'archive' });
    assert.equal(p.semantic.require_confidence, false);
    assert.equal(p.semantic.require_source, true);
    assert.deepEqual(resolvePolicy(), DEFAULT_POLICY);
    // Merging never changes the defaults.
    mergePolicy(DEFAULT_POLICY, { episodic: { approvers: ['z'] } }).episodic.approvers.push('y');
    assert.deepEqual(DEFAULT_POLICY.episodic.approvers, []);
  });
});
