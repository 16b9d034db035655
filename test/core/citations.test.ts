import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../../src/core/errors';
import { buildServices, type Services } from '../../src/core/services';
import { GitCodebase } from '../../src/platform/gitCodebase';
import { openStore } from '../../src/platform/openStore';
import { BACKENDS, openService, prepareBackend } from '../helpers/builders';
import { rejects } from '../helpers/assertions';
import { changeCitedFiles, CITED, staleScores, writeCitedFiles } from '../helpers/citedRepo';
import { tmpDir } from '../helpers/tmp';

for (const backend of BACKENDS)
  describe(`citations [${backend}]: memories that cite code, re-checked against a real git repository`, function () {
    before(async function () {
      await prepareBackend(backend, this);
    });

    async function setup(): Promise<{ root: string; services: Services; ids: Map<string, string>; close: () => Promise<void> }> {
      const root = tmpDir('am-cite-');
      writeCitedFiles(root);
      const { store } = await openService({ backend });
      const services = buildServices(store, { author: 'ana@example.com', codebase: new GitCodebase(root) });
      const ids = new Map<string, string>();
      for (const m of CITED) {
        const { id } = await services.memories.create({
          description: m.description,
          tags: m.tags,
          content: m.content,
          citations: m.citations,
        });
        ids.set(m.key, id);
      }
      return { root, services, ids, close: () => store.close() };
    }

    it('every citation is fresh right after it was written, with the commit it was taken at', async () => {
      const { root, services, ids, close } = await setup();
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
      for (const m of CITED) {
        const r = await services.memories.read({ id: ids.get(m.key)! });
        assert.equal(r.freshness, 'fresh', m.key);
        assert.equal(r.citations![0]!.status, 'fresh', m.key);
        assert.equal(r.citations![0]!.commit, head, m.key);
        assert.equal(r.note, undefined);
      }
      assert.deepEqual((await services.upkeep.check()).stale, []);
      await close();
    });

    it('after edits, a whitespace-only change, a move within a file, a rename and a deletion: every status as expected (precision and recall 1.0)', async () => {
      const { root, services, ids, close } = await setup();
      changeCitedFiles(root);
      const reported = new Map<string, boolean>();
      for (const m of CITED) {
        const r = await services.memories.read({ id: ids.get(m.key)! });
        assert.equal(r.citations![0]!.status, m.expected, `${m.key}: ${r.citations![0]!.detail}`);
        reported.set(m.key, r.freshness === 'stale');
        if (r.freshness === 'stale') assert.match(r.note!, /Verify it against the code before relying on it/);
      }
      const scores = staleScores(reported);
      assert.deepEqual(scores, { precision: 1, recall: 1, wrong: [] });

      // What each stale one says happened, with git's commits.
      const read = async (key: string) => (await services.memories.read({ id: ids.get(key)! })).citations![0]!;
      const renamed = await read('renamed');
      assert.equal(renamed.renamedTo, 'src/new.ts');
      assert.match(renamed.detail, /src\/old\.ts was renamed to src\/new\.ts \(commit [0-9a-f]+ refactor the code the memories cite\)/);
      assert.match((await read('deleted')).detail, /src\/gone\.ts no longer exists/);
      assert.match((await read('changed')).detail, /has changed \(1 of 2 cited lines are still in the file\)/);
      assert.match((await read('removed')).detail, /no longer in the file/);
      const moved = await read('moved-within-file');
      assert.deepEqual(moved.now, { startLine: 3, endLine: 5 });
      assert.deepEqual(fs.readFileSync(path.join(root, 'src/http/client.ts'), 'utf8').split('\n').slice(2, 5), [
        'export function parse(body: string) {',
        '  return JSON.parse(body);',
        '}',
      ]);

      // check lists exactly the stale ones; search and list mark them.
      const check = await services.upkeep.check();
      assert.equal(check.checked, CITED.length);
      const staleKeys = CITED.filter((m) => reported.get(m.key)).map((m) => ids.get(m.key));
      assert.deepEqual(check.stale.map((s) => s.id).sort(), [...staleKeys].sort());
      const hits = await services.memories.search({ keywords: ['config'] });
      assert.equal(hits.find((h) => h.id === ids.get('changed'))?.freshness, 'stale');
      assert.equal(hits.find((h) => h.id === ids.get('unchanged-line-of-changed-file'))?.freshness, 'fresh');
      const listed = await services.memories.list({});
      assert.equal(listed.items.filter((i) => i.freshness === 'stale').length, staleKeys.length);
      await close();
    });

    it('editing re-anchors: a changed passage is taken as it reads now and the memory is fresh; a moved one follows its text', async () => {
      const { root, services, ids, close } = await setup();
      changeCitedFiles(root);
      const changed = ids.get('changed')!;
      const e = await services.memories.edit({ id: changed, content: 'Port 9090, host localhost.' });
      assert.deepEqual(e.changedFields, ['content', 'citations']);
      const r = await services.memories.read({ id: changed });
      assert.equal(r.freshness, 'fresh');
      assert.equal(r.citations![0]!.status, 'fresh');
      // The old version still holds the old anchor, and reads as stale.
      assert.equal((await services.memories.read({ id: changed, version: 1 })).freshness, 'stale');

      const moved = ids.get('moved-within-file')!;
      await services.memories.edit({ id: moved, tags: ['http', 'json', 'parsing'] });
      const m = await services.memories.read({ id: moved });
      assert.deepEqual([m.citations![0]!.startLine, m.citations![0]!.endLine, m.citations![0]!.status], [3, 5, 'fresh']);

      // Only the citations re-anchored: a person verified the memory is still right.
      const v = await services.memories.edit({ id: ids.get('removed')!, citations: [{ path: 'src/config.ts', startLine: 2 }] });
      assert.deepEqual(v.changedFields, ['citations']);
      await close();
    });

    it('an edit keeping a citation whose file or text is gone is refused and writes nothing; citations: [] drops them', async () => {
      const { root, services, ids, close } = await setup();
      changeCitedFiles(root);
      const gone = ids.get('deleted')!;
      await rejects(
        services.memories.edit({ id: gone, content: 'goneSoon() was removed.' }),
        ValidationError,
        /src\/gone\.ts:1-3 no longer exists; give citations/,
      );
      assert.equal((await services.memories.read({ id: gone })).version, 1);
      const e = await services.memories.edit({ id: gone, content: 'goneSoon() was removed.', citations: [] });
      assert.deepEqual(e.changedFields, ['content', 'citations']);
      const r = await services.memories.read({ id: gone });
      assert.equal(r.citations, undefined);
      assert.equal(r.freshness, undefined);
      await close();
    });

    it('refuses citations of files that do not exist, lines past the end, blank lines, and paths outside the workspace', async () => {
      const { services, close } = await setup();
      const base = { description: 'A memory', tags: ['x'], content: 'y' };
      const create = (citations: unknown) => services.memories.create({ ...base, citations });
      await rejects(create([{ path: 'src/nope.ts' }]), ValidationError, /src\/nope\.ts does not exist in the workspace/);
      await rejects(
        create([{ path: 'src/config.ts', startLine: 90 }]),
        ValidationError,
        /past the end of the file: src\/config\.ts has 7 lines/,
      );
      await rejects(create([{ path: 'src/config.ts', startLine: 5 }]), ValidationError, /holds only blank lines/);
      await rejects(create([{ path: '../etc/passwd' }]), ValidationError, /must stay inside the workspace/);
      await rejects(create([{ path: '/etc/passwd' }]), ValidationError, /relative to the workspace root/);
      await rejects(create([{ path: 'src/config.ts', startLine: 3, endLine: 2 }]), ValidationError, /endLine 2 is before startLine 3/);
      await rejects(create(Array.from({ length: 11 }, () => ({ path: 'src/config.ts' }))), ValidationError, /at most 10 citations/);
      assert.equal((await services.memories.list({})).items.length, CITED.length, 'nothing was written');
      await close();
    });

    it('without a workspace, citations are shown unchecked and cannot be written', async () => {
      const root = tmpDir('am-cite-');
      writeCitedFiles(root);
      const { store } = await openService({ backend });
      const withCode = buildServices(store, { author: 'a@example.com', codebase: new GitCodebase(root) });
      const { id } = await withCode.memories.create({
        description: 'd',
        tags: ['t'],
        content: 'c',
        citations: [{ path: 'src/config.ts' }],
      });
      const bare = buildServices(store, { author: 'a@example.com' });
      const r = await bare.memories.read({ id });
      assert.equal(r.freshness, 'unchecked');
      assert.equal(r.citations![0]!.status, 'unchecked');
      await rejects(
        bare.memories.create({ description: 'd', tags: ['t'], content: 'c', citations: [{ path: 'src/config.ts' }] }),
        ValidationError,
        /needs a workspace/,
      );
      // An edit without a workspace keeps the citations as they are.
      await bare.memories.edit({ id, content: 'c2' });
      assert.equal((await withCode.memories.read({ id })).citations![0]!.status, 'fresh');
      await store.close();
    });
  });

