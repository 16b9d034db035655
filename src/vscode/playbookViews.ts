import type * as vscode from 'vscode';
import type { StoreChanges } from './session/storeChanges';
import type { PlaybookAccess } from './session/windowServices';
import { registerEpisodeCommands } from './episodes/episodeCommands';
import { type EpisodesTreeProvider, registerEpisodesView } from './episodes/episodesView';
import { registerFactCommands } from './facts/factCommands';
import { type FactsTreeProvider, registerFactsView } from './facts/factsView';
import { type ForgettingScheduler, registerForgetting } from './lifecycle/forgetting';
import { registerPendingCommands } from './pending/pendingCommands';
import { type PendingTreeProvider, registerPendingView } from './pending/pendingView';
import { registerReadOnlyDocs } from './documents/readOnlyDocs';
import { registerSkillCommands } from './skills/skillCommands';
import { registerSkillsView, type SkillsTreeProvider } from './skills/skillsView';

/** The views and the scheduler of the other tiers, for the composition root and the tests. */
export interface PlaybookViews {
  episodes: EpisodesTreeProvider;
  facts: FactsTreeProvider;
  skills: SkillsTreeProvider;
  pending: PendingTreeProvider;
  forgetting: ForgettingScheduler;
  /** Reloads the four views (Refresh). */
  refresh(): void;
}

/**
 * Registers the Episodes, Facts, Skills and Pending views with their commands, the read-only
 * documents they open (episodes, histories, proposal previews, the lifecycle report) and the
 * forgetting run.
 */
export function registerPlaybookViews(
  context: vscode.ExtensionContext,
  access: PlaybookAccess,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): PlaybookViews {
  const docs = registerReadOnlyDocs(context, changes, log);
  const episodes = registerEpisodesView(context, access.getPlaybook, changes.onDidChange, log);
  const facts = registerFactsView(context, access.getPlaybook, changes.onDidChange, log);
  const skills = registerSkillsView(context, access.getPlaybook, changes.onDidChange, log);
  const pending = registerPendingView(context, access.getPlaybook, changes.onDidChange, log);
  registerEpisodeCommands(context, access, docs, episodes, log);
  registerFactCommands(context, access, docs, changes, log);
  registerSkillCommands(context, access, changes, log);
  registerPendingCommands(context, access, docs, changes, log);
  const forgetting = registerForgetting(context, access.getPlaybook, docs, changes, log);
  return {
    episodes,
    facts,
    skills,
    pending,
    forgetting,
    refresh: () => {
      episodes.refresh();
      facts.refresh();
      skills.refresh();
      pending.refresh();
    },
  };
}
