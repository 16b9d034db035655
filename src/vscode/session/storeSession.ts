import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MemoryService } from '../../core/memoryService';
import type { MemoryUpkeep } from '../../core/memoryUpkeep';
import type { Playbook } from '../../core/playbook/playbook';
import type { StoreWarning } from '../../core/ports/store';
import type { Services } from '../../core/services';
import { resolveAuthor } from '../../platform/author';
import { openStore, type StoreSpec } from '../../platform/openStore';
import { STORE_FOLDER } from '../../platform/storeLocation';
import { buildWindowServices } from './windowServices';
import { configuredBackend, passwordKey, settingsProblem, teamDatabaseSettings, teamStoreSpec } from '../team/teamSettings';

/** How long a failure to open is answered without a new attempt (unless the settings change or Refresh is run). */
const RETRY_AFTER_MS = 30_000;

/** What the status bar and the tests see of the store. */
export type StoreState =
  | { kind: 'closed' }
  | { kind: 'opening'; where: string }
  | { kind: 'open'; backend: 'workspace' | 'postgres'; where: string }
  | { kind: 'failed'; backend: 'workspace' | 'postgres'; message: string };

/**
 * The store the settings choose (the workspace folder's, or the team database), opened on
 * first use and reopened when the settings change. Every part of the extension reaches the
 * store through `getService` (memories) or `getPlaybook` (episodes, facts, skills, proposals,
 * lifecycle), so the tools, views and editor never know which backend it is.
 * A store that cannot open is a state with a message (the status bar and the views show it),
 * never a crash; the next use tries again.
 */
export class StoreSession implements vscode.Disposable {
  private opened: Promise<Services> | undefined;
  /** The settings the open store was opened with (see settingsKey). */
  private openedWith: string | undefined;
  /**
   * The last failure to open, with the settings it happened with. It is answered again
   * without a new attempt for RETRY_AFTER_MS, or until the settings change or someone asks to
   * retry: a view that refreshes on failure must not reconnect in a loop.
   */
  private failure: { settings: string; error: Error; at: number } | undefined;
  /** Counts opens, so an open that a reopen overtook cannot report its state. */
  private generation = 0;
  private current: StoreState = { kind: 'closed' };
  private readonly stateChanged = new vscode.EventEmitter<StoreState>();
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get state(): StoreState {
    return this.current;
  }

  /** The workspace store's folder, when there is a workspace folder. */
  storeDir(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) return undefined;
    return path.resolve(folder, vscode.workspace.getConfiguration('agentMemory').get<string>('storePath') || STORE_FOLDER);
  }

  /** The services over the open store (one instance per open, so search-read counts survive). */
  getServices = (): Promise<Services> => this.get();

  getService = (): Promise<MemoryService> => this.get().then((o) => o.memories);

  /** People's upkeep of the same memories (duplicates, merge, the citation check). */
  getUpkeep = (): Promise<MemoryUpkeep> => this.get().then((o) => o.upkeep);

  /** The playbook over the same store and memory service (one instance per open, so search-read counts survive). */
  getPlaybook = (): Promise<Playbook> => this.get().then((o) => o.playbook);

  /** Who this window writes as (resolved once per open). */
  getAuthor = (): Promise<string> => this.get().then((o) => o.author());

  private get(): Promise<Services> {
    const f = this.failure;
    if (f && f.settings === this.settingsKey() && Date.now() - f.at < RETRY_AFTER_MS) return Promise.reject(f.error);
    this.failure = undefined;
    if (!this.opened) {
      const gen = ++this.generation;
      this.openedWith = this.settingsKey();
      const opening = this.open(gen);
      this.opened = opening;
      opening.catch((err: Error) => {
        if (this.opened !== opening) return;
        this.opened = undefined;
        this.failure = { settings: this.openedWith ?? '', error: err, at: Date.now() };
        this.setState(gen, { kind: 'failed', backend: configuredBackend(), message: err.message });
        this.log.error(`the memory store could not be opened: ${err.message}`);
      });
    }
    return this.opened;
  }

  /** Forgets the last failure, so the next use tries to open the store again (Refresh, Connect). */
  retry(): void {
    this.failure = undefined;
  }

  /**
   * Reopens when the settings now name another store than the open one. A reopen closes the
   * store under any operation still running on it, so it is not done for unrelated changes.
   */
  async reopenIfChanged(): Promise<void> {
    if (this.opened && this.openedWith === this.settingsKey()) return;
    await this.reopen();
  }

  /** Closes the open store (waiting for one still opening); the next use opens the one the settings name now. */
  async reopen(): Promise<void> {
    this.failure = undefined;
    const closing = this.opened;
    this.opened = undefined;
    this.setState(++this.generation, { kind: 'closed' });
    await closing
      ?.then(
        (o) => o.store.close(),
        () => undefined,
      )
      .catch((err: Error) => this.log.warn(`closing the store failed: ${err.message}`));
  }

  dispose(): void {
    void this.reopen();
    this.stateChanged.dispose();
  }

  private async open(gen: number): Promise<Services> {
    const onWarning = (w: StoreWarning) => this.log.warn(w.message);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const backend = configuredBackend();
    let spec: StoreSpec;
    if (backend === 'postgres') {
      const db = teamDatabaseSettings();
      const problem = settingsProblem(db);
      if (problem) throw new Error(problem);
      this.setState(gen, { kind: 'opening', where: db.url });
      spec = teamStoreSpec(db, await this.context.secrets.get(passwordKey(db.url)));
    } else {
      const dir = this.storeDir();
      if (!dir) throw new Error(vscode.l10n.t('Open a folder first: Agent Memory keeps its store in the workspace.'));
      this.setState(gen, { kind: 'opening', where: dir });
      spec = { kind: 'dir', dir };
    }
    // A window serves many searches: a team database's are ranked in a local index.
    const store = await openStore(spec, { onWarning, localIndex: 'background' });
    this.setState(gen, { kind: 'open', backend, where: spec.kind === 'dir' ? spec.dir : store.location });
    this.log.info(`store opened: ${store.location}`);
    const setting = vscode.workspace.getConfiguration('agentMemory').get<string>('author');
    return buildWindowServices(store, () => resolveAuthor(setting, folder ?? process.cwd()), this.storeDir(), folder);
  }

  /** Everything that decides which store opens. */
  private settingsKey(): string {
    return JSON.stringify([configuredBackend(), this.storeDir(), teamDatabaseSettings()]);
  }

  private setState(gen: number, state: StoreState): void {
    if (gen !== this.generation) return;
    this.current = state;
    this.stateChanged.fire(state);
  }
}
