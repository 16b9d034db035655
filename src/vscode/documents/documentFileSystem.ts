import * as vscode from 'vscode';
import type { MemoryService } from '../../core/memoryService';
import type { PlaybookAccess } from '../session/windowServices';
import type { StoreChanges } from '../session/storeChanges';
import { MEMORY_LANGUAGE, MemoryFileSystem } from '../memories/memoryFileSystem';
import { SCHEME } from '../memories/memoryUris';
import { SkillFileSystem } from '../skills/skillFileSystem';
import { isSkillPath } from '../skills/skillUris';

/**
 * The language of skill documents: YAML (its grammar), under an id of its own for the same
 * reason as memory documents: package.json turns auto-save off for it, since every save of a
 * skill is a version.
 */
const SKILL_LANGUAGE = 'agent-memory-skill';

/**
 * One scheme, two kinds of document: `/skills/…` and `/new-skill/…` are skills, everything
 * else memories. VS Code takes one provider per scheme, so this one hands each call to the
 * provider of the path.
 */
class DocumentFileSystem implements vscode.FileSystemProvider {
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;

  constructor(
    private readonly memories: MemoryFileSystem,
    private readonly skills: SkillFileSystem,
  ) {
    this.onDidChangeFile = (listener, thisArgs, disposables) =>
      vscode.Disposable.from(
        memories.onDidChangeFile(listener, thisArgs, disposables),
        skills.onDidChangeFile(listener, thisArgs, disposables),
      );
  }

  private of(uri: vscode.Uri): vscode.FileSystemProvider {
    return isSkillPath(uri) ? this.skills : this.memories;
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    return this.of(uri).watch(uri, options);
  }

  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.of(uri).stat(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.of(uri).readDirectory(uri);
  }

  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.of(uri).createDirectory(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.of(uri).readFile(uri);
  }

  writeFile(
    uri: vscode.Uri,
    content: Uint8Array,
    options: { readonly create: boolean; readonly overwrite: boolean },
  ): void | Thenable<void> {
    return this.of(uri).writeFile(uri, content, options);
  }

  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.of(uri).delete(uri, options);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.of(oldUri).rename(oldUri, newUri, options);
  }
}

/** Registers the memory and skill documents on the extension's scheme, and gives each its language. */
export function registerDocumentFileSystems(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  access: PlaybookAccess,
  changes: StoreChanges,
): { memoryFiles: MemoryFileSystem; skillFiles: SkillFileSystem } {
  const memoryFiles = new MemoryFileSystem(getService, changes);
  const skillFiles = new SkillFileSystem(access.getPlaybook, changes);
  const adopt = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme !== SCHEME) return;
    const language = isSkillPath(doc.uri) ? SKILL_LANGUAGE : MEMORY_LANGUAGE;
    if (doc.languageId !== language) void vscode.languages.setTextDocumentLanguage(doc, language);
  };
  vscode.workspace.textDocuments.forEach(adopt);
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(SCHEME, new DocumentFileSystem(memoryFiles, skillFiles), { isCaseSensitive: true }),
    memoryFiles,
    skillFiles,
    vscode.workspace.onDidOpenTextDocument(adopt),
  );
  return { memoryFiles, skillFiles };
}
