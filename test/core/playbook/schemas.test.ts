import { strict as assert } from 'node:assert';
import { parseInput } from '../../../src/core/contract';
import { ValidationError } from '../../../src/core/errors';
import { EPISODE_LIMITS, ListEpisodesInput, RecordEpisodeInput, speakerMarkers } from '../../../src/core/contract';
import { AssertFactInput, QueryFactsInput, ResolveFactsInput } from '../../../src/core/contract';
import { episode, fact } from './playbookHelpers';

function refusal(schema: Parameters<typeof parseInput>[0], input: unknown): string {
  try {
    parseInput(schema, input);
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    return err.message;
  }
  return assert.fail('expected a ValidationError');
}

const ID = '0b6c5f1e-8f0e-4d7a-9a51-5f1d2f0c9a11';
const ID2 = '1b6c5f1e-8f0e-4d7a-9a51-5f1d2f0c9a11';

describe('Episode schemas (summaries and pointers, within limits)', () => {
  it('fills the defaults and normalises tags', () => {
    const e = parseInput(RecordEpisodeInput, {
      task: 'Release 1.2',
      outcome: 'partial',
      source: { type: 'commit', ref: 'a1b2c3d' },
      tags: ['Release', 'release'],
    });
    assert.deepEqual(e, {
      task: 'Release 1.2',
      outcome: 'partial',
      tools: [],
      inputs: [],
      errors: [],
      resolution: '',
      tags: ['release'],
      source: { type: 'commit', ref: 'a1b2c3d' },
    });
  });

  it('enforces every size limit with the number and the limit', () => {
    assert.match(refusal(RecordEpisodeInput, episode({ task: 'x'.repeat(501) })), /^task: is 501 characters; the limit is 500$/);
    assert.match(
      refusal(RecordEpisodeInput, episode({ tools: Array.from({ length: 31 }, (_, i) => `t${i}`) })),
      /31 tools given; the limit is 30/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ errors: Array.from({ length: 21 }, () => 'e') })),
      /21 errors given; the limit is 20/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ inputs: Array.from({ length: 21 }, () => 'i') })),
      /21 inputs given; the limit is 20/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ inputs: ['i'.repeat(301)] })),
      /inputs\[0\]: an input is 301 characters; the limit is 300/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ errors: ['e'.repeat(501)] })),
      /errors\[0\]: an error is 501 characters; the limit is 500/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ resolution: 'r'.repeat(2001) })),
      /resolution: is 2001 characters; the limit is 2000/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ tags: Array.from({ length: 13 }, (_, i) => `t${i}`) })),
      /13 tags given; the limit is 12/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ source: { type: 'url', ref: 'u'.repeat(501) } })),
      /source\.ref: is 501 characters; the limit is 500/, // the field named once (it was "source.ref: source.ref is …")
    );
    assert.match(refusal(RecordEpisodeInput, episode({ tags: ['bad tag!'] })), /tags\[0\]: tag contains "!"/);
  });

  it('requires a source pointer and an outcome; refuses unknown fields', () => {
    const { source: _s, ...noSource } = episode();
    assert.match(refusal(RecordEpisodeInput, noSource), /source: /);
    assert.match(refusal(RecordEpisodeInput, episode({ outcome: 'done' })), /outcome: is one of success, failure, partial/);
    assert.match(refusal(RecordEpisodeInput, episode({ source: { type: 'tweet', ref: 'x' } })), /source\.type: is one of commit, issue/);
    assert.match(refusal(RecordEpisodeInput, episode({ transcript: 'x' })), /unknown field\(s\) "transcript"/);
  });

  it('refuses what looks like a pasted transcript, saying what to write instead', () => {
    const chat = 'User: the build fails\nAssistant: let me look\nUser: thanks';
    assert.match(
      refusal(RecordEpisodeInput, episode({ resolution: chat })),
      /^resolution: looks like a pasted conversation \(3 speaker markers such as "User:", "Assistant:" in resolution\); write a short summary and put a pointer to the conversation in source.ref$/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ source: { type: 'chat', ref: 'User: hi\nAssistant: hello' } })),
      /source\.ref: is a pointer .* on one line, never the transcript itself/,
    );
    const long = Array.from({ length: EPISODE_LIMITS.linesMax + 1 }, (_, i) => `step ${i}`).join('\n');
    assert.match(
      refusal(RecordEpisodeInput, episode({ resolution: long })),
      /resolution: has 31 lines; an episode keeps a summary of at most 30 lines/,
    );
    assert.deepEqual(speakerMarkers('**Assistant:** sure\n> Human: go'), ['assistant', 'human']);
  });

  it('counts speaker markers anywhere in a line and across all text fields together', () => {
    // A chat spread over the errors, one turn per item.
    const turns = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'Assistant: try the cache' : 'User: it still fails'));
    assert.match(
      refusal(RecordEpisodeInput, episode({ errors: turns })),
      /^errors\[0\]: looks like a pasted conversation \(20 speaker markers such as "User:", "Assistant:" in errors\[0\], errors\[1\], errors\[2\] and 17 more fields\)/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ errors: Array.from({ length: 3 }, () => 'User: it still fails') })),
      /^errors\[0\]: looks like a pasted conversation \(3 speaker markers such as "User:"/,
    );
    // Both turns on one line, in the task or in the source pointer.
    assert.match(
      refusal(RecordEpisodeInput, episode({ task: 'User: hi Assistant: hello' })),
      /^task: looks like a pasted conversation \(2 speaker markers such as "User:", "Assistant:" in task\)/,
    );
    assert.match(
      refusal(RecordEpisodeInput, episode({ source: { type: 'chat', ref: 'User: hi Assistant: hello' } })),
      /^source.ref: looks like a pasted conversation/,
    );
    // Two speakers in two fields.
    assert.match(
      refusal(RecordEpisodeInput, episode({ task: 'Human: why is CI red', resolution: 'the **AI:** said to pin node' })),
      /^task: looks like a pasted conversation \(2 speaker markers such as "Human:", "AI:" in task, resolution\)/,
    );
  });

  it('lets one incidental speaker marker, and prose that only looks like one, through', () => {
    const ok = (over: Record<string, unknown>) => assert.doesNotThrow(() => parseInput(RecordEpisodeInput, episode(over)));
    ok({ task: 'User: the reporter said it broke after the upgrade' });
    ok({ resolution: 'Asked the reporter; the User: field of the form was empty.' });
    ok({
      errors: ['permission denied for user: bob', 'permission denied for user: carl', 'invalid user: dan'],
      task: 'Set model: gpt-4o for agent: copilot',
    });
    ok({ task: 'User: alice reported it', resolution: 'Fixed what User: bob saw too' }); // two markers, one speaker
    assert.deepEqual(speakerMarkers('model: gpt-4o, system: linux, user: bob'), ['model']); // only the line's start counts in lower case
  });

  it('lists by outcome with a bounded limit', () => {
    assert.match(refusal(ListEpisodesInput, { limit: 101 }), /limit: is at most 100/);
    assert.deepEqual(parseInput(ListEpisodesInput, { outcome: 'failure' }), { outcome: 'failure' });
  });
});

