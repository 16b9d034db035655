import * as vscode from 'vscode';
import { citationLabel, parseCitation } from '../../core/citations';
import type { MemoryService } from '../../core/memoryService';
import { formatMemoryDocument, type MemoryFields, parseMemoryDocument } from '../../core/memoryDocument';
import type { StoreChanges } from '../session/storeChanges';
import { NotFoundError } from '../../core/errors';
import { type MemoryPath, memoryUri, parseMemoryUri, SCHEME } from './memoryUris';
import { replaceDraftTab } from '../documents/draftTabs';
import { SaveProblems } from './saveProblems';

type Read = Awaited<ReturnType<MemoryService['read']>>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const TEMPLATE: MemoryFields = { description: '', tags: [], content: '' };

/**
 * Memories as documents (`agent-memory:/memories/<id>/<name>.md`, the name read from the
 * description; see memoryUris.ts): YAML front matter with the description and tags, then the
 * content. Saving the current version writes a new version through the same service the tools
 * use, so every rule (limits, tag rules, secrets) holds and an invalid save is refused with
 * the reason (SaveProblems: a notification and a mark on the line), storing nothing. Versions
 * (`…/<name>.v<N>.md`) and deleted memories are read-only. A draft (`agent-memory:/new/…`)
 * becomes a new memory on its first save and that memory from then on.
 *
 * A file's mtime is its version's changedAt, so VS Code's own "the file has changed on disk"
 * check catches a save over a version written elsewhere; the version the editor last read
 * is also sent as the expected version, which closes the gap between that check and the write.
 */
/** Context key: paths of the current-memory documents whose memory is at version 1 (see package.json's menus). */
const FIRST_VERSION_DOCS = 'agentMemory.firstVersionDocs';

