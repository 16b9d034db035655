import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { MemoriesTreeProvider, MemoryNode } from '../../src/vscode/memoriesView';
import { EXTENSION_ID, readSeed } from './seed';

async function view(): Promise<MemoriesTreeProvider> {
  const ext = vscode.extensions.getExtension<{ memoriesView: MemoriesTreeProvider }>(EXTENSION_ID)!;
  return (await ext.activate()).memoriesView;
}

const ids = (nodes: MemoryNode[]) => nodes.flatMap((n) => (n.kind === 'memory' ? [n.id] : []));

describe('the Memories view', function () {
  this.timeout(30_000);

  it('lists the current memories, with tags as secondary text and a tooltip read on demand', async () => {
    const seed = readSeed();
    const tree = await view();
    const nodes = await tree.getChildren();
    assert.ok(ids(nodes).includes(seed.id), `seeded memory missing: ${JSON.stringify(nodes)}`);
    const node = nodes.find((n) => n.kind === 'memory' && n.id === seed.id)!;
    const item = tree.getTreeItem(node);
    assert.equal(item.label, seed.description);
    assert.equal(item.description, seed.tags.join(', '));
    assert.equal(item.command?.arguments?.[0]?.toString(), `agent-memory:/memories/${seed.id}.md`);
    const resolved = await tree.resolveTreeItem(item, node);
    assert.match((resolved.tooltip as vscode.MarkdownString).value, /version 1/);
  });

  it('refreshes by itself when another process (the CLI) writes to the store', async () => {
    const seed = readSeed();
    const tree = await view();
    await tree.getChildren();
    const refreshed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the view did not refresh within 10 s')), 10_000);
      const sub = tree.onDidChangeTreeData(() => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      });
    });
    const out = execFileSync(
      seed.node,
      [seed.cli, '--store', seed.store, '--json', 'create', '--description', 'Seen by the view', '--tags', 'view-test', '--content', 'x'],
      { encoding: 'utf8', timeout: 20_000 },
    );
    const { id } = JSON.parse(out) as { id: string };
    await refreshed;
    assert.equal(ids(await tree.getChildren())[0], id, 'the newest memory comes first');
  });
});
