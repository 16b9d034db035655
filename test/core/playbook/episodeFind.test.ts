import { strict as assert } from 'node:assert';
import { ValidationError } from '../../../src/core/errors';
import { episodeTerms, EPISODE_RELEVANCE_FLOOR, matchEpisode, rankedEpisodes } from '../../../src/core/playbook/episodeFind';
import { terms } from '../../../src/core/wordTerms';
import { BACKENDS, prepareBackend } from '../../helpers/builders';
import { episode, openPlaybook, rejects, testClock } from './playbookHelpers';

const q = (text: string) => new Set(terms(text));
const e = (over: Partial<{ task: string; tags: string[]; errors: string[]; resolution: string }> = {}) =>
  episodeTerms({ task: 'Deploy the billing service', tags: [], skill: null, errors: [], resolution: '', ...over });

describe('episode matching (pure)', () => {
  it('matches stemmed words of the task and tags fully, errors and resolution at half weight', () => {
    assert.equal(matchEpisode(q('deploying billing'), e()), 1);
    assert.equal(matchEpisode(q('billing flaky'), e({ tags: ['flaky-tests'] })), 1);
    assert.equal(matchEpisode(q('billing ETIMEDOUT'), e({ errors: ['connect ETIMEDOUT 10.0.0.1:5432'] })), 0.75);
    assert.equal(matchEpisode(q('ETIMEDOUT'), e({ errors: ['connect ETIMEDOUT 10.0.0.1:5432'] })), 0.5);
  });

  it('needs two shared words unless the query has one, so one common word is not a match', () => {
    assert.equal(matchEpisode(q('fix the billing invoices rounding'), e({ task: 'Fix flaky login' })), 0);
    assert.ok(matchEpisode(q('billing'), e()) >= EPISODE_RELEVANCE_FLOOR);
    assert.equal(matchEpisode(q('pizza'), e()), 0);
  });

  it('lets a long task cover a short episode (the share of the episode the task holds)', () => {
    const long = q(
      'We need to deploy the billing service again after the rollback of yesterday, then update the dashboards and notify the team',
    );
    // 3 of the task's 12 terms, below the floor as a share of the query; all of the episode's.
    assert.equal(matchEpisode(long, e()), 1);
    assert.equal(matchEpisode(long, e({ task: 'Deploy the billing service, then migrate its ledger, invoices and tax tables' })), 0.375);
  });
});

