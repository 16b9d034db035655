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
  private watcher: vscode.Disposable | undefined;

  /** Watches the store's journal in `dir`, when there is a workspace folder to hold it. */
  constructor(dir: string | undefined) {
    this.watch(dir);
  }

  /** Watches the journal in `dir` instead (the store folder setting changed); undefined watches nothing. */
  watch(dir: string | undefined): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    if (!dir) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), 'journal.jsonl'));
    const soon = () => this.fireSoon();
    this.watcher = vscode.Disposable.from(watcher, watcher.onDidChange(soon), watcher.onDidCreate(soon), watcher.onDidDelete(soon));
  }

  /**
   * For a store without a file to watch (the team database): asks `fingerprint` every
   * `everyMs` and fires when the answer changes. A failed poll is skipped, not fatal.
   */
  poll(fingerprint: () => Promise<string>, everyMs: number): vscode.Disposable {
    let last: string | undefined;
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        const now = await fingerprint();
        if (last !== undefined && now !== last) this.fireSoon(0);
        last = now;
      } catch {
        // The status bar reports an unusable store; polling just tries again.
      } finally {
        busy = false;
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), everyMs);
    return new vscode.Disposable(() => clearInterval(timer));
  }

  /** After a write of this window: listeners hear of it without waiting for the file watcher. */
  fireSoon(delayMs = 150): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.emitter.fire(), delayMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.watcher?.dispose();
    this.emitter.dispose();
  }
}
