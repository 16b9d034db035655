import { strict as assert } from 'node:assert';
import {
  coveringSkill,
  draftSkill,
  findPromotions,
  groupEpisodes,
  isPromotable,
  notReadyReason,
  type PromotionEpisode,
} from '../../../src/core/playbook/promotion';
import { SkillService } from '../../../src/core/playbook/skillService';
import { BACKENDS, openService, prepareBackend } from '../../helpers/builders';
import { episode, skill, writeEpisodes } from './skillHelpers';

/** An episode as promotion reads it; recorded by its executor unless `author` says who recorded it. */
const ep = (id: string, over: Parameters<typeof episode>[0] = {}, author?: string): PromotionEpisode => {
  const data = episode(over);
  return { id, author: author ?? data.executor, data };
};

/** Three successes of one kind of task, by two executors, with what failed on the way. */
function flakyTests() {
  return [
    episode({
      task: 'Fix the flaky login test in CI',
      executor: 'ana@example.com',
      tools: ['npx mocha', 'git bisect'],
      inputs: ['npx mocha --repeat 20 test/login.spec.ts'],
      errors: ['Timeout of 2000ms exceeded'],
      resolution: 'Awaited the login promise before asserting',
      timestamp: '2026-03-01T10:00:00.000Z',
    }),
    episode({
      task: 'Fix flaky checkout test on CI',
      executor: 'copilot',
      tools: ['npx mocha'],
      inputs: ['npx mocha --repeat 20 test/checkout.spec.ts', 'CI=true'],
      errors: [],
      resolution: 'Awaited the login promise before asserting',
      timestamp: '2026-03-02T10:00:00.000Z',
    }),
    episode({
      task: 'fix the flaky signup test in CI',
      executor: 'ana@example.com',
      tools: ['npx mocha'],
      inputs: ['CI=true'],
      errors: ['ECONNRESET from the mock server'],
      resolution: 'Reset the mock server between tests',
      timestamp: '2026-03-03T10:00:00.000Z',
    }),
  ];
}

describe('promotion grouping (pure)', () => {
  it('groups episodes that share a tag and have similar task text', () => {
    const groups = groupEpisodes([
      ep('a', { task: 'Fix the flaky login test in CI' }),
      ep('b', { task: 'fix flaky checkout test on CI' }),
      ep('c', { task: 'Upgrade the login page to the new design' }),
      ep('d', { task: 'Fix the flaky login test in CI', tags: ['frontend'] }),
    ]);
    assert.deepEqual(groups.map((g) => g.map((e) => e.id)).sort(), [['a', 'b'], ['c'], ['d']]);
  });

  it('needs minSuccesses successes recorded by at least two authors', () => {
    const two = [ep('a'), ep('b', { executor: 'copilot' })];
    assert.equal(isPromotable(two, 3), false);
    assert.equal(
      isPromotable([...two.map((e) => ({ ...e, author: 'ana' })), ep('c', {}, 'ANA')], 3),
      false,
      'one author (case-insensitive)',
    );
    assert.equal(isPromotable([...two, ep('c')], 3), true);
    assert.equal(isPromotable([...two, ep('c', { outcome: 'failure' })], 3), false);
  });

  it('says why a group is not ready: the successes, the shared tags and the authors it has, and what it lacks', () => {
    const one = flakyTests().map((d, i) => ({ id: `e${i}`, author: 'ana', data: d }));
    assert.deepEqual(notReadyReason(one, 3), {
      episodes: ['e0', 'e1', 'e2'],
      tags: ['ci', 'testing'],
      reason: '3 successes of tags ci, testing by 1 author; needs 2 authors',
    });
    assert.equal(notReadyReason(one.slice(0, 1), 3)!.reason, '1 success of tags ci, testing by 1 author; needs 3 successes and 2 authors');
    assert.equal(
      notReadyReason([ep('a', { tags: ['ci'] }, 'ana'), ep('b', { tags: ['ci'] }, 'bo')], 3)!.reason,
      '2 successes of tag ci by 2 authors; needs 3 successes',
    );
    assert.equal(notReadyReason([...one.slice(0, 2), { ...one[2]!, author: 'bo' }], 3), undefined, 'ready');
  });

  it('counts who recorded the episodes, not the executor they name: one author cannot fake reproducibility', () => {
    const spoofed = [
      ep('a', { executor: 'ana' }, 'mallory'),
      ep('b', { executor: 'bo' }, 'mallory'),
      ep('c', { executor: 'copilot' }, 'Mallory'),
    ];
    assert.equal(isPromotable(spoofed, 3), false);
    assert.equal(
      isPromotable([...spoofed.slice(0, 2), ep('c', { executor: 'mallory' }, 'bo@example.com')], 3),
      true,
      'two authors, whatever the executors say',
    );
  });

  it('drafts a valid skill: name from common words, triggers, tools with counts, steps, failures, evidence', () => {
    const group = flakyTests().map((d, i) => ({ id: `e${i}`, author: d.executor, data: d }));
    const d = draftSkill(group, new Set(['fix-flaky-test-ci']));
    assert.equal(d.data.name, 'fix-flaky-test-ci-2', 'a taken name gets a suffix');
    assert.equal(d.data.trigger[0], 'fix flaky test ci');
    assert.ok(d.data.trigger.includes('Fix flaky checkout test on CI'));
    assert.deepEqual(d.toolCounts, [
      { tool: 'npx mocha', episodes: 3 },
      { tool: 'git bisect', episodes: 1 },
    ]);
    assert.deepEqual(d.data.tools, ['npx mocha', 'git bisect']);
    // The inputs the runs gave their tools, most shared first.
    assert.deepEqual(d.data.preconditions, [
      'input used in 2 of 3 successful runs: CI=true',
      'input used in 1 of 3 successful runs: npx mocha --repeat 20 test/checkout.spec.ts',
      'input used in 1 of 3 successful runs: npx mocha --repeat 20 test/login.spec.ts',
    ]);
    assert.deepEqual(
      d.data.steps.map((s) => s.do),
      ['Awaited the login promise before asserting', 'Reset the mock server between tests'],
    );
    assert.equal(d.data.steps[1]!.tool, 'npx mocha');
    assert.match(d.data.failure_handling[0]!, /^when "Timeout of 2000ms exceeded" appears: Awaited the login promise/);
    assert.match(d.data.failure_handling[1]!, /ECONNRESET .*Reset the mock server/);
    assert.deepEqual(d.data.evidence, { episodes: ['e0', 'e1', 'e2'], executors: ['ana@example.com', 'copilot'] });
    assert.deepEqual(d.tags, ['testing', 'ci']);
  });

  it('a skill covers a group when its evidence lists an episode or it matches most tasks', () => {
    const group = flakyTests().map((d, i) => ({ id: `e${i}`, author: d.executor, data: d }));
    const unrelated = { ...skill(), preconditions: [], failure_handling: [], evidence: { episodes: [], executors: [] } };
    assert.equal(coveringSkill(group, [unrelated]), undefined);
    assert.equal(coveringSkill(group, [{ ...unrelated, evidence: { episodes: ['e1'], executors: [] } }])?.name, 'deploy-preview');
    assert.ok(coveringSkill(group, [{ ...unrelated, name: 'flaky', trigger: ['fix a flaky test'] }]));
  });
});

