import * as vscode from 'vscode';
import type { MemoryService } from '../core/memoryService';

/** Scheme of the read-only memory documents this command opens. */
const SCHEME = 'agent-memory';

/** The read-only document of one memory. */
export function memoryUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/memories/${id}.md` });
}

/** Renders a memory as read-only Markdown: `agent-memory:/memories/<id>.md`. */
class MemoryDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly getService: () => Promise<MemoryService>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = /^\/memories\/([0-9a-f-]{36})\.md$/.exec(uri.path)?.[1];
    if (!id) throw new Error(vscode.l10n.t('Not a memory document: {0}', uri.toString()));
    const m = await (await this.getService()).read({ id });
    return (
      `# ${m.description}\n\n` +
      `_tags: ${m.tags.join(', ')} · version ${m.version} · ${m.changedAt} by ${m.author} · id ${m.id}_\n\n` +
      `${m.content}\n`
    );
  }
}

/**
 * "Agent Memory: Search Memories": the same ranked search the agents use, in a quick
 * pick; the chosen memory opens as a read-only Markdown document.
 */
export function registerSearchCommand(
  context: vscode.ExtensionContext,
  getService: () => Promise<MemoryService>,
  log: vscode.LogOutputChannel,
): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, new MemoryDocumentProvider(getService)),
    vscode.commands.registerCommand('agentMemory.search', async () => {
      // Open the store while the person types, not before the input box appears.
      const opening = getService();
      opening.catch(() => undefined);
      try {
        const text = await vscode.window.showInputBox({
          prompt: vscode.l10n.t('Keywords to search the team memory for (separated by spaces)'),
          placeHolder: vscode.l10n.t('e.g. jest esm transform'),
        });
        if (!text?.trim()) return;
        const hits = await (await opening).search({ keywords: text.trim().split(/\s+/), limit: 50 });
        if (hits.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('No memories match "{0}".', text.trim()));
          return;
        }
        const pick = await vscode.window.showQuickPick(
          hits.map((h) => ({ label: h.description, description: h.tags.join(', '), id: h.id })),
          { placeHolder: vscode.l10n.t('{0} memories match; pick one to open', hits.length), matchOnDescription: true },
        );
        if (!pick) return;
        const doc = await vscode.workspace.openTextDocument(memoryUri(pick.id));
        await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
        await vscode.window.showTextDocument(doc, { preview: true });
      } catch (err) {
        log.error(err as Error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
      }
    }),
  );
}