describe('citations survive the sql.js store being reopened (journal and snapshot)', () => {
  it('keeps the fingerprints through a checkpoint and through a journal-only open', async () => {
    const root = tmpDir('am-cite-');
    writeCitedFiles(root);
    const dir = path.join(root, '.agent-memory');
    const codebase = new GitCodebase(root);
    let store = await openStore({ kind: 'dir', dir });
    let services = buildServices(store, { author: 'a@example.com', codebase });
    const { id } = await services.memories.create({
      description: 'The server port is configured in config.ts',
      tags: ['config'],
      content: 'c',
      citations: [{ path: 'src/config.ts', startLine: 2, endLine: 3 }],
    });
    await store.close(); // writes the snapshot and the saved index
    for (const drop of [[], ['snapshot.sqlite', 'search-index.bin']]) {
      for (const f of drop) fs.rmSync(path.join(dir, f), { force: true });
      store = await openStore({ kind: 'dir', dir });
      services = buildServices(store, { author: 'a@example.com', codebase });
      assert.equal(
        (await services.memories.search({ keywords: ['port'] }))[0]?.freshness,
        'fresh',
        `search after dropping ${drop.join(', ') || 'nothing'}`,
      );
      const r = await services.memories.read({ id });
      assert.deepEqual(
        [r.citations![0]!.path, r.citations![0]!.startLine, r.citations![0]!.endLine, r.freshness],
        ['src/config.ts', 2, 3, 'fresh'],
      );
      await store.close();
    }
  });
});
