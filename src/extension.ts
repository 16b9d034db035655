import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MemoryService } from './core/memoryService';
import { resolveAuthor } from './platform/author';
import { STORE_FOLDER } from './platform/storeLocation';
import { SqlJsStore } from './store/sqljs/sqljsStore';
import { registerHistoryCommands } from './vscode/editor/historyCommands';
import { type MemoryFileSystem, registerMemoryFileSystem } from './vscode/editor/memoryFileSystem';
import { type MemoriesTreeProvider, registerMemoriesView } from './vscode/memoriesView';
import { registerSearchCommand } from './vscode/searchCommand';
import { StoreChanges } from './vscode/storeChanges';
import { registerTools } from './vscode/tools';
import { registerMemoryCommands } from './vscode/view/memoryCommands';

/**
 * Composition root: reads settings, builds the store on first use, registers everything.
 * The store opens lazily so activation stays cheap.
 */
/** What activate() returns: the parts the extension-host tests look at. */
export interface AgentMemoryApi {
  memoriesView: MemoriesTreeProvider;
  memoryFiles: MemoryFileSystem;
}

export function activate(context: vscode.ExtensionContext): AgentMemoryApi {
  const log = vscode.window.createOutputChannel('Agent Memory', { log: true });
  context.subscriptions.push(log);

  const storeDir = (): string | undefined => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) return undefined;
    return path.resolve(folder, vscode.workspace.getConfiguration('agentMemory').get<string>('storePath') || STORE_FOLDER);
  };

  let service: Promise<MemoryService> | undefined;
  let store: SqlJsStore | undefined;
  const getService = (): Promise<MemoryService> => {
    service ??= (async () => {
      const dir = storeDir();
      if (!dir) throw new Error(vscode.l10n.t('Open a folder first: Agent Memory keeps its store in the workspace.'));
      const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      const wasm = path.join(context.extensionPath, 'dist', 'sql-wasm.wasm');
      store = await SqlJsStore.open({
        dir,
        wasmPath: fs.existsSync(wasm) ? wasm : undefined,
        onWarning: (w) => log.warn(w.message),
      });
      log.info(`store opened at ${dir}`);
      const author = vscode.workspace.getConfiguration('agentMemory').get<string>('author');
      return new MemoryService(store, { author: () => resolveAuthor(author, folder) });
    })();
    service.catch(() => (service = undefined));
    return service;
  };

  const changes = new StoreChanges(storeDir());
  context.subscriptions.push(changes);
  registerSearchCommand(context, getService, log);
  registerTools(context, getService);
  const memoryFiles = registerMemoryFileSystem(context, getService, changes);
  const memoriesView = registerMemoriesView(context, getService, changes, log);
  registerMemoryCommands(context, getService, memoriesView, changes, log);
  registerHistoryCommands(context, getService, changes, log);
  // Wait for a store that is still opening, so it is closed (and checkpointed) too.
  context.subscriptions.push({ dispose: () => void service?.then(() => store?.close(), () => undefined) });
  return { memoriesView, memoryFiles };
}

export function deactivate(): void {
  // Disposables in context.subscriptions close the store.
}
