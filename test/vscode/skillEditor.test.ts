import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { api, playbook, skillYaml } from './playbookSupport';
import { until } from './seed';

const skillDoc = (name: string, version?: number) =>
  vscode.Uri.from({ scheme: 'agent-memory', path: version ? `/skills/${name}.v${version}.yaml` : `/skills/${name}.yaml` });

async function replaceText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.equal(await vscode.workspace.applyEdit(edit), true);
}

describe('the skill editor (agent-memory:/skills/<name>.yaml)', function () {
  this.timeout(30_000);

  before(async () => {
    await api();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the skill as YAML with its provenance; saving writes the next version, expecting the version shown', async () => {
    await (await playbook()).skills.save(skillYaml('edited-in-editor'));
    const doc = await vscode.workspace.openTextDocument(skillDoc('edited-in-editor'));
    await vscode.window.showTextDocument(doc);
    assert.match(doc.getText(), /^# skill edited-in-editor · version 1 · /);
    assert.match(doc.getText(), /^name: edited-in-editor\nversion: 1\ndescription: Fix a flaky test/m);
    await until('the skill language', () => doc.languageId === 'agent-memory-skill');
    // Long descriptions and steps wrap, continuation lines indented under their item.
    assert.deepEqual(
      [
        vscode.workspace.getConfiguration('editor', doc).get('wordWrap'),
        vscode.workspace.getConfiguration('editor', doc).get('wrappingIndent'),
      ],
      ['on', 'indent'],
    );
    await replaceText(doc, doc.getText().replace('20 runs in a row pass', '50 runs in a row pass'));
    assert.equal(await doc.save(), true);
    const s = await (await playbook()).skills.read({ name: 'edited-in-editor' });
    assert.equal(s.version, 2);
    assert.deepEqual(s.data.success_checks, ['50 runs in a row pass']);
    await until('the header to name version 2', () => doc.getText().includes('edited-in-editor · version 2 · '));
    assert.equal(doc.isDirty, false);
  });

  it('refuses a document that does not validate, with the line and the reason; the editor stays dirty and nothing is stored', async () => {
    await (await playbook()).skills.save(skillYaml('refused-in-editor'));
    const uri = skillDoc('refused-in-editor');
    const doc = await vscode.workspace.openTextDocument(uri);
    const broken = doc.getText().replace('    expect: 20/20 runs pass\n', '');
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(broken))),
      /line \d+: steps\[1\]\.expect is missing/,
    );
    await vscode.window.showTextDocument(doc);
    await replaceText(doc, broken);
    assert.equal(await doc.save(), false);
    assert.equal(doc.isDirty, true);
    assert.equal((await (await playbook()).skills.read({ name: 'refused-in-editor' })).version, 1);
    // A rename is another skill, refused too.
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(skillYaml('renamed-in-editor')))),
      /renaming it to "renamed-in-editor"/,
    );
  });

  it('opens older versions read-only', async () => {
    const l = await playbook();
    await l.skills.save(skillYaml('versioned-skill'));
    await l.skills.save(skillYaml('versioned-skill', 'A second version of the playbook'));
    const v1 = skillDoc('versioned-skill', 1);
    assert.equal((await vscode.workspace.fs.stat(v1)).permissions, vscode.FilePermission.Readonly);
    assert.match((await vscode.workspace.openTextDocument(v1)).getText(), /An older version: read-only\./);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(v1, new TextEncoder().encode(skillYaml('versioned-skill')))),
      /read-only/,
    );
  });

  it('"New Skill" opens a template whose first save creates the skill, replaced by the skill\'s own document', async () => {
    await vscode.commands.executeCommand('agentMemory.newSkill');
    await until('the draft', () => vscode.window.activeTextEditor?.document.uri.path.startsWith('/new-skill/') === true);
    const doc = vscode.window.activeTextEditor!.document;
    assert.match(doc.getText(), /^name: my-new-skill$/m);
    await replaceText(doc, skillYaml('written-by-hand'));
    assert.equal(await doc.save(), true);
    assert.equal((await (await playbook()).skills.read({ name: 'written-by-hand' })).version, 1);
    await until(
      'the skill document in its place',
      () => vscode.window.activeTextEditor?.document.uri.path === '/skills/written-by-hand.yaml',
    );
  });
});
