import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildServices } from '../../../src/core/services';
import { openStore } from '../../../src/platform/openStore';
import { tmpDir } from '../../helpers/tmp';

/** Every file under `dir`, relative, with its size: what git would see. */
function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const p = path.join(e.parentPath, e.name);
      return `${path.relative(dir, p)} ${fs.statSync(p).size}`;
    })
    .sort();
}

describe('sql.js store: looking writes nothing (what the views and the activation run do)', function () {
  this.timeout(60_000);

  /** What the views read when they open, then the forgetting run that starts with the store. */
  async function look(dir: string): Promise<void> {
    const store = await openStore({ kind: 'dir', dir });
    const { memories, playbook } = buildServices(store, { author: 'bo' });
    await memories.list({ limit: 50 });
    await memories.search({ keywords: ['jest'] });
    await Promise.all(['fact', 'skill', 'proposal'].map((kind) => store.records.query({ kind: kind as 'fact', limit: 50 })));
    const run = await playbook.runForgetting('activation');
    assert.equal(run.id, null, 'nothing was due: no report');
    await store.close();
  }

  it('in an empty repository: no store folder is created', async () => {
    const dir = path.join(tmpDir(), '.agent-memory');
    await look(dir);
    assert.equal(fs.existsSync(dir), false);
  });

  it('in a repository with a store: journal.jsonl and the git files are left as they were', async () => {
    const dir = path.join(tmpDir(), '.agent-memory');
    const store = await openStore({ kind: 'dir', dir });
    await buildServices(store, { author: 'ana' }).memories.create({ description: 'Jest fails on ESM', tags: ['jest'], content: 'x' });
    await store.close();
    const tracked = () => files(dir).filter((f) => /^(journal\.jsonl|\.gitignore|\.gitattributes) /.test(f));
    const before = tracked();
    const journal = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8');
    await look(dir);
    assert.deepEqual(tracked(), before);
    assert.equal(fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8'), journal);
  });
});
