import { strict as assert } from 'node:assert';
import { NotFoundError, SecretError, ValidationError } from '../../../src/core/errors';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { episode, openPlaybook, rejects, testClock } from './playbookHelpers';

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

for (const backend of BACKENDS)
  describe(`EpisodeService [${backend}] (what was tried, as summaries and pointers)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('records an episode with the author as executor and now as timestamp, and shows it', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      await l.skillVersions('fix-flaky-test', 2);
      const { id } = await l.episodes.record(
        episode({ skill: { name: 'Fix-Flaky-Test', version: 2 }, inputs: ['npx mocha --repeat 20', 'CI=true'] }),
      );
      const e = await l.episodes.show({ id });
      assert.deepEqual(e.inputs, ['npx mocha --repeat 20', 'CI=true']);
      assert.equal(e.executor, 'ana@example.com');
      assert.equal(e.timestamp, clock.iso());
      assert.deepEqual(e.skill, { name: 'Fix-Flaky-Test', version: 2 });
      assert.deepEqual(e.source, { type: 'pull-request', ref: 'https://github.com/acme/billing/pull/42' });
      assert.equal(e.author, 'ana@example.com');
      const stored = (await l.records.get('episode', id))!;
      assert.deepEqual([stored.status, stored.keys, stored.dueAt], ['success', ['fix-flaky-test', 'ana@example.com', '2'], clock.iso()]);
      const other = await l.episodes.record(episode({ executor: 'copilot-agent', timestamp: '2026-02-01T00:00:00.000Z' }));
      const o = await l.episodes.show(other);
      assert.deepEqual([o.executor, o.timestamp, o.skill], ['copilot-agent', '2026-02-01T00:00:00.000Z', null]);
      assert.deepEqual((await l.records.get('episode', other.id))!.keys, ['', 'copilot-agent', '']);
      await l.close();
    });

    it('lists by outcome and skill, newest first, paged with a cursor', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      await l.skillVersions('release', 1);
      const ids: string[] = [];
      for (const [outcome, skill] of [
        ['success', 'release'],
        ['failure', 'release'],
        ['success', null],
        ['partial', 'release'],
        ['success', 'release'],
      ] as const) {
        clock.advance(1000);
        ids.push((await l.episodes.record(episode({ outcome, skill: skill && { name: skill, version: 1 } }))).id);
      }
      const all = await l.episodes.list({});
      assert.deepEqual(
        all.items.map((e) => e.id),
        [...ids].reverse(),
      );
      assert.equal(all.nextCursor, null);
      assert.deepEqual(
        (await l.episodes.list({ outcome: 'success' })).items.map((e) => e.id),
        [ids[4], ids[2], ids[0]],
      );
      assert.deepEqual(
        (await l.episodes.list({ skill: 'Release', outcome: 'success' })).items.map((e) => e.id),
        [ids[4], ids[0]],
      );
      const page1 = await l.episodes.list({ limit: 2 });
      const page2 = await l.episodes.list({ limit: 2, cursor: page1.nextCursor });
      const page3 = await l.episodes.list({ limit: 2, cursor: page2.nextCursor });
      assert.deepEqual(
        [...page1.items, ...page2.items, ...page3.items].map((e) => e.id),
        [...ids].reverse(),
      );
      assert.equal(page3.nextCursor, null);
      await rejects(l.episodes.list({ cursor: 'nonsense' }), ValidationError, /cursor: is not a cursor/);
      await l.close();
    });

    it('refuses a skill that does not exist (naming the closest ones) or a version it never had, writing nothing', async () => {
      const l = await openPlaybook(backend);
      await rejects(
        l.episodes.record(episode({ skill: { name: 'nonexistent', version: 1 } })),
        ValidationError,
        /^skill\.name: there is no skill "nonexistent" \(there are no skills yet\)/,
      );
      await l.skillVersions('fix-flaky-test', 2);
      await l.skillVersions('deploy-preview', 1);
      await l.skillVersions('rotate-keys', 1);
      const rows = await l.rows();
      await rejects(
        l.episodes.record(episode({ skill: { name: 'fix-flaky-tests', version: 1 } })),
        ValidationError,
        /^skill\.name: there is no skill "fix-flaky-tests" \(closest known skills: fix-flaky-test\); name a skill the task followed/,
      );
      await rejects(
        l.episodes.record(episode({ skill: { name: 'nonexistent', version: 1 } })),
        ValidationError,
        /\(known skills: deploy-preview, fix-flaky-test, rotate-keys\)/,
      );
      await rejects(
        l.episodes.record(episode({ skill: { name: 'fix-flaky-test', version: 3 } })),
        ValidationError,
        /^skill\.version: skill "fix-flaky-test" has no version 3 \(its current version is 2; versions: 1, 2\)/,
      );
      assert.equal(await l.rows(), rows, 'nothing was written');
      await l.skills.delete('rotate-keys');
      await l.episodes.record(episode({ skill: { name: 'rotate-keys', version: 1 } }));
      await rejects(
        l.episodes.record(episode({ skill: { name: 'rotate-keys', version: 2 } })),
        ValidationError,
        /has no version 2 \(it was deleted at version 2; versions: 1\)/,
      );
      await l.close();
    });

    it('refuses secrets in every text field, transcripts, oversized fields and future timestamps, writing nothing', async () => {
      const clock = testClock();
      const l = await openPlaybook(backend, { clock });
      for (const over of [
        { task: `deploy with ${GITHUB_TOKEN}` },
        { tools: ['run', GITHUB_TOKEN] },
        { inputs: [`gh auth login --with-token ${GITHUB_TOKEN}`] },
        { errors: [`401 for token ${GITHUB_TOKEN}`] },
        { resolution: `rotated ${GITHUB_TOKEN}` },
        { source: { type: 'url', ref: 'postgres://app:hunter2@db.internal/billing' } },
        { executor: GITHUB_TOKEN },
        { skill: { name: GITHUB_TOKEN, version: 1 } },
      ]) {
        await rejects(l.episodes.record(episode(over)), SecretError, /looks like (a GitHub token|a password inside a URL)/);
      }
      await rejects(l.episodes.record(episode({ tags: [GITHUB_TOKEN] })), ValidationError, /tag contains what looks like a GitHub token/);
      await rejects(
        l.episodes.record(episode({ resolution: 'User: it fails\nAssistant: try again' })),
        ValidationError,
        /pasted conversation/,
      );
      await rejects(
        l.episodes.record(episode({ errors: Array.from({ length: 20 }, (_, i) => (i % 2 ? 'Assistant: retry' : 'User: it fails')) })),
        ValidationError,
        /^errors\[0\]: looks like a pasted conversation/,
      );
      await rejects(
        l.episodes.record(episode({ task: 'User: hi Assistant: hello' })),
        ValidationError,
        /^task: looks like a pasted conversation/,
      );
      await rejects(l.episodes.record(episode({ task: 't'.repeat(501) })), ValidationError, /task: is 501 characters; the limit is 500/);
      await rejects(l.episodes.record(episode({ timestamp: '2026-03-02T00:00:00.000Z' })), ValidationError, /timestamp: is in the future/);
      assert.equal(await l.rows(), 0);
      await l.close();
    });

    it('refuses NUL and unpaired surrogates in every text field, naming the field, writing nothing', async () => {
      const l = await openPlaybook(backend);
      for (const [over, field] of [
        [{ task: 'deploy \u0000' }, 'task'],
        [{ tools: ['run', 'x\uD83D'] }, 'tools\\[1\\]'],
        [{ errors: ['boom \uDE00'] }, 'errors\\[0\\]'],
        [{ resolution: 'ok\u0000' }, 'resolution'],
        [{ source: { type: 'url', ref: 'https://x/\u0000' } }, 'source.ref'],
        [{ executor: 'bot\uD800' }, 'executor'],
        [{ skill: { name: 'a\u0000', version: 1 } }, 'skill.name'],
      ] as const) {
        await rejects(
          l.episodes.record(episode(over)),
          ValidationError,
          new RegExp(`^${field}: line 1 contains (a NUL character|half of a UTF-16 surrogate pair)`),
        );
      }
      assert.equal(await l.rows(), 0);
      await l.close();
    });

    it('says plainly when an episode does not exist', async () => {
      const l = await openPlaybook(backend);
      await rejects(l.episodes.show({ id: '0b6c5f1e-8f0e-4d7a-9a51-5f1d2f0c9a11' }), NotFoundError, /episode 0b6c5f1e-.* does not exist/);
      await rejects(l.episodes.show({ id: 'nope' }), ValidationError, /id: must be an episode id/);
      await l.close();
    });
  });
