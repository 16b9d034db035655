import * as vscode from 'vscode';
import { readableName } from '../shared/readableName';
import type { StoreChanges } from '../session/storeChanges';

/** The scheme of the read-only documents the views open: histories, proposal previews, the lifecycle report. */
const DOC_SCHEME = 'agent-memory-view';

/** Renders the document of a key (`/<kind>/<key>…`, e.g. a fact's id) from what is stored now. */
export type Renderer = (key: string) => Promise<string>;

/**
 * `agent-memory-view:/<kind>/<key>/<title>.md`: the key says what to render, the last segment
 * names the tab (a readable name of `title`, not an id). Without a title, `/<kind>/<key>.md`
 * (also what older URIs look like: both render the same).
 */
export function viewDocUri(kind: string, key: string, title?: string): vscode.Uri {
  const path = title === undefined ? `/${kind}/${key}.md` : `/${kind}/${key}/${readableName(title, kind)}.md`;
  return vscode.Uri.from({ scheme: DOC_SCHEME, path });
}

/**
 * Read-only documents computed on open (a TextDocumentContentProvider cannot be saved to), and
 * computed again when the store changes, so an open report or preview stays true.
 */
export class ReadOnlyDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly renderers = new Map<string, Renderer>();
  private readonly subscription: vscode.Disposable;

  constructor(
    changes: StoreChanges,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = changes.onDidChange(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === DOC_SCHEME) this.changed.fire(doc.uri);
    });
  }

  /** Who renders `/<kind>/…`. */
  register(kind: string, render: Renderer): void {
    this.renderers.set(kind, render);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, kind = '', key = ''] = uri.path.split('/');
    const render = this.renderers.get(kind);
    if (!render) return vscode.l10n.t('Nothing is shown at {0}.', uri.toString());
    try {
      return await render(key.replace(/\.md$/, ''));
    } catch (err) {
      // A document cannot fail to open with a reason; its text says what went wrong, and the log keeps the stack.
      this.log.error(`could not render ${uri.toString()}:`, err as Error);
      return vscode.l10n.t('This could not be read from the memory store: {0}', (err as Error).message);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** Opens a read-only document as rendered Markdown (a preview), or as text where Markdown preview is unavailable. */
export async function showMarkdown(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}

/** Registers the provider; the views register their renderers on it. */
export function registerReadOnlyDocs(context: vscode.ExtensionContext, changes: StoreChanges, log: vscode.LogOutputChannel): ReadOnlyDocs {
  const docs = new ReadOnlyDocs(changes, log);
  context.subscriptions.push(docs, vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, docs));
  return docs;
}
