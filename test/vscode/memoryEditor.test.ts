import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { cli, EXTENSION_ID, memoryUri, until } from './seed';

interface Read {
  id: string;
  version: number;
  description: string;
  tags: string[];
  content: string;
}

const versionUri = (id: string, v: number) => vscode.Uri.from({ scheme: 'agent-memory', path: `/memories/${id}.v${v}.md` });
/** The document the extension opens for a memory: named after its description (issue 14, item 3). */
const readableUri = (id: string, name: string, v?: number) =>
  vscode.Uri.from({ scheme: 'agent-memory', path: `/memories/${id}/${name}${v === undefined ? '' : `.v${v}`}.md` });

/** The line of the first front-matter or content line starting with `prefix`. */
const lineOf = (doc: vscode.TextDocument, prefix: string) =>
  doc
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith(prefix));

/** A memory of this suite's own, written by the CLI, so the other suites' seed stays as it was. */
function createMemory(description: string, tags = 'editor-test', content = 'First text.'): string {
  return cli<{ id: string }>('create', '--description', description, '--tags', tags, '--content', content).id;
}

/** Replaces the whole text of the document in its editor, as typing would. */
async function replaceText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.equal(await vscode.workspace.applyEdit(edit), true);
}

describe('the memory editor (agent-memory:/memories/<id>.md)', function () {
  this.timeout(30_000);

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows front matter with description and tags, then the content, as Markdown', async () => {
    const id = createMemory('Front matter layout', 'editor-test,yaml', 'Body line one.\n\nBody line two.');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    const text = doc.getText();
    assert.match(text, /^---\n# agent-memory [0-9a-f-]{36} · version 1 · /);
    assert.match(text, /^description: Front matter layout$/m);
    assert.match(text, /^tags: \[ editor-test, yaml \]$/m);
    assert.match(text, /\n---\n\nBody line one\.\n\nBody line two\.\n$/);
    await until(
      'the memory language',
      () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === memoryUri(id).toString())?.languageId === 'agent-memory',
    );
    assert.equal((await vscode.workspace.fs.stat(memoryUri(id))).permissions, undefined, 'the current version is writable');
    // Prose and the tags line wrap instead of running off the edge (package.json configurationDefaults).
    const shown = vscode.workspace.textDocuments.find((d) => d.uri.toString() === memoryUri(id).toString())!;
    assert.equal(vscode.workspace.getConfiguration('editor', shown).get('wordWrap'), 'on');
  });

  it('saving the editor writes a new version with the edited description, tags and content', async () => {
    const id = createMemory('Before the edit');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.window.showTextDocument(doc);
    await replaceText(
      doc,
      doc
        .getText()
        .replace('description: Before the edit', 'description: After the edit')
        .replace('[ editor-test ]', '[ editor-test, Saved-In-Editor ]')
        .replace('First text.', 'Second text, written in the editor.'),
    );
    assert.equal(await doc.save(), true);
    const m = cli<Read>('read', id);
    assert.equal(m.version, 2);
    assert.equal(m.description, 'After the edit');
    assert.deepEqual(m.tags, ['editor-test', 'saved-in-editor'], "tags normalised as an agent's would be");
    assert.equal(m.content, 'Second text, written in the editor.');
    assert.equal(doc.isDirty, false);
    // The document is read again: its header names the saved version (it named version 1 before a fix).
    await until('the header to name version 2', () => doc.getText().includes(`${id} · version 2 · `));
    assert.match(doc.getText(), /Saving writes version 3\./);
    assert.equal(doc.isDirty, false);
    // A second save from the same editor is not taken for a conflict with the first.
    await replaceText(doc, doc.getText().replace('Second text', 'Third text'));
    assert.equal(await doc.save(), true);
    assert.equal(cli<Read>('read', id).version, 3);
  });

  it('saving without a change writes nothing', async () => {
    const id = createMemory('Saved unchanged');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.workspace.fs.writeFile(memoryUri(id), new TextEncoder().encode(doc.getText()));
    assert.equal(cli<Read>('read', id).version, 1);
  });

  for (const [what, change, reason] of [
    ['a bad tag', (t: string) => t.replace('[ editor-test ]', '[ editor-test, "bad/tag!" ]'), /Tag 2: .*"\/!"/],
    [
      'a description over the limit',
      (t: string) => t.replace('description: Refused save', `description: ${'x'.repeat(501)}`),
      /Description: .*501 characters; the limit is 500/,
    ],
    ['a secret in the content', (t: string) => t.replace('First text.', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789'), /secret|token/i],
    ['broken front matter', (t: string) => t.replace('tags: [ editor-test ]', 'tags: [ editor-test'), /Front matter, line \d+/],
  ] as const) {
    it(`refuses a save with ${what}, with the reason, and stores nothing`, async () => {
      const id = createMemory('Refused save');
      const uri = memoryUri(id);
      const doc = await vscode.workspace.openTextDocument(uri);
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(change(doc.getText())))), reason);
      // Through the editor too: the save fails and the document stays dirty.
      await vscode.window.showTextDocument(doc);
      await replaceText(doc, change(doc.getText()));
      assert.equal(await doc.save(), false);
      assert.equal(doc.isDirty, true);
      const m = cli<Read>('read', id);
      assert.equal(m.version, 1, 'nothing was stored');
      assert.equal(m.content, 'First text.');
    });
  }

  it('opens older versions read-only and refuses writing to them', async () => {
    const id = createMemory('Versioned');
    cli('edit', id, '--content', 'Version two.');
    const v1 = versionUri(id, 1);
    assert.equal((await vscode.workspace.fs.stat(v1)).permissions, vscode.FilePermission.Readonly);
    const doc = await vscode.workspace.openTextDocument(v1);
    assert.match(doc.getText(), /version 1 · /);
    assert.match(doc.getText(), /First text\.\n$/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(v1, new TextEncoder().encode(doc.getText()))), /read-only/);
    assert.equal(cli<Read>('read', id).version, 2);
  });

  it('"Compare with Previous Version" opens a diff of the previous version against the current document', async () => {
    const id = createMemory('Compared');
    cli('edit', id, '--content', 'Version two.');
    await vscode.commands.executeCommand('agentMemory.compareWithPrevious', memoryUri(id));
    await until('a diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputTextDiff;
    // Both sides named after the description, the id kept in the path.
    assert.equal(input.original.toString(), readableUri(id, 'compared', 1).toString());
    assert.equal(input.modified.toString(), readableUri(id, 'compared').toString());
  });

  it('opens a memory once: an open document keeps its URI, whatever name a command would give it', async () => {
    const id = createMemory('Opened once');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.window.showTextDocument(doc);
    cli('edit', id, '--content', 'Version two.');
    await vscode.commands.executeCommand('agentMemory.compareWithPrevious', memoryUri(id));
    await until('a diff editor', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputTextDiff;
    assert.equal(input.modified.toString(), memoryUri(id).toString(), 'the open document, not a second one');
    // Copy Memory ID and History work on a readably named document as on any.
    await vscode.window.showTextDocument(readableUri(id, 'some-other-name', 1));
    await vscode.commands.executeCommand('agentMemory.copyId');
    assert.equal(await vscode.env.clipboard.readText(), id);
  });

  it('marks why a save was refused on the offending line, in the words of a person, until the next edit (issue 14, item 5)', async () => {
    const id = createMemory('Too many tags');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.window.showTextDocument(doc);
    const thirteen = Array.from({ length: 13 }, (_, i) => `t${i}`).join(', ');
    await replaceText(doc, doc.getText().replace('[ editor-test ]', `[ ${thirteen} ]`));
    assert.equal(await doc.save(), false);
    const [mark, ...more] = vscode.languages.getDiagnostics(doc.uri);
    assert.ok(mark, 'a problem is shown');
    assert.equal(more.length, 0);
    assert.equal(mark.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(mark.range.start.line, lineOf(doc, 'tags:'), 'on the tags line');
    assert.match(mark.message, /^Tags: 13 tags given; the limit is 12$/);
    // An edit takes the mark away (the text it was about is gone).
    await replaceText(doc, doc.getText().replace(`[ ${thirteen} ]`, '[ editor-test ]'));
    assert.deepEqual(vscode.languages.getDiagnostics(doc.uri), []);

    // A new memory without tags: the reason, without the hint written for agents.
    await vscode.commands.executeCommand('agentMemory.newMemory');
    const draft = vscode.window.activeTextEditor!.document;
    await replaceText(draft, '---\ndescription: A draft without tags\ntags: []\n---\n\nText.\n');
    assert.equal(await draft.save(), false);
    const [untagged] = vscode.languages.getDiagnostics(draft.uri);
    assert.equal(untagged?.range.start.line, 2);
    assert.match(untagged!.message, /^Tags: give at least 1 tag/);
    assert.doesNotMatch(untagged!.message, /agent-memory_/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('"New Memory" opens a draft whose first save creates the memory', async () => {
    await vscode.commands.executeCommand('agentMemory.newMemory');
    const editor = vscode.window.activeTextEditor!;
    assert.match(editor.document.uri.path, /^\/new\/[0-9a-z]+\/new-memory\.md$/, 'a tab named "new-memory.md"');
    assert.match(editor.document.getText(), /^description: ""\ntags: \[\]$/m);
    const marker = `drafted-${Date.now()}`;
    await replaceText(
      editor.document,
      `---\ndescription: Written by hand in the editor ${marker}\ntags: [editor-test, by-hand]\n---\n\nWhy: people know things too.\n`,
    );
    assert.equal(await editor.document.save(), true);
    const hits = cli<Array<{ id: string; description: string }>>('search', marker);
    assert.equal(hits.length, 1);
    const m = cli<Read>('read', hits[0]!.id);
    assert.deepEqual(m.tags, ['editor-test', 'by-hand']);
    assert.equal(m.content, 'Why: people know things too.');
    // The memory's own document takes the draft's place; saving it edits that memory.
    await until(
      'the memory to replace the draft',
      () => vscode.window.activeTextEditor?.document.uri.path.startsWith(`/memories/${m.id}/written-by-hand-in-the-editor`) === true,
    );
    const draftOpen = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.path.startsWith('/new/'));
    await until('the saved draft to be closed', () => !draftOpen());
    const doc = vscode.window.activeTextEditor!.document;
    await replaceText(doc, doc.getText().replace('people know', 'people also know'));
    assert.equal(await doc.save(), true);
    assert.equal(cli<Read>('read', m.id).version, 2);
    assert.equal(cli<unknown[]>('search', marker).length, 1);
  });

  it('an open document follows a version written by another process', async () => {
    const id = createMemory('Followed');
    const doc = await vscode.workspace.openTextDocument(memoryUri(id));
    await vscode.window.showTextDocument(doc);
    cli('edit', id, '--content', 'Changed by the CLI.');
    await until('the document to reload', () => doc.getText().includes('Changed by the CLI.'));
    assert.match(doc.getText(), /version 2 · /);
    assert.equal(doc.isDirty, false);
  });

  it('is not auto-saved, even where VS Code auto-saves other files (every save is a version)', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Workspace);
    await files.update('autoSaveDelay', 200, vscode.ConfigurationTarget.Workspace);
    try {
      const id = createMemory('Not auto-saved');
      const shown = await vscode.window.showTextDocument(memoryUri(id));
      await until(
        'the memory language',
        () => shown.document.languageId === 'agent-memory' || vscode.window.activeTextEditor?.document.languageId === 'agent-memory',
      );
      const doc = vscode.window.activeTextEditor!.document;
      await replaceText(doc, doc.getText().replace('First text.', 'Half-typed'));
      await new Promise((r) => setTimeout(r, 2000)); // ten auto-save delays
      assert.equal(doc.isDirty, true, 'the document was auto-saved');
      assert.equal(cli<Read>('read', id).version, 1);
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
      await files.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
