import * as vscode from 'vscode';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { Playbook } from '../../core/playbook/playbook';
import { SkillService, skillDocument } from '../../core/playbook/skillService';
import type { StoreChanges } from '../session/storeChanges';
import { parseSkillUri, type SkillPath, skillUri } from './skillUris';
import { replaceDraftTab } from '../documents/draftTabs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What New Skill opens: every field a skill has, to be filled in; saving it as is is refused with the reason. */
const TEMPLATE = `# A new skill: fill in every field, then save to create it. A document that does not
# validate is refused with the line and the reason, and nothing is stored.
name: my-new-skill
description: What the skill does and when to use it, in one or two sentences.
trigger:
  - a phrase of a task this skill is for
preconditions: []
tools: []
steps:
  - do: What to do in this step
    tool: the command or tool used (or leave this key out)
    expect: the observable output that shows the step worked
success_checks:
  - what shows the whole task succeeded
failure_handling: []
`;

/**
 * Skills as YAML documents on the extension's scheme (`agent-memory:/skills/<name>.yaml`), the
 * twin of the memory documents (memoryFileSystem.ts). Saving the current version validates the
 * document (a bad one is refused with its line and reason: VS Code keeps the editor dirty and
 * nothing is stored) and writes the next version, expecting the version the document showed.
 * Versions (`…/<name>.v<N>.yaml`) are read-only; a draft (`agent-memory:/new-skill/…`) becomes
 * a skill on its first save and that skill's document from then on. Same mtime handling as
 * memory documents: a version's mtime is its changedAt, one millisecond less right after a save
 * so that VS Code reads the new header.
 */
export class SkillFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly watched = new Map<string, vscode.Uri>();
  /** The version each skill document last showed. */
  private readonly shown = new Map<string, number>();
  /** Drafts that were saved: their skill's name. */
  private readonly created = new Map<string, string>();
  private readonly saved = new Set<string>();
  private readonly toReplace = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly changes: StoreChanges,
  ) {
    this.subscription = vscode.Disposable.from(
      changes.onDidChange(() => this.changed.fire([...this.watched.values()].map((uri) => ({ type: vscode.FileChangeType.Changed, uri })))),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (this.saved.delete(doc.uri.toString())) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: doc.uri }]);
        const name = this.toReplace.get(doc.uri.toString());
        if (name === undefined) return;
        this.toReplace.delete(doc.uri.toString());
        void replaceDraftTab(doc.uri, skillUri(name));
      }),
    );
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const key = uri.toString();
    this.watched.set(key, uri);
    return new vscode.Disposable(() => this.watched.delete(key));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (uri.path === '/skills' || uri.path === '/new-skill' || /^\/new-skill\/[^/.]+$/.test(uri.path))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const target = this.target(uri);
    if (target.kind === 'draft') return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: encoder.encode(TEMPLATE).byteLength };
    const { text, changedAt } = await this.load(uri, target);
    const mtime = Date.parse(changedAt) - (this.saved.has(uri.toString()) ? 1 : 0);
    return {
      type: vscode.FileType.File,
      ctime: mtime,
      mtime,
      size: encoder.encode(text).byteLength,
      ...(target.kind === 'version' ? { permissions: vscode.FilePermission.Readonly } : {}),
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.target(uri);
    if (target.kind === 'draft') return encoder.encode(TEMPLATE);
    this.saved.delete(uri.toString());
    const { text, version } = await this.load(uri, target);
    if (target.kind === 'current') this.shown.set(target.name, version);
    return encoder.encode(text);
  }

  async writeFile(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
    const target = this.target(uri);
    if (target.kind === 'version')
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Older versions of a skill are read-only; edit its current version.'));
    const text = decoder.decode(bytes);
    // Validated before anything is read or written: the refusal names the line and the reason.
    const data = SkillService.validate(text);
    const skills = (await this.getPlaybook()).skills;
    if (target.kind === 'draft') {
      const existing = await skills
        .readVersion({ name: data.name })
        .catch((err: unknown) => (err instanceof NotFoundError ? undefined : Promise.reject(err)));
      if (existing)
        throw new ValidationError(
          'name',
          `a skill named "${data.name}" exists (version ${existing.version}); open it from the Skills view to change it, or choose another name`,
        );
      const out = await skills.save(text);
      this.created.set(target.draft, out.name);
      this.shown.set(out.name, out.version);
      this.toReplace.set(uri.toString(), out.name);
    } else {
      if (data.name !== target.name) {
        throw new ValidationError(
          'name',
          `this document is the skill "${target.name}"; renaming it to "${data.name}" would be another skill: create that one with New Skill`,
        );
      }
      const expectedVersion = this.shown.get(target.name) ?? (await skills.readVersion({ name: target.name })).version;
      const out = await skills.save(text, { expectedVersion });
      if (!out.changed) return;
      this.shown.set(target.name, out.version);
    }
    this.saved.add(uri.toString());
    this.changes.fireSoon(0);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Skills are created with "Agent Memory: New Skill".'));
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Delete a skill from the Skills view: it stays in the history.'));
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('A skill cannot be renamed; a new name is a new skill.'));
  }

  /** What `uri` names; drafts that were saved stand for their skill. */
  private target(uri: vscode.Uri): SkillPath {
    const target = parseSkillUri(uri);
    if (!target) throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('Not a skill document: {0}', uri.toString()));
    const name = target.kind === 'draft' ? this.created.get(target.draft) : undefined;
    return name ? { kind: 'current', name } : target;
  }

  /** The document of a version: the YAML with its provenance and what saving does. */
  private async load(
    uri: vscode.Uri,
    target: Exclude<SkillPath, { kind: 'draft' }>,
  ): Promise<{ text: string; version: number; changedAt: string }> {
    const skills = (await this.getPlaybook()).skills;
    let s;
    try {
      s = await skills.readVersion(target.kind === 'version' ? { name: target.name, version: target.version } : { name: target.name });
    } catch (err) {
      if (err instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(uri);
      throw err;
    }
    const hint =
      target.kind === 'version'
        ? vscode.l10n.t('An older version: read-only.')
        : vscode.l10n.t('Saving writes version {0}; "version" is informational.', s.version + 1);
    const text = skillDocument(s, [hint]);
    return { text, version: s.version, changedAt: s.changedAt };
  }
}
