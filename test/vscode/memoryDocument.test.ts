import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { EXTENSION_ID, memoryUri, readSeed } from './seed';

describe('memory documents (agent-memory:/memories/<id>.md)', () => {
  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  it('open the seeded memory with its content, not dirty', async () => {
    const seed = readSeed();
    const doc = await vscode.workspace.openTextDocument(memoryUri(seed.id));
    const text = doc.getText();
    assert.ok(text.includes(`description: ${seed.description}`), `description missing from:\n${text}`);
    assert.ok(text.includes(seed.content), `content missing from:\n${text}`);
    assert.ok(text.includes(`agent-memory ${seed.id} · version 1`), `id missing from:\n${text}`);
    assert.equal(doc.isDirty, false);
    assert.equal(doc.uri.scheme, 'agent-memory');
  });

  it('show a memory that another process (the CLI) wrote while VS Code was running', async () => {
    const seed = readSeed();
    // Open the store in this host first, so the new memory has to come from catching up with
    // the journal rather than from a fresh open.
    await vscode.workspace.openTextDocument(memoryUri(seed.id));
    const content = `Written by the CLI at ${new Date().toISOString()} while the extension host held the store open.`;
    const out = execFileSync(
      seed.node,
      [
        seed.cli,
        '--store',
        seed.store,
        '--json',
        '--author',
        'cli-in-test',
        'create',
        '--description',
        'Memory created by another process',
        '--tags',
        'vscode-test,cli',
        '--content',
        content,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    const { id } = JSON.parse(out) as { id: string };
    assert.notEqual(id, seed.id);
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    assert.ok(doc.getText().includes(content), `content missing from:\n${doc.getText()}`);
    assert.ok(doc.getText().includes('cli-in-test'), 'author missing');
    assert.equal(doc.isDirty, false);
  });

  it('refuse a path that is not a memory', async () => {
    await assert.rejects(
      async () => vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'agent-memory', path: '/memories/not-an-id.md' })),
      // The workbench reports its own wording for a path the provider does not know.
      /nonexistent file 'agent-memory:\/memories\/not-an-id\.md'|Not a memory document/,
    );
  });
});
