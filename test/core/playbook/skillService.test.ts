import { strict as assert } from 'node:assert';
import { ConflictError, NotFoundError, ValidationError } from '../../../src/core/errors';
import { SkillService } from '../../../src/core/playbook/skillService';
import { parseSkillYaml } from '../../../src/core/playbook/skillYaml';
import { BACKENDS, openService, prepareBackend } from '../../helpers/builders';
import { episode, rejects, skill, SKILL_YAML, writeEpisodes } from './skillHelpers';

const T0 = Date.parse('2026-03-31T12:00:00.000Z');

for (const backend of BACKENDS)
  describe(`SkillService [${backend}] (versioned YAML playbooks)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });
    async function open(now = () => new Date(T0)) {
      const opened = await openService({ backend });
      return { ...opened, skills: new SkillService(opened.store, { author: 'ana@example.com', now }) };
    }

    it('creates from YAML, reads back data, version, author, changedAt', async () => {
      const { skills, store } = await open();
      const saved = await skills.save(SKILL_YAML);
      assert.deepEqual({ ...saved, id: '' }, { id: '', name: 'fix-flaky-test', version: 1, changed: true });
      const read = await skills.read({ name: 'fix-flaky-test' });
      assert.equal(read.version, 1, 'the YAML says version 2; the store numbers versions');
      assert.equal(read.author, 'ana@example.com');
      assert.equal(read.changedAt, new Date(T0).toISOString());
      assert.deepEqual(read.data, parseSkillYaml(SKILL_YAML).data);
      await store.close();
    });

    it('saves a new version of the skill with that name; unchanged saves write nothing', async () => {
      const { skills, store } = await open();
      const a = await skills.save(skill());
      const same = await skills.save(skill({ tools: ['gh'] }));
      assert.deepEqual(same, { ...a, changed: false });
      const b = await skills.save(skill({ description: 'Deploy a branch to a preview and post the link' }), { expectedVersion: 1 });
      assert.deepEqual([b.id, b.version, b.changed], [a.id, 2, true]);
      assert.equal((await skills.read({ name: 'deploy-preview', version: 1 })).data.description, skill().description);
      assert.deepEqual(
        (await skills.history('deploy-preview')).map((h) => [h.version, h.op]),
        [
          [1, 'create'],
          [2, 'edit'],
        ],
      );
      assert.equal((await skills.list()).items.length, 1, 'names are unique among live skills');
      await rejects(skills.read({ name: 'deploy-preview', version: 7 }), NotFoundError, /no version 7; its current version is 2/);
      await store.close();
    });

    it('refuses a stale expectedVersion, naming the current one', async () => {
      const { skills, store } = await open();
      await skills.save(skill());
      await skills.save(skill({ tools: ['gh', 'curl'] }));
      const err = await rejects(skills.save(skill({ tools: ['curl'] }), { expectedVersion: 1 }), ConflictError, /is at version 2, not 1/);
      assert.equal(err.currentVersion, 2);
      await rejects(skills.save(skill({ name: 'other' }), { expectedVersion: 1 }), ConflictError, /no live version/);
      assert.deepEqual((await skills.read({ name: 'deploy-preview' })).data.tools, ['gh', 'curl']);
      await store.close();
    });

    it('a YAML document whose version: is stale is a conflict naming the current version, and writes nothing', async () => {
      const { skills, store } = await open();
      await skills.save(skill());
      const exported = await skills.exportYaml('deploy-preview');
      assert.match(exported, /^version: 1$/m);
      const mine = exported.replace('share the link', 'post the link in the PR');
      const theirs = new SkillService(store, { author: 'bo@example.com', now: () => new Date(T0) });
      assert.equal((await theirs.save(exported.replace('share the link', 'share the link in chat'))).version, 2);
      const err = await rejects(
        skills.save(mine),
        ConflictError,
        /skill "deploy-preview" is at version 2 \(saved by bo@example\.com at .*\), but this document says version 1: saving it would overwrite that change.*set "version: 2"/,
      );
      assert.equal(err.currentVersion, 2);
      assert.match((await skills.read({ name: 'deploy-preview' })).data.description, /in chat$/, "the teammate's version stands");
      const saved = await skills.save(mine.replace('version: 1', 'version: 2'));
      assert.deepEqual([saved.version, saved.changed], [3, true], 'a document naming the current version saves the next one');
      assert.deepEqual(
        await skills.save(mine.replace('version: 1', 'version: 2')),
        { ...saved, changed: false },
        'a re-run writes nothing',
      );
      assert.equal((await skills.save(mine, { expectedVersion: 3 })).changed, false, 'an explicit expectedVersion decides');
      await skills.delete('deploy-preview');
      await rejects(skills.save(mine.replace('version: 1', 'version: 3')), ConflictError, /was deleted at version 4 \(by ana@example\.com/);
      assert.equal(
        (await skills.save(SKILL_YAML)).version,
        1,
        'a document naming a skill that never existed creates it, whatever its version says',
      );
      await store.close();
    });

    it('expectedVersion null means "create": refused when a live skill has the name', async () => {
      const { skills, store } = await open();
      await rejects(
        skills.save(skill(), { expectedVersion: null }).then(() => skills.save(skill({ tools: ['curl'] }), { expectedVersion: null })),
        ConflictError,
        /skill "deploy-preview" exists \(version 1, saved by ana@example\.com at .*\), but this save was meant to create it/,
      );
      assert.deepEqual((await skills.read({ name: 'deploy-preview' })).data.tools, ['gh']);
      await store.close();
    });

    it('a document without evidence keeps the evidence of the previous version; an explicit empty list clears it', async () => {
      const { skills, store } = await open();
      const ids = await writeEpisodes(store, [episode({ executor: 'ana' }), episode({ executor: 'bo' })]);
      const evidence = { episodes: ids, executors: ['ana', 'bo'] };
      await skills.save(skill({ evidence }));
      const handEdited = SKILL_YAML.replace('name: fix-flaky-test', 'name: deploy-preview')
        .replace('version: 2', 'version: 1')
        .replace(/evidence:\n(.*\n)*$/, '');
      assert.ok(!handEdited.includes('evidence'));
      const saved = await skills.save(handEdited);
      assert.deepEqual([saved.version, saved.changed], [2, true]);
      assert.deepEqual(
        (await skills.read({ name: 'deploy-preview' })).data.evidence,
        evidence,
        'a hand-written YAML does not erase where the skill came from',
      );
      assert.equal((await skills.save(skill())).changed, true, 'data without evidence keeps it too');
      assert.deepEqual((await skills.read({ name: 'deploy-preview' })).data.evidence, evidence);
      await skills.save(skill({ evidence: { episodes: [], executors: [] } }));
      assert.deepEqual((await skills.read({ name: 'deploy-preview' })).data.evidence, { episodes: [], executors: [] });
      await store.close();
    });

    it('refuses invalid input with the reason and writes nothing', async () => {
      const { skills, store } = await open();
      await rejects(
        skills.save(SKILL_YAML.replace('    expect: the failure rate, e.g. 3/20 failed\n', '')),
        ValidationError,
        /^line 12: steps\[0\]\.expect is missing/,
      );
      await rejects(skills.save(skill({ extra: 1 })), ValidationError, /unknown field\(s\) "extra"/);
      assert.equal(await store.records.count({ kind: 'skill' }), 0);
      await store.close();
    });

    it('soft-deletes, frees the name, and a later save continues the version numbers', async () => {
      const { skills, store } = await open();
      const a = await skills.save(skill());
      const d = await skills.delete('deploy-preview');
      assert.equal(d.version, 2);
      await rejects(skills.read({ name: 'deploy-preview' }), NotFoundError, /was deleted/);
      assert.equal((await skills.find({ task: 'deploy a preview of my branch' })).length, 0);
      assert.equal((await skills.list({ deleted: true })).items.length, 1);
      const back = await skills.save(skill());
      assert.deepEqual([back.id, back.version], [a.id, 3], 'episodes citing (name, version) keep meaning one playbook');
      await store.close();
    });

    it('finds skills by task text: triggers first, then description; unrelated tasks get nothing', async () => {
      const { skills, store } = await open();
      await skills.save(SKILL_YAML);
      await skills.save(skill());
      await skills.save(
        skill({ name: 'flaky-network', description: 'Retry network calls in tests that fail sometimes', trigger: ['mock the network'] }),
      );
      const hits = await skills.find({ task: 'The checkout test fails only in CI, please look into it' });
      assert.equal(hits[0]!.name, 'fix-flaky-test');
      assert.equal(hits[0]!.trigger, 'test fails only in CI');
      assert.ok(!hits.some((h) => h.name === 'deploy-preview'));
      const byTrigger = await skills.find({ task: 'deploy branch preview link' });
      assert.deepEqual([byTrigger[0]?.name, byTrigger[0]?.trigger], ['deploy-preview', 'deploy a preview']);
      const byDescription = await skills.find({ task: 'share the link to a deployed branch' });
      assert.deepEqual([byDescription[0]?.name, byDescription[0]?.trigger], ['deploy-preview', null]);
      assert.ok(byTrigger[0]!.score > byDescription[0]!.score, 'a trigger weighs more than the description');
      assert.deepEqual(await skills.find({ task: 'Write the release notes for version 2' }), []);
      assert.deepEqual(await skills.find({ task: 'fix the typo in the readme' }), [], 'one shared word is not a match');
      await rejects(skills.find({ task: '' }), ValidationError, /describe the task/);
      await store.close();
    });

    it('lists live skills page by page', async () => {
      const { skills, store } = await open();
      for (const name of ['a-one', 'b-two', 'c-three']) await skills.save(skill({ name }));
      const first = await skills.list({ limit: 2 });
      assert.equal(first.items.length, 2);
      const second = await skills.list({ limit: 2, cursor: first.nextCursor! });
      assert.deepEqual([...first.items, ...second.items].map((i) => i.name).sort(), ['a-one', 'b-two', 'c-three']);
      assert.equal(second.nextCursor, null);
      await rejects(skills.list({ cursor: 'nope' }), ValidationError, /cursor/);
      await store.close();
    });

    it('exports YAML and imports it back idempotently', async () => {
      const { skills, store } = await open();
      await skills.save(SKILL_YAML);
      const text = await skills.exportYaml('fix-flaky-test');
      assert.match(text, /^# skill fix-flaky-test · version 1 · /);
      assert.deepEqual(await skills.importYaml(text), { ...(await skills.importYaml(text)), changed: false });
      const edited = await skills.importYaml(text.replace('the test passes 50 runs in a row', 'the test passes 100 runs in a row'));
      assert.deepEqual([edited.version, edited.changed], [2, true]);
      await store.close();
    });

    it('gives each skill version a success rate by window from the episodes that followed it', async () => {
      const { skills, store } = await open();
      await skills.save(skill());
      await skills.save(skill({ tools: ['gh', 'curl'] }));
      const at = (daysAgo: number) => new Date(T0 - daysAgo * 86_400_000).toISOString();
      const v = (version: number) => ({ name: 'Deploy-Preview', version });
      await writeEpisodes(store, [
        episode({ skill: v(2), outcome: 'success', timestamp: at(1) }),
        episode({ skill: v(2), outcome: 'failure', timestamp: at(3) }),
        episode({ skill: v(2), outcome: 'success', timestamp: at(20) }),
        episode({ skill: v(2), outcome: 'partial', timestamp: at(60) }),
        episode({ skill: v(2), outcome: 'success', timestamp: at(200) }),
        episode({ skill: v(1), outcome: 'failure', timestamp: at(2) }),
        episode({ skill: { name: 'other', version: 2 }, outcome: 'failure', timestamp: at(2) }),
      ]);
      const o = (await skills.read({ name: 'deploy-preview' })).outcomes;
      assert.equal(o.version, 2);
      assert.deepEqual(o.last7Days, { successes: 1, failures: 1, partials: 0, total: 2, rate: 0.5 });
      assert.deepEqual(o.last30Days, { successes: 2, failures: 1, partials: 0, total: 3, rate: 2 / 3 });
      assert.deepEqual(o.last90Days, { successes: 2, failures: 1, partials: 1, total: 4, rate: 0.5 });
      assert.deepEqual(o.allTime, { successes: 3, failures: 1, partials: 1, total: 5, rate: 0.6 });
      const v1 = (await skills.read({ name: 'deploy-preview', version: 1 })).outcomes;
      assert.deepEqual(v1.allTime, { successes: 0, failures: 1, partials: 0, total: 1, rate: 0 });
      await skills.save(skill({ tools: ['curl'] }));
      assert.equal((await skills.outcomes('deploy-preview')).allTime.rate, null, 'a new version starts with no record');
      await store.close();
    });
  });