export class MemoryFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Documents open in an editor (VS Code watches them): told when the store changes. */
  private readonly watched = new Map<string, vscode.Uri>();
  /** The version each current-memory document last showed. */
  private readonly shown = new Map<string, number>();
  /** The paths of the current-memory documents read, by id (one id may be open under an older or a readable path). */
  private readonly paths = new Map<string, Set<string>>();
  /** Drafts that were saved: their memory's id. */
  private readonly created = new Map<string, string>();
  /**
   * Documents saved and not read since: VS Code keeps the text it wrote, whose header still
   * names the version before the save. See stat() and didSave().
   */
  private readonly saved = new Set<string>();

  /** Drafts saved from an editor, waiting for the save to complete to be replaced by their memory. */
  private readonly toReplace = new Map<string, { id: string; description: string }>();
  private readonly subscription: vscode.Disposable;
  /** Why the last save of a document was refused, marked on its line. */
  private readonly problems = new SaveProblems();

  constructor(
    private readonly getService: () => Promise<MemoryService>,
    private readonly changes: StoreChanges,
  ) {
    this.subscription = vscode.Disposable.from(
      changes.onDidChange(() => this.changed.fire([...this.watched.values()].map((uri) => ({ type: vscode.FileChangeType.Changed, uri })))),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        this.didSave(doc.uri);
        const created = this.toReplace.get(doc.uri.toString());
        if (created === undefined) return;
        this.toReplace.delete(doc.uri.toString());
        void replaceDraftTab(doc.uri, memoryUri(created.id, undefined, created.description));
      }),
    );
  }

  dispose(): void {
    this.subscription.dispose();
    this.problems.dispose();
    this.changed.dispose();
  }

  /**
   * Records the version a current-memory document shows, and keeps the context key
   * FIRST_VERSION_DOCS (the paths of those at version 1) for the menus: Compare with Previous
   * is not offered where there is no previous version.
   */
  private show(id: string, version: number, path?: string): void {
    const wasFirst = this.shown.get(id) === 1;
    this.shown.set(id, version);
    const paths = this.paths.get(id) ?? this.paths.set(id, new Set()).get(id)!;
    const newPath = path !== undefined && !paths.has(path);
    if (path !== undefined) paths.add(path);
    if (wasFirst === (version === 1) && !(newPath && version === 1)) return;
    const first = [...this.shown].filter(([, v]) => v === 1).flatMap(([i]) => [...(this.paths.get(i) ?? [])]);
    void vscode.commands.executeCommand('setContext', FIRST_VERSION_DOCS, first);
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const key = uri.toString();
    this.watched.set(key, uri);
    return new vscode.Disposable(() => this.watched.delete(key));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // Folders, including a memory's own (`/memories/<id>`, which holds its readably named documents) and a draft's.
    if (uri.path === '/' || uri.path === '/memories' || uri.path === '/new' || /^\/(memories|new)\/[^/.]+$/.test(uri.path))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const target = this.target(uri);
    if (target.kind === 'draft')
      return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: encoder.encode(this.render(target)).byteLength };
    const m = await this.load(uri, target);
    // Right after a save VS Code records this stat with the text it wrote. Were it the saved
    // version's own mtime, VS Code would take that text as current and never read the new
    // header; one millisecond less makes the change event of didSave() reload the document.
    const mtime = Date.parse(m.changedAt) - (this.saved.has(uri.toString()) ? 1 : 0);
    return {
      type: vscode.FileType.File,
      ctime: mtime,
      mtime,
      size: encoder.encode(this.render(target, m)).byteLength,
      ...(target.kind === 'version' || m.deletedAt ? { permissions: vscode.FilePermission.Readonly } : {}),
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.target(uri);
    if (target.kind === 'draft') return encoder.encode(this.render(target));
    this.saved.delete(uri.toString());
    const m = await this.load(uri, target);
    if (target.kind === 'current') this.show(m.id, m.version, uri.path);
    return encoder.encode(this.render(target, m));
  }

  async writeFile(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
    const target = this.target(uri);
    if (target.kind === 'version') {
      throw vscode.FileSystemError.NoPermissions(
        vscode.l10n.t('Older versions are read-only; edit the current version, or restore this one from the history.'),
      );
    }
    const text = decoder.decode(bytes);
    try {
      await this.save(target, text, uri);
    } catch (err) {
      throw this.problems.refused(uri, text, err);
    }
    this.problems.saved(uri);
  }

  /** Writes what a document says: a new memory from a draft, else a version when something changed. */
  private async save(target: MemoryPath, text: string, uri: vscode.Uri): Promise<void> {
    const { citations, ...fields } = parseMemoryDocument(text);
    const cited = citations?.map(parseCitation);
    const service = await this.getService();
    if (target.kind === 'draft') {
      const { id } = await service.create({ ...fields, ...(cited?.length ? { citations: cited } : {}) });
      this.created.set(target.name, id);
      this.shown.set(id, 1);
      // Once VS Code has finished saving the draft's editor, the memory's own document takes its place.
      this.toReplace.set(uri.toString(), { id, description: fields.description });
    } else if (target.kind === 'current') {
      const current = await service.read({ id: target.id });
      if (current.deletedAt)
        throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('This memory was deleted; restore it before editing.'));
      const edits = {
        ...(fields.description !== current.description ? { description: fields.description } : {}),
        ...(fields.tags.join('\n') !== current.tags.join('\n') ? { tags: fields.tags } : {}),
        // The document ends the content with one newline; the stored text may not.
        ...(fields.content !== current.content.trimEnd() ? { content: fields.content } : {}),
        // Citations as the document lists them, when the person changed the list; else the memory's own are anchored again.
        ...((citations ?? []).join('\n') !== (current.citations ?? []).map(citationLabel).join('\n') ? { citations: cited ?? [] } : {}),
      };
      if (Object.keys(edits).length === 0) return;
      const out = await service.edit({ id: target.id, expectedVersion: this.shown.get(target.id) ?? current.version, ...edits });
      this.show(target.id, out.version, uri.path);
    }
    this.saved.add(uri.toString());
    this.changes.fireSoon(0);
  }

  /** VS Code finished saving a document: it reads it again, with the new version's header. */
  private didSave(uri: vscode.Uri): void {
    if (this.saved.delete(uri.toString())) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Memories are created with "Agent Memory: New Memory".'));
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions(
      vscode.l10n.t('Delete a memory from the Memories view: it stays in the history and can be restored.'),
    );
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('A memory cannot be renamed; edit its description instead.'));
  }

  /** What `uri` names; drafts that were saved stand for their memory. */
  private target(uri: vscode.Uri): MemoryPath {
    const target = parseMemoryUri(uri);
    if (!target) throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('Not a memory document: {0}', uri.toString()));
    const id = target.kind === 'draft' ? this.created.get(target.name) : undefined;
    return id ? { kind: 'current', id } : target;
  }

  private async load(uri: vscode.Uri, target: Exclude<MemoryPath, { kind: 'draft' }>): Promise<Read> {
    const service = await this.getService();
    try {
      return await service.read(target.kind === 'version' ? { id: target.id, version: target.version } : { id: target.id });
    } catch (err) {
      // VS Code treats a document whose file is gone differently from one it failed to read.
      if (err instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(uri);
      throw err;
    }
  }

  private render(target: MemoryPath, m?: Read): string {
    if (!m) {
      return formatMemoryDocument(TEMPLATE, [
        vscode.l10n.t('A new memory. Describe it in one sentence (what an agent needs to decide whether to read it),'),
        vscode.l10n.t('give it 1–12 tags, write the content below the closing line, then save to create it.'),
      ]);
    }
    const provenance = `${SCHEME} ${m.id} · version ${m.version} · ${m.changedAt} · ${m.author}`;
    const hint = m.deletedAt
      ? vscode.l10n.t('Deleted at {0}: read-only. Restore it from its history to edit it.', m.deletedAt)
      : target.kind === 'version'
        ? vscode.l10n.t('An older version: read-only.')
        : vscode.l10n.t(
            'Saving writes version {0}. Only the description, the tags, the citations and the content are saved.',
            m.version + 1,
          );
    // What the check found, for each citation that does not hold any more (the view marks the memory stale).
    const stale = (m.citations ?? []).filter((c) => c.status !== 'fresh' && c.status !== 'moved');
    const staleLines = stale.length
      ? [
          vscode.l10n.t('Stale: the code it cites has changed. Check it, then save to anchor the citations again.'),
          ...stale.map((c) => c.detail),
        ]
      : [];
    return formatMemoryDocument({ ...m, citations: m.citations?.map(citationLabel) }, [provenance, hint, ...staleLines]);
  }
}

/**
 * The language of memory documents: Markdown (its grammar, front matter included), under an id
 * of its own so that package.json can turn auto-save off for them alone. Every save writes a
 * version, and a browser VS Code auto-saves after a second's pause by default: a memory would
 * be saved half-typed, again and again.
 */
export const MEMORY_LANGUAGE = 'agent-memory';
