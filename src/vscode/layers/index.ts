import * as vscode from 'vscode';
import type { StoreChanges } from '../storeChanges';
import type { PlaybookAccess } from './composePlaybook';
import { registerFactCommands } from './factCommands';
import { type FactsTreeProvider, registerFactsView } from './factsView';
import { type ForgettingScheduler, registerForgetting } from './forgetting';
import { registerPendingCommands } from './pendingCommands';
import { type PendingTreeProvider, registerPendingView } from './pendingView';
import { registerReadOnlyDocs } from './readOnlyDocs';
import { registerSkillCommands } from './skillCommands';
import { registerSkillsView, type SkillsTreeProvider } from './skillsView';

/** The views and the scheduler of the other tiers, for the composition root and the tests. */
export interface PlaybookViews {
  facts: FactsTreeProvider;
  skills: SkillsTreeProvider;
  pending: PendingTreeProvider;
  forgetting: ForgettingScheduler;
  /** Reloads the three views (Refresh). */
  refresh(): void;
}

/**
 * Registers the Facts, Skills and Pending views with their commands, the read-only documents
 * they open (histories, proposal previews, the lifecycle report) and the forgetting run.
 */
export function registerPlaybookViews(context: vscode.ExtensionContext, access: PlaybookAccess, changes: StoreChanges, log: vscode.LogOutputChannel): PlaybookViews {
  const docs = registerReadOnlyDocs(context, changes);
  const facts = registerFactsView(context, access.getPlaybook, changes.onDidChange, log);
  const skills = registerSkillsView(context, access.getPlaybook, changes.onDidChange, log);
  const pending = registerPendingView(context, access.getPlaybook, changes.onDidChange, log);
  registerFactCommands(context, access, docs, changes, log);
  registerSkillCommands(context, access, changes, log);
  registerPendingCommands(context, access, docs, changes, log);
  const forgetting = registerForgetting(context, access.getPlaybook, docs, changes, log);
  return {
    facts, skills, pending, forgetting,
    refresh: () => {
      facts.refresh();
      skills.refresh();
      pending.refresh();
    },
  };
}
