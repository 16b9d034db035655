import * as vscode from 'vscode';
import { parseMemoryUri } from './memoryUris';
import type { MemoryNode } from './memoriesView';

/** The memory a command is about, and the version when the command came from a version's document. */
export interface Target {
  id: string;
  version?: number;
  /** Known when the command came from the view: names the document's tab. */
  description?: string;
}

/**
 * Works out which memory a command is for: the view item it was run on, the memory document
 * whose title bar it was run from, or else the memory in the active editor. Says so and
 * returns undefined when there is none (from the Command Palette with no memory open).
 */
export function commandTarget(arg: unknown): Target | undefined {
  if (arg && typeof arg === 'object' && (arg as MemoryNode).kind === 'memory') {
    const node = arg as { id: string; description?: unknown };
    return { id: node.id, ...(typeof node.description === 'string' ? { description: node.description } : {}) };
  }
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const path = uri ? parseMemoryUri(uri) : undefined;
  if (path?.kind === 'current') return { id: path.id };
  if (path?.kind === 'version') return { id: path.id, version: path.version };
  void vscode.window.showInformationMessage(vscode.l10n.t('Open a memory, or run this on a memory in the Memories view.'));
  return undefined;
}

/** Runs a command body, turning a refusal or failure into a message and a log line. */
export async function reportErrors(log: vscode.LogOutputChannel, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    log.error(err as Error);
    void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
  }
}

/** `registerCommand` for a command whose body's refusals and failures `reportErrors` turns into a message. */
export function reportingCommand(
  log: vscode.LogOutputChannel,
): (name: string, body: (arg?: unknown) => Promise<void>) => vscode.Disposable {
  return (name, body) => vscode.commands.registerCommand(name, (arg?: unknown) => reportErrors(log, () => body(arg)));
}