for (const backend of BACKENDS)
  describe(`findPromotions [${backend}] (drafts from evidence, never saved)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });
    async function open() {
      const opened = await openService({ backend });
      return { ...opened, skills: new SkillService(opened.store, { author: 'lead@example.com' }) };
    }

    it('two successes give nothing', async () => {
      const { store, skills } = await open();
      await writeEpisodes(store, flakyTests().slice(0, 2));
      assert.deepEqual((await findPromotions(store, skills)).drafts, []);
      await store.close();
    });

    it('three successes recorded by one author give nothing, whatever executors they name; failures do not count', async () => {
      const { store, skills } = await open();
      await writeEpisodes(
        store,
        flakyTests().map((e) => ({ ...e, executor: 'ana@example.com' })),
      );
      await writeEpisodes(store, [episode({ task: 'Fix the flaky login test in CI', executor: 'bo', outcome: 'failure' })]);
      assert.deepEqual((await findPromotions(store, skills)).drafts, []);
      await writeEpisodes(
        store,
        [
          episode({ task: 'Fix the flaky search test in CI', executor: 'bo' }),
          episode({ task: 'Fix the flaky cart test in CI', executor: 'copilot' }),
        ],
        'ana@example.com',
      );
      assert.deepEqual((await findPromotions(store, skills)).drafts, [], 'five successes, three executors named, one author');
      await writeEpisodes(
        store,
        [episode({ task: 'Fix the flaky menu test in CI', tags: [] }), episode({ task: 'Fix the flaky menu test on CI', tags: [] })],
        'bo',
      );
      const r = await findPromotions(store, skills);
      assert.deepEqual(
        r.notReady.map((g) => [g.episodes.length, g.reason]),
        [[5, '5 successes of tags ci, testing by 1 author; needs 2 authors']],
        'why the group waits, the failure not counted',
      );
      assert.equal(r.untagged, 2, 'episodes without a tag are never grouped');
      await store.close();
    });

    it('three successes by two authors give one draft with the episode ids, tools and failures, and save nothing', async () => {
      const { store, skills } = await open();
      const ids = await writeEpisodes(store, flakyTests());
      await writeEpisodes(store, [episode({ task: 'Upgrade the login page design', executor: 'bo' })]);
      const r = await findPromotions(store, skills, { minSuccesses: 3 });
      assert.equal(r.scanned, 4);
      assert.equal(r.drafts.length, 1);
      const d = r.drafts[0]!;
      assert.deepEqual([...d.data.evidence.episodes].sort(), [...ids].sort());
      assert.deepEqual(d.data.evidence.executors, ['ana@example.com', 'copilot']);
      assert.deepEqual(d.data.tools, ['npx mocha', 'git bisect']);
      assert.equal(d.data.failure_handling.length, 2);
      assert.equal(await store.records.count({ kind: 'skill' }), 0, 'promotion never saves a skill');
      assert.equal((await findPromotions(store, skills, { minSuccesses: 4 })).drafts.length, 0, 'the threshold is the policy’s');
      await store.close();
    });

    it('gives nothing for a group a live skill already covers', async () => {
      const { store, skills } = await open();
      const ids = await writeEpisodes(store, flakyTests());
      await skills.save(
        skill({
          name: 'flaky-fixes',
          description: 'Stabilise tests',
          trigger: ['make a test stable'],
          evidence: { episodes: [ids[0]], executors: [] },
        }),
      );
      const r = await findPromotions(store, skills);
      assert.deepEqual(r.drafts, []);
      assert.deepEqual(
        r.covered.map((c) => c.skill),
        ['flaky-fixes'],
      );
      await skills.delete('flaky-fixes');
      await skills.save(skill({ name: 'flaky', description: 'x y z', trigger: ['fix a flaky test'] }));
      assert.deepEqual(
        (await findPromotions(store, skills)).covered.map((c) => c.skill),
        ['flaky'],
      );
      await store.close();
    });
  });