for (const backend of BACKENDS)
  describe(`EpisodeService.find [${backend}] (ranked, filtered, bounded, paged)`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    async function seeded() {
      const clock = testClock('2026-03-01T12:00:00.000Z');
      const l = await openPlaybook(backend, { clock });
      await l.skillVersions('fix-flaky-test', 2);
      const ids: Record<string, string> = {};
      const add = async (key: string, over: Record<string, unknown>) => {
        clock.days(1);
        ids[key] = (await l.episodes.record(episode(over))).id;
      };
      await add('flakySuccess', { task: 'Fix the flaky login test in CI', tags: ['flaky', 'ci'], errors: [], resolution: '' });
      await add('flakyFailure', {
        task: 'Fix the flaky login test by retrying it',
        outcome: 'failure',
        tags: ['flaky'],
        errors: ['AssertionError: expected 200, got 401 after retry'],
        resolution: 'Gave up: the retry hid a race in the session cookie; wait for the cookie instead.',
        skill: { name: 'fix-flaky-test', version: 2 },
      });
      await add('release', { task: 'Ship hotfix release 1.2.1', tags: ['release'], errors: [], resolution: '' });
      await add('migration', {
        task: 'Migrate the ledger database to PostgreSQL 16',
        outcome: 'partial',
        tags: ['database'],
        errors: ['pg_upgrade: ETIMEDOUT while copying'],
        resolution: 'Copied in two batches',
      });
      return { l, ids, clock };
    }

    it('ranks by task words, best first; failures carry their errors and resolution', async () => {
      const { l, ids } = await seeded();
      const r = await l.episodes.find({ query: 'flaky login test' });
      assert.deepEqual(
        r.items.map((i) => i.id),
        [ids.flakyFailure, ids.flakySuccess],
        'equal scores: the newest first',
      );
      assert.equal(r.searchedAll, true);
      assert.equal(r.note, undefined);
      const failure = r.items[0]!;
      assert.equal(failure.outcome, 'failure');
      assert.deepEqual(failure.errors, ['AssertionError: expected 200, got 401 after retry']);
      assert.match(failure.resolution, /wait for the cookie/);
      assert.deepEqual(failure.skill, { name: 'fix-flaky-test', version: 2 });
      assert.ok(failure.score! > 0 && failure.recordedAt && failure.author === 'ana@example.com');
      // An error's words find the episode that met it.
      assert.deepEqual(
        (await l.episodes.find({ query: 'ETIMEDOUT' })).items.map((i) => i.id),
        [ids.migration],
      );
      assert.deepEqual((await l.episodes.find({ query: 'order pizza for the offsite' })).items, []);
      await l.close();
    });

    it('filters by outcome, skill, tags and the time window, with or without words', async () => {
      const { l, ids } = await seeded();
      const idsOf = async (input: object) => (await l.episodes.find(input)).items.map((i) => i.id);
      assert.deepEqual(await idsOf({}), [ids.migration, ids.release, ids.flakyFailure, ids.flakySuccess], 'newest first');
      assert.deepEqual(await idsOf({ outcome: 'failure' }), [ids.flakyFailure]);
      assert.deepEqual(await idsOf({ query: 'flaky login', outcome: 'success' }), [ids.flakySuccess]);
      assert.deepEqual(await idsOf({ skill: 'Fix-Flaky-Test' }), [ids.flakyFailure]);
      assert.deepEqual(await idsOf({ tags: ['flaky', 'ci'] }), [ids.flakySuccess]);
      assert.deepEqual(await idsOf({ tags: ['Flaky'], query: 'login' }), [ids.flakyFailure, ids.flakySuccess]);
      // Recorded at noon on 2 to 5 March: since is inclusive, until exclusive.
      assert.deepEqual(await idsOf({ since: '2026-03-04T12:00:00Z' }), [ids.migration, ids.release]);
      assert.deepEqual(await idsOf({ until: '2026-03-04T12:00:00Z' }), [ids.flakyFailure, ids.flakySuccess]);
      assert.deepEqual(await idsOf({ since: '2026-03-03T00:00:00Z', until: '2026-03-04T00:00:00Z' }), [ids.flakyFailure]);
      assert.deepEqual(await idsOf({ query: 'flaky', since: '2026-03-04T00:00:00Z' }), []);
      await l.close();
    });

    it('finds an episode that happened long before it was recorded by its own time', async () => {
      const { l, clock } = await seeded();
      clock.days(30);
      const { id } = await l.episodes.record(episode({ task: 'Rotate the signing keys', timestamp: '2026-03-02T00:00:00.000Z' }));
      const r = await l.episodes.find({ since: '2026-03-01T00:00:00Z', until: '2026-03-02T06:00:00Z' });
      assert.deepEqual(
        r.items.map((i) => [i.id, i.timestamp]),
        [[id, '2026-03-02T00:00:00.000Z']],
      );
      await l.close();
    });

    it('pages with a cursor, ranked or not, without repeating or skipping', async () => {
      const { l } = await seeded();
      for (const input of [{}, { query: 'flaky login test release database' }]) {
        const all = (await l.episodes.find({ ...input, limit: 50 })).items.map((i) => i.id);
        const seen: string[] = [];
        let cursor: string | null | undefined;
        do {
          const page = await l.episodes.find({ ...input, limit: 1, cursor });
          assert.ok(page.items.length <= 1);
          seen.push(...page.items.map((i) => i.id));
          cursor = page.nextCursor;
        } while (cursor);
        assert.deepEqual(seen, all, JSON.stringify(input));
        assert.ok(all.length >= 2, 'the query reaches several episodes');
      }
      await rejects(l.episodes.find({ query: 'flaky', cursor: 'bm90IGEgY3Vyc29y' }), ValidationError, /cursor: is not a cursor/);
      await l.close();
    });

    it('reads at most the bound of episodes for a text match, and says so', async () => {
      const { l, ids } = await seeded();
      const bounded = await rankedEpisodes(l.records, 'flaky login', {}, 10, undefined, 2);
      assert.equal(bounded.searchedAll, false);
      assert.deepEqual(
        bounded.rows.map((x) => x.r.id),
        [],
        'the two newest are the release and the migration',
      );
      const wide = await rankedEpisodes(l.records, 'flaky login', {}, 10, undefined, 4);
      assert.equal(wide.searchedAll, true);
      assert.deepEqual(
        wide.rows.map((x) => x.r.id),
        [ids.flakyFailure, ids.flakySuccess],
      );
      await l.close();
    });

    it('refuses bad filters with messages that say what to give', async () => {
      const { l } = await seeded();
      await rejects(l.episodes.find({ outcome: 'failed' }), ValidationError, /outcome: is one of success, failure, partial/);
      await rejects(l.episodes.find({ since: 'yesterday' }), ValidationError, /since: must be an ISO-8601 time/);
      await rejects(
        l.episodes.find({ since: '2026-03-05T00:00:00Z', until: '2026-03-01T00:00:00Z' }),
        ValidationError,
        /until: is not after since/,
      );
      await rejects(l.episodes.find({ limit: 51 }), ValidationError, /limit: (limit )?is at most 50/);
      await rejects(l.episodes.find({ query: 'the with' }), ValidationError, /query: has only common words/);
      await rejects(l.episodes.find({ query: '  ' }), ValidationError, /query: (query )?is empty/);
      await rejects(l.episodes.find({ tags: ['bad tag!'] }), ValidationError, /tags\[0\]/);
      await rejects(l.episodes.find({ task: 'x' }), ValidationError, /task/);
      await l.close();
    });
  });