describe('Fact schemas', () => {
  it('takes the triple with evidence; confidence is 0–1, texts are one line within limits', () => {
    assert.deepEqual(parseInput(AssertFactInput, fact({ subject: ' billing ' })), fact());
    assert.match(refusal(AssertFactInput, fact({ confidence: 1.5 })), /confidence: is at most 1 \(1 = certain\)/);
    assert.match(refusal(AssertFactInput, fact({ confidence: -0.1 })), /confidence: is at least 0/);
    assert.match(refusal(AssertFactInput, fact({ subject: 's'.repeat(201) })), /subject: is 201 characters; the limit is 200/);
    assert.match(refusal(AssertFactInput, fact({ object: 'a\nb' })), /object: must be one line/);
    assert.match(refusal(AssertFactInput, fact({ observedAt: 'yesterday' })), /observedAt: /);
  });

  it('queries by at least one of subject, predicate, object', () => {
    assert.match(refusal(QueryFactsInput, { includeInactive: true }), /give at least one of subject, predicate or object/);
    assert.deepEqual(parseInput(QueryFactsInput, { predicate: 'uses' }), { predicate: 'uses' });
  });

  it('resolves with a decision; keep-one names the fact that stays', () => {
    assert.match(refusal(ResolveFactsInput, { ids: [ID, ID2], decision: 'keep-one' }), /keep: keep-one needs keep/);
    assert.match(refusal(ResolveFactsInput, { ids: [ID, ID], decision: 'keep-both' }), /ids: name at least two different facts/);
    assert.match(
      refusal(ResolveFactsInput, { ids: [ID, ID2], decision: 'keep-both', keep: ID }),
      /keep: is only for keep-one, not keep-both/,
    );
    assert.match(refusal(ResolveFactsInput, { ids: [ID, ID2], decision: 'merge' }), /decision: is one of keep-one, keep-both, retract-all/);
  });
});
