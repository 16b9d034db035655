import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, ok, refused } from '../helpers/cliRun';
import { freshProject, requirePostgres } from '../helpers/postgres';
import { tmpDir } from '../helpers/tmp';

// The seeds' JSON Lines as a new user has them: the first seed's memory lines (test/data/seeds/memory.jsonl,
// its MemoryQuery shape) and the second seed's episode line (episode.jsonl, verbatim).
const SEEDS = path.join(__dirname, '..', 'data', 'seeds');
const MEMORIES = path.join(SEEDS, 'memory.jsonl');
const EPISODES = path.join(SEEDS, 'episode.jsonl');
const JEST = '3f2a9c1e-8b4d-4e6f-a1b2-c3d4e5f60718';
const VPN = '9b7e6d5c-4a3b-4c2d-8e1f-0a9b8c7d6e5f';

describe("import of the seeds' JSON Lines (dist/cli.js)", function () {
  this.timeout(120_000);

  it('memory lines become versions in changedAt order, deletedAt a soft delete; list, read and history show them', () => {
    const s = tmpDir();
    assert.equal(ok(cli(s, ['import', MEMORIES])), 'Imported 4 version(s); 0 skipped (already present, or of a purged memory).\n');
    const listed = JSON.parse(ok(cli(s, ['--json', 'list']))) as { items: Array<{ id: string }> };
    assert.deepEqual(
      listed.items.map((m) => m.id),
      [JEST],
    );
    const read = JSON.parse(ok(cli(s, ['--json', 'read', JEST]))) as Record<string, unknown>;
    assert.equal(read.description, 'Jest fails on ESM-only packages such as lodash-es; un-ignore them in transformIgnorePatterns');
    assert.deepEqual(read.tags, ['jest', 'esm', 'testing']);
    assert.equal(read.changedAt, '2026-01-12T16:30:00.000Z');
    assert.equal(read.version, 2);
    assert.equal(read.author, 'ana@example.com');
    const history = JSON.parse(ok(cli(s, ['--json', 'history', VPN]))) as Array<Record<string, unknown>>;
    assert.deepEqual(
      history.map((v) => [v.version, v.op, v.changedAt, v.deletedAt ?? null]),
      [
        [1, 'create', '2026-01-08T09:15:00.000Z', null],
        [2, 'delete', '2026-02-01T08:00:00.000Z', '2026-02-01T08:00:00.000Z'],
      ],
    );
    const deleted = JSON.parse(ok(cli(s, ['--json', 'list', '--deleted']))) as { items: Array<{ id: string }> };
    assert.ok(deleted.items.some((m) => m.id === VPN));
    assert.match(ok(cli(s, ['search', 'lodash-es'])), new RegExp(JEST));
  });

  it('the seed episode line (id evt_…, source conversation:abc) is shown by episode show under its own id', () => {
    const s = tmpDir();
    assert.match(
      ok(cli(s, ['import', EPISODES])),
      /Imported 1 record\(s\) of the other tiers; 0 skipped \(already present, or forgotten\)/,
    );
    const e = JSON.parse(ok(cli(s, ['--json', 'episode', 'show', 'evt_20260915_001']))) as Record<string, unknown>;
    assert.equal(e.importedId, 'evt_20260915_001');
    assert.deepEqual(e.source, { type: 'chat', ref: 'abc' });
    assert.equal(e.timestamp, '2026-09-15T09:00:00.000Z');
    assert.equal(e.task, 'fix image build failure');
    assert.deepEqual(e.errors, ['missing asset']);
    const listed = JSON.parse(ok(cli(s, ['--json', 'episode', 'list']))) as { items: Array<{ id: string }> };
    assert.deepEqual(
      listed.items.map((i) => i.id),
      [e.id],
    );
  });

  it('importing the same lines again adds nothing (by id and changedAt; an episode by id), and a later version is added', () => {
    const s = tmpDir();
    const both = path.join(tmpDir(), 'both.jsonl');
    fs.mkdirSync(path.dirname(both), { recursive: true });
    fs.writeFileSync(both, fs.readFileSync(MEMORIES, 'utf8') + fs.readFileSync(EPISODES, 'utf8'));
    ok(cli(s, ['import', both]));
    assert.equal(
      ok(cli(s, ['import', both])),
      'Imported 0 version(s); 4 skipped (already present, or of a purged memory).\nImported 0 record(s) of the other tiers; 1 skipped (already present, or forgotten).\n',
    );
    // The same instant written another way is the same version.
    const same = fs.readFileSync(MEMORIES, 'utf8').split('\n')[0]!.replace('10:00:00Z', '11:00:00+01:00');
    const later = same.replace('"changedAt":"2026-01-05T11:00:00+01:00"', '"changedAt":"2026-03-01T00:00:00Z"').replace('nanoid', 'x');
    const more = path.join(path.dirname(both), 'more.jsonl');
    fs.writeFileSync(more, `${same}\n${later}\n`);
    assert.equal(ok(cli(s, ['import', more])), 'Imported 1 version(s); 1 skipped (already present, or of a purged memory).\n');
    const history = JSON.parse(ok(cli(s, ['--json', 'history', JEST]))) as Array<{ version: number; op: string }>;
    assert.deepEqual(
      history.map((v) => [v.version, v.op]),
      [
        [1, 'create'],
        [2, 'edit'],
        [3, 'edit'],
      ],
    );
    assert.equal(JSON.parse(ok(cli(s, ['--json', 'episode', 'list']))).items.length, 1);
  });

  it('a bad line is named and nothing of the file is written', () => {
    const s = tmpDir();
    const dir = tmpDir();
    fs.mkdirSync(dir, { recursive: true });
    const good = fs.readFileSync(MEMORIES, 'utf8');
    const file = path.join(dir, 'bad.jsonl');
    const write = (text: string) => fs.writeFileSync(file, text);
    write(`${good}{"id":"${JEST}","description":"x","tags":[],"content":"y","changedAt":"2026-04-01T00:00:00Z"}\n`);
    refused(cli(s, ['import', file]), /^agent-memory: line 5: tags/);
    write(`${good}{"id":"${JEST}","description":"x","tags":["a"],"content":"y","changedAt":"2026-04-01T00:00:00Z","author":"bo"}\n`);
    refused(cli(s, ['import', file]), /line 5: .*author/);
    write(`${good}${fs.readFileSync(EPISODES, 'utf8').replace('"source":"conversation:abc"', '"source":"fax:1"')}`);
    refused(cli(s, ['import', file]), /line 5: source\.type/);
    write(`${good}${fs.readFileSync(EPISODES, 'utf8').replace('"id":"evt_20260915_001",', '')}`);
    refused(cli(s, ['import', file]), /line 5: id: is missing — an episode line needs its id/);
    write(`${good.replace('2026-01-12T16:30:00Z', '2026-01-05T10:00:00Z')}`);
    refused(
      cli(s, ['import', file]),
      /line 2: memory 3f2a9c1e-\S+ has two different versions at changedAt 2026-01-05T10:00:00\.000Z \(also line 1\)/,
    );
    write(`${good}not json\n`);
    refused(cli(s, ['import', file]), /line 5: is not valid JSON/);
    assert.equal(ok(cli(s, ['list'])).trim(), 'No memories.');
    assert.equal(JSON.parse(ok(cli(s, ['--json', 'list', '--deleted']))).items.length, 0);
    assert.equal(JSON.parse(ok(cli(s, ['--json', 'episode', 'list']))).items.length, 0);
  });

  describe('into a PostgreSQL store', () => {
    let url: string;
    before(async function () {
      url = await requirePostgres(this);
    });

    it('imports the same lines the same way, and again adds nothing', () => {
      const db = [url, '--project', freshProject()];
      assert.equal(
        ok(cli(db[0]!, [...db.slice(1), 'import', MEMORIES])),
        'Imported 4 version(s); 0 skipped (already present, or of a purged memory).\n',
      );
      assert.match(ok(cli(db[0]!, [...db.slice(1), 'import', EPISODES])), /Imported 1 record/);
      assert.equal(
        ok(cli(db[0]!, [...db.slice(1), 'import', MEMORIES])),
        'Imported 0 version(s); 4 skipped (already present, or of a purged memory).\n',
      );
      const history = JSON.parse(ok(cli(db[0]!, [...db.slice(1), '--json', 'history', VPN]))) as Array<{ op: string }>;
      assert.deepEqual(
        history.map((v) => v.op),
        ['create', 'delete'],
      );
      const e = JSON.parse(ok(cli(db[0]!, [...db.slice(1), '--json', 'episode', 'show', 'evt_20260915_001']))) as { source: object };
      assert.deepEqual(e.source, { type: 'chat', ref: 'abc' });
    });
  });
});
