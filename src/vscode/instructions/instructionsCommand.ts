import * as vscode from 'vscode';
import { INSTRUCTION_TARGETS, type InstructionTarget, type MergeOutcome } from '../../core/agentInstructions';
import { type InstructionsFileResult, writeInstructionsFiles } from '../../platform/instructionsFiles';

/** What "Add Agent Instructions" may be given instead of asking (scripts and tests). */
export interface AddInstructionsArgs {
  targets?: InstructionTarget[];
  /** The workspace folder; asked when the window has several. */
  folder?: vscode.Uri;
  /** Open the first file written (default true). */
  open?: boolean;
}

/** Set while a workspace folder has Copilot's instructions file: the copy the extension contributes (package.json chatInstructions) then stays out, so a model is not told twice. */
export const WORKSPACE_INSTRUCTIONS_KEY = 'agentMemory.workspaceInstructions';
const COPILOT_FILE = INSTRUCTION_TARGETS.copilot.file;

/**
 * "Agent Memory: Add Agent Instructions": asks which files (Copilot's preselected), writes them
 * into the workspace folder through the same module as `agent-memory init --instructions`, and
 * opens the first. Also keeps WORKSPACE_INSTRUCTIONS_KEY true while the Copilot file exists.
 */
export function registerInstructionsCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  // The folders too: deleting .github (or .github/instructions) reports the folder, not the file in it.
  const watcher = vscode.workspace.createFileSystemWatcher(
    '**/{.github,.github/instructions,.github/instructions/agent-memory.instructions.md}',
  );
  const update = () => void updateWorkspaceInstructionsKey().catch((err: Error) => log.error(err));
  update();
  context.subscriptions.push(
    watcher,
    watcher.onDidCreate(update),
    watcher.onDidDelete(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.commands.registerCommand('agentMemory.addInstructions', async (args?: AddInstructionsArgs) => {
      try {
        const results = await addInstructions(args ?? {});
        if (results) await updateWorkspaceInstructionsKey();
        return results;
      } catch (err) {
        log.error(err as Error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
        return undefined;
      }
    }),
  );
}

async function updateWorkspaceInstructionsKey(): Promise<void> {
  const found = await Promise.all(
    (vscode.workspace.workspaceFolders ?? []).map((f) =>
      vscode.workspace.fs.stat(vscode.Uri.joinPath(f.uri, COPILOT_FILE)).then(
        () => true,
        () => false,
      ),
    ),
  );
  await vscode.commands.executeCommand('setContext', WORKSPACE_INSTRUCTIONS_KEY, found.includes(true));
}

/** Returns what was written, or undefined when the person cancelled. */
async function addInstructions(args: AddInstructionsArgs): Promise<InstructionsFileResult[] | undefined> {
  const folder = args.folder ?? (await pickFolder());
  if (!folder) return undefined;
  if (folder.scheme !== 'file') {
    throw new Error(vscode.l10n.t('the agent instructions are written to a folder on disk; {0} is not one', folder.toString()));
  }
  const targets = args.targets ?? (await pickTargets());
  if (!targets?.length) return undefined;
  const results = writeInstructionsFiles(folder.fsPath, targets);
  const words: Record<MergeOutcome, string> = {
    created: vscode.l10n.t('created'),
    added: vscode.l10n.t('instructions appended'),
    updated: vscode.l10n.t('instructions updated'),
    unchanged: vscode.l10n.t('already up to date'),
  };
  const summary = results.map((r) => `${INSTRUCTION_TARGETS[r.target].file}: ${words[r.outcome]}`).join('; ');
  void vscode.window.showInformationMessage(
    vscode.l10n.t("Agent Memory: {0}. Commit the files so every teammate's agent reads them.", summary),
  );
  if (args.open !== false) await vscode.window.showTextDocument(vscode.Uri.file(results[0]!.file), { preview: false });
  return results;
}

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new Error(vscode.l10n.t('open a folder first: the agent instructions are files in the workspace'));
  if (folders.length === 1) return folders[0]!.uri;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which folder do the agent instructions go in?') }))
    ?.uri;
}

async function pickTargets(): Promise<InstructionTarget[] | undefined> {
  type Item = vscode.QuickPickItem & { target: InstructionTarget };
  const items: Item[] = [
    { target: 'copilot', label: 'GitHub Copilot', description: INSTRUCTION_TARGETS.copilot.file, picked: true },
    { target: 'agents', label: 'AGENTS.md', description: vscode.l10n.t('Codex, Copilot coding agent and other agents') },
    { target: 'claude', label: 'CLAUDE.md', description: vscode.l10n.t('Claude Code') },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Add Agent Instructions'),
    placeHolder: vscode.l10n.t('Which files should tell agents to consult and update the team memory? Your own text in them is kept.'),
  });
  return picked?.map((i) => i.target);
}

/** The walkthrough of package.json (contributes.walkthroughs), as `workbench.action.openWalkthrough` names it. */
export const WALKTHROUGH_ID = 'agent-memory.agent-memory#gettingStarted';

/**
 * "Agent Memory: Get Started" opens the walkthrough again. VS Code itself opens it once, when the
 * extension is installed from the Extensions view (workbench.welcomePage.walkthroughs.openOnInstall).
 */
export function registerGetStartedCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.getStarted', () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    ),
  );
}
