// First: zod's settings before any schema is built (see the module).
import './vscode/shared/zodConfig';
import * as vscode from 'vscode';
import { registerDocumentFileSystems } from './vscode/documents/documentFileSystem';
import { registerHistoryCommands } from './vscode/memories/historyCommands';
import type { MemoryFileSystem } from './vscode/memories/memoryFileSystem';
import type { SkillFileSystem } from './vscode/skills/skillFileSystem';
import { type PlaybookViews, registerPlaybookViews } from './vscode/playbookViews';
import { type MemoriesTreeProvider, registerMemoriesView } from './vscode/memories/memoriesView';
import { registerDuplicatesCommand } from './vscode/memories/duplicatesCommand';
import { registerSearchCommand } from './vscode/memories/searchCommand';
import { StoreChanges } from './vscode/session/storeChanges';
import { StoreSession } from './vscode/session/storeSession';
import { registerStoreStatus } from './vscode/session/statusBar';
import { registerTeamCommands } from './vscode/team/teamCommands';
import { affectsStore } from './vscode/team/teamSettings';
import { registerTools } from './vscode/tools';
import { setReviewPolicy } from './vscode/tools/toolSupport';
import { policyRequiresReview } from './vscode/session/windowServices';
import { registerMemoryCommands } from './vscode/memories/memoryCommands';
import { registerGetStartedCommand, registerInstructionsCommand } from './vscode/instructions/instructionsCommand';

/** What activate() returns: the parts the extension-host tests look at. */
export interface AgentMemoryApi {
  memoriesView: MemoriesTreeProvider;
  memoryFiles: MemoryFileSystem;
  skillFiles: SkillFileSystem;
  /** The Facts, Skills and Pending views and the forgetting scheduler. */
  playbook: PlaybookViews;
  session: StoreSession;
  status: vscode.StatusBarItem;
}

/** How often the views look for other clients' writes to a team database (a workspace store is watched instead). */
const TEAM_POLL_MS = 20_000;

/**
 * Composition root: reads settings, registers everything, and leaves the store closed until
 * the first command, view or tool needs it, so activation stays cheap.
 */
export function activate(context: vscode.ExtensionContext): AgentMemoryApi {
  const log = vscode.window.createOutputChannel('Agent Memory', { log: true });
  const session = new StoreSession(context, log);
  active = session;
  const changes = new StoreChanges(session.storeDir());
  context.subscriptions.push(log, changes);
  const getService = session.getService;
  const access = { getPlaybook: session.getPlaybook, getAuthor: session.getAuthor };

  registerTools(context, session.getServices);
  // policy.yaml's review: { agent_writes: required } outranks agentMemory.reviewWrites = never.
  setReviewPolicy(() => policyRequiresReview(session.storeDir()));
  const { memoryFiles, skillFiles } = registerDocumentFileSystems(context, getService, access, changes);
  const playbook = registerPlaybookViews(context, access, changes, log);
  // Refresh (any view's toolbar) retries a store that failed to open and reloads every view.
  const memoriesView = registerMemoriesView(context, getService, session.getUpkeep, changes, log, () => {
    session.retry();
    playbook.refresh();
  });
  registerSearchCommand(context, getService, memoriesView, log);
  registerMemoryCommands(context, getService, memoriesView, changes, log);
  registerHistoryCommands(context, getService, changes, log);
  registerDuplicatesCommand(context, getService, session.getUpkeep, changes, log);
  registerTeamCommands(context, session, log);
  registerInstructionsCommand(context, log);
  registerGetStartedCommand(context);
  const status = registerStoreStatus(context, session);

  // Other clients of a team database write without a file to watch: poll for the newest change
  // (of memories; of proposals and skills; of facts, by how many there are in each status).
  let polling: vscode.Disposable | undefined;
  const fingerprint = async () => {
    const [service, l] = await Promise.all([getService(), session.getPlaybook()]);
    const records = l.store.records;
    const newest = (kind: 'proposal' | 'skill') => records.query({ kind, limit: 1 }).then(([r]) => [r?.id, r?.changedAt]);
    const facts = Promise.all(['active', 'disputed', 'retracted', 'expired'].map((s) => records.count({ kind: 'fact', status: [s] })));
    const [live, deleted, ...rest] = await Promise.all([
      service.list({ limit: 1 }),
      service.list({ deleted: true, limit: 1 }),
      newest('proposal'),
      newest('skill'),
      facts,
    ]);
    return JSON.stringify([live.items[0]?.id, live.items[0]?.changedAt, deleted.items[0]?.id, deleted.items[0]?.changedAt, rest]);
  };
  let reopenTimer: NodeJS.Timeout | undefined;
  context.subscriptions.push(
    session.onDidChangeState((state) => {
      polling?.dispose();
      polling = state.kind === 'open' && state.backend === 'postgres' ? changes.poll(fingerprint, TEAM_POLL_MS) : undefined;
      if (state.kind === 'open') {
        playbook.forgetting.storeOpened();
        playbook.pending.refresh(); // the badge, while the view is closed
      }
      if (state.kind === 'failed') {
        memoriesView.refresh();
        playbook.refresh();
      }
    }),
    // Several settings change at once when a team database is connected: reopen once.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsStore(e)) return;
      clearTimeout(reopenTimer);
      reopenTimer = setTimeout(() => {
        changes.watch(session.storeDir());
        void session.reopenIfChanged().then(() => changes.fireSoon(0));
      }, 200);
    }),
    {
      dispose: () => {
        clearTimeout(reopenTimer);
        polling?.dispose();
      },
    },
    // Closes (and checkpoints) the store on deactivation, waiting for one still opening.
    session,
  );
  return { memoriesView, memoryFiles, skillFiles, playbook, session, status };
}

/** The session of the running extension, so deactivate can wait for the store to close. */
let active: StoreSession | undefined;

/** Returns the closing of the store (a checkpoint, the lock released), which VS Code waits for. */
export function deactivate(): Promise<void> | undefined {
  const session = active;
  active = undefined;
  return session?.reopen();
}
