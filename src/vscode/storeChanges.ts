import * as vscode from 'vscode';

/**
 * One signal for "the store may have changed", whoever changed it: this window (fired
 * directly after a write), or another window, the CLI or an MCP server (seen as a change of
 * the journal file on disk). The Memories view and open memory documents listen to it.
 * Bursts (an import, a busy agent) collapse into one event.
 */
export class StoreChanges implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [this.emitter];

  /** Watches the store's journal in `dir`, when there is a workspace folder to hold it. */
  constructor(dir: string | undefined) {
    if (!dir) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), 'journal.jsonl'));
    const soon = () => this.fireSoon();
    this.disposables.push(watcher, watcher.onDidChange(soon), watcher.onDidCreate(soon), watcher.onDidDelete(soon));
  }

  /** After a write of this window: listeners hear of it without waiting for the file watcher. */
  fireSoon(delayMs = 150): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.emitter.fire(), delayMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
