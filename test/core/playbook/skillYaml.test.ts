import { strict as assert } from 'node:assert';
import { SecretError, ValidationError } from '../../../src/core/errors';
import { canonicalSkill, parseSkillData } from '../../../src/core/playbook/skillData';
import { formatSkillYaml, parseSkillYaml } from '../../../src/core/playbook/skillYaml';
import { rejects, skill, SKILL_YAML } from './skillHelpers';

describe('skill YAML (parse with line and reason, format with a stable key order)', () => {
  it('parses a skill document into SkillData; version is informational', () => {
    const { data, version } = parseSkillYaml(SKILL_YAML);
    assert.equal(version, 2);
    assert.equal(data.name, 'fix-flaky-test');
    assert.deepEqual(data.steps[0], {
      do: 'Run the test 20 times',
      tool: 'npx mocha --repeat 20',
      expect: 'the failure rate, e.g. 3/20 failed',
    });
    assert.deepEqual(data.evidence, { episodes: [], executors: [] });
    assert.ok(!('version' in data));
  });

  it('round-trips: format(parse(text)) is the text, and parse(format(data)) is the data', () => {
    const { data, version } = parseSkillYaml(SKILL_YAML);
    assert.equal(formatSkillYaml(data, version), SKILL_YAML);
    // Keys given in another order come back in the stable order.
    const shuffled = parseSkillData({ ...skill(), name: 'x', steps: [{ expect: 'e', do: 'd' }] }).data;
    const text = formatSkillYaml(shuffled);
    assert.deepEqual(Object.keys(parseSkillYaml(text).data), [
      'name',
      'description',
      'trigger',
      'preconditions',
      'tools',
      'steps',
      'success_checks',
      'failure_handling',
      'evidence',
    ]);
    assert.deepEqual(parseSkillYaml(text).data, shuffled);
    assert.match(text, /- do: d\n\s+expect: e/);
  });

  it('formats a skill given without evidence (a proposal from agent-memory_proposeSkill) without the key', () => {
    const { data } = parseSkillYaml(SKILL_YAML);
    const { evidence: _dropped, ...proposed } = data;
    const text = formatSkillYaml(proposed as typeof data);
    assert.doesNotMatch(text, /evidence/);
    assert.deepEqual(parseSkillYaml(text).data, data, 'parsing it back reads the missing evidence as empty lists');
    assert.deepEqual(canonicalSkill(proposed as typeof data).evidence, { episodes: [], executors: [] });
  });

  it('refuses a step without expect with its line and what to write', async () => {
    const text = SKILL_YAML.replace('    expect: the line that depends on order or time\n', '');
    const err = await rejects(() => parseSkillYaml(text), ValidationError);
    assert.equal(err.message, 'line 15: steps[1].expect is missing — say what output shows the step worked');
    assert.equal(err.field, 'steps[1].expect');
  });

  it('refuses YAML syntax errors with the line', async () => {
    const text = SKILL_YAML.replace('  - test fails only in CI\n', ' - test fails only in CI\n');
    const err = await rejects(() => parseSkillYaml(text), ValidationError);
    assert.match(err.message, /^line 6: /);
    await rejects(() => parseSkillYaml('name: a\nname: b\n'), ValidationError, /^line 2: Map keys must be unique/);
    await rejects(() => parseSkillYaml(''), ValidationError, /empty/);
  });

  it('refuses unknown keys at the key’s own line, and reports every problem', async () => {
    const text = SKILL_YAML.replace('tools:\n', 'author: me\ntools:\n').replace('description: Find', 'description: ""\nx: Find');
    const err = await rejects(
      () => parseSkillYaml(text.replace('x: Find and fix a test that fails only sometimes, in CI or locally\n', '')),
      ValidationError,
    );
    assert.match(err.message, /^line 3: description is empty — say in one or two sentences/);
    assert.match(err.message, /line 9: has unknown field\(s\) "author"/);
    const nested = SKILL_YAML.replace('    tool: npx mocha --repeat 20\n', '    tool: npx mocha --repeat 20\n    timeout: 5\n');
    await rejects(
      () => parseSkillYaml(nested),
      ValidationError,
      /^line 14: steps\[0\] has unknown field\(s\) "timeout"; a step has do, tool and expect/,
    );
  });

  it('enforces limits and shapes, naming the limit', async () => {
    await rejects(
      () => parseSkillYaml(SKILL_YAML.replace('name: fix-flaky-test', 'name: Fix Flaky')),
      ValidationError,
      /^line 1: name must be lower-case/,
    );
    const long = 'x'.repeat(501);
    await rejects(
      () => parseSkillYaml(SKILL_YAML.replace(/description: .*/, `description: ${long}`)),
      ValidationError,
      /^line 3: description is 501 characters; the limit is 500/,
    );
    await rejects(
      () => parseSkillYaml(SKILL_YAML.replace(/steps:[\s\S]*?success_checks/, 'steps: []\nsuccess_checks')),
      ValidationError,
      /steps needs at least 1 steps/,
    );
    await rejects(() => parseSkillYaml(`${SKILL_YAML}# ${'x'.repeat(64_001)}`), ValidationError, /the limit is 64000/);
    await rejects(() => parseSkillYaml('- a\n- b\n'), ValidationError, /must be a mapping/);
  });

  it('refuses secrets by kind and line, never echoing them', async () => {
    const token = 'ghp_' + 'a'.repeat(36);
    const err = await rejects(
      () => parseSkillYaml(SKILL_YAML.replace('with the CI environment variables', `with GITHUB_TOKEN=${token}`)),
      SecretError,
    );
    assert.match(err.message, /^line 20: failure_handling\[0\]: line 1 contains what looks like a GitHub token/);
    assert.ok(!err.message.includes(token));
    await rejects(() => parseSkillData(skill({ description: `use ${token}` })), SecretError, /description/);
  });
});
