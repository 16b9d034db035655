import { strict as assert } from 'node:assert';
import { outcomesByTag, outcomeStats } from '../../../src/core/playbook/skillOutcomes';
import type { RecordQuery } from '../../../src/core/ports/records';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { episode, openPlaybook, testClock } from './playbookHelpers';

for (const backend of BACKENDS)
  describe(`skill outcomes [${backend}] (success rates by window, counted by the store)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    it('counts each window per version and outcome without reading an episode', async () => {
      const clock = testClock('2026-06-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      const now = clock.now();
      const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
      const v = (version: number) => ({ name: 'Deploy-Preview', version });
      await l.skillVersions('deploy-preview', 2);
      await l.skillVersions('other', 2);
      for (const [skill, outcome, daysAgo] of [
        [v(2), 'success', 1],
        [v(2), 'failure', 3],
        [v(2), 'success', 7],
        [v(2), 'success', 20],
        [v(2), 'partial', 60],
        [v(2), 'success', 200],
        [v(1), 'failure', 2],
        [{ name: 'other', version: 2 }, 'failure', 2],
        [null, 'success', 1],
      ] as const) {
        await l.episodes.record(episode({ skill, outcome, timestamp: at(daysAgo) }));
      }
      const queried: RecordQuery[] = [];
      const query = l.records.query.bind(l.records);
      l.records.query = (q) => (queried.push(q), query(q));

      const o = await outcomeStats(l.records, 'deploy-preview', 2, now);
      assert.deepEqual([o.name, o.version, o.truncated], ['deploy-preview', 2, false]);
      // Exactly 7 days old is within the last 7 days.
      assert.deepEqual(o.last7Days, { successes: 2, failures: 1, partials: 0, total: 3, rate: 2 / 3 });
      assert.deepEqual(o.last30Days, { successes: 3, failures: 1, partials: 0, total: 4, rate: 0.75 });
      assert.deepEqual(o.last90Days, { successes: 3, failures: 1, partials: 1, total: 5, rate: 0.6 });
      assert.deepEqual(o.allTime, { successes: 4, failures: 1, partials: 1, total: 6, rate: 4 / 6 });
      assert.deepEqual((await outcomeStats(l.records, 'Deploy-Preview', 1, now)).allTime, {
        successes: 0,
        failures: 1,
        partials: 0,
        total: 1,
        rate: 0,
      });
      assert.deepEqual((await outcomeStats(l.records, 'deploy-preview', 3, now)).last7Days, {
        successes: 0,
        failures: 0,
        partials: 0,
        total: 0,
        rate: null,
      });
      assert.deepEqual(queried, [], 'outcomes are counted, never read');
      await l.close();
    });

    it("splits a version's outcomes by task type (the episodes' tags), most episodes first, the untagged apart", async () => {
      const clock = testClock('2026-06-01T00:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      const now = clock.now();
      const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
      await l.skillVersions('deploy-preview', 2);
      const v2 = { name: 'deploy-preview', version: 2 };
      for (const [tags, outcome, daysAgo, skill] of [
        [['ci', 'flaky'], 'success', 1, v2],
        [['ci'], 'success', 3, v2],
        [['ci'], 'failure', 60, v2],
        [['flaky'], 'partial', 5, v2],
        [[], 'success', 2, v2],
        [['ci'], 'failure', 2, { name: 'deploy-preview', version: 1 }],
        [['ci'], 'success', 2, null],
      ] as const) {
        await l.episodes.record(episode({ tags, outcome, timestamp: at(daysAgo), skill }));
      }
      const c = (successes: number, failures: number, partials: number) => {
        const total = successes + failures + partials;
        return { successes, failures, partials, total, rate: successes / total };
      };
      assert.deepEqual(await outcomesByTag(l.records, 'Deploy-Preview', 2, now), {
        tags: [
          { tag: 'ci', last30Days: c(2, 0, 0), allTime: c(2, 1, 0) },
          { tag: 'flaky', last30Days: c(1, 0, 1), allTime: c(1, 0, 1) },
          { tag: null, last30Days: c(1, 0, 0), allTime: c(1, 0, 0) },
        ],
        truncated: false,
      });
      const newest = await outcomesByTag(l.records, 'deploy-preview', 2, now, 2);
      assert.equal(newest.truncated, true, 'only the newest were read');
      assert.deepEqual((await outcomesByTag(l.records, 'deploy-preview', 3, now)).tags, []);
      await l.close();
    });
  });
