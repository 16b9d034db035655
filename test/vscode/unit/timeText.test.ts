import { strict as assert } from 'node:assert';
import { timeLine, timeText } from '../../../src/vscode/shared/timeText';

const NOW = new Date('2026-12-01T19:42:00.000Z');

describe('times as a person reads them', () => {
  let tz: string | undefined;
  before(() => {
    tz = process.env.TZ;
    // Node reads TZ again when it changes: the local time is then known.
    process.env.TZ = 'UTC';
  });
  after(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it('gives the local date and time, how long ago, and the stored ISO text unchanged', () => {
    const t = timeText('2026-12-01T17:40:00.000Z', NOW, 'en');
    assert.equal(t.local, 'Dec 1, 2026, 5:40 PM');
    assert.equal(t.relative, '2 hours ago');
    assert.equal(t.iso, '2026-12-01T17:40:00.000Z');
    assert.equal(timeLine('2026-12-01T17:40:00.000Z', NOW, 'en'), 'Dec 1, 2026, 5:40 PM (2 hours ago)');
  });

  it('words the distance in the largest whole unit, in the past and the future', () => {
    const rel = (iso: string) => timeText(iso, NOW, 'en').relative;
    assert.equal(rel('2026-12-01T19:41:30.000Z'), 'now');
    assert.equal(rel('2026-12-01T19:37:00.000Z'), '5 minutes ago');
    assert.equal(rel('2026-11-30T12:00:00.000Z'), 'yesterday');
    assert.equal(rel('2026-11-10T12:00:00.000Z'), '3 weeks ago');
    assert.equal(rel('2026-12-04T19:42:00.000Z'), 'in 3 days');
    assert.equal(rel('2024-06-01T00:00:00.000Z'), '2 years ago');
  });

  it("follows the display language, and falls back to the runtime's for a tag Intl does not know", () => {
    assert.equal(timeLine('2026-12-01T17:40:00.000Z', NOW, 'de'), '01.12.2026, 17:40 (vor 2 Stunden)');
    assert.equal(timeText('2026-12-01T17:40:00.000Z', NOW, 'zz-unknown-1').iso, '2026-12-01T17:40:00.000Z');
  });

  it('leaves text that is not a time as it is (an empty date of a search hit, say)', () => {
    assert.deepEqual(timeText('', NOW, 'en'), { local: '', relative: '', iso: '' });
    assert.equal(timeLine('not a time', NOW, 'en'), 'not a time');
  });
});
