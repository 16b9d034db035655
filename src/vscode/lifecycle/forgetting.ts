import * as vscode from 'vscode';
import type { Playbook } from '../../core/playbook/playbook';
import type { RunReport } from '../../core/playbook/lifecycle';
import type { StoreChanges } from '../session/storeChanges';
import { reportingCommand } from '../memories/target';
import { type ReadOnlyDocs, showMarkdown, viewDocUri } from '../documents/readOnlyDocs';
import { lifecycleReportMarkdown } from './reportMarkdown';

const HOUR = 3600_000;
/** Longest wait between two looks at whether a run is due (a timer cannot wait 30 days, and policy.yaml may change). */
const MAX_WAIT = 6 * HOUR;
const MIN_WAIT = 60_000;

/** One line for the log and the messages. */
function reportSummary(r: RunReport): string {
  return vscode.l10n.t(
    '{0} facts expired, {1} episodes forgotten, {2} archived, {3} skill drafts proposed; {4} of {5} search results read',
    r.expiredFacts.length,
    r.forgottenEpisodes,
    r.archivedEpisodes,
    r.promotions.length,
    r.searchReads.read,
    r.searchReads.returned,
  );
}

/** workspaceState key: when this workspace last ran the rules unattended, per store location. */
const LAST_RUN_KEY = 'agentMemory.forgetting.lastRun';

/**
 * Runs the forgetting rules: once when the store opens (after activation, never blocking it)
 * and then whenever forgetting.run_every_hours has passed since the last run. Every window of
 * the team asks `lifecycle.isDue()` first, which reads the last report in the store, so they
 * do not all run. An unattended run that changes nothing writes no report (the journal is
 * tracked by git: looking must leave no diff), so the time of this workspace's last run is
 * kept in workspaceState, which git never sees, and counts as a run for `isDue`.
 * Failures go to the log, never to a dialog: nobody asked for this run.
 */
export class ForgettingScheduler implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RunReport | undefined> | undefined;
  private disposed = false;
  /** The last run of this window, recorded or not (for the tests and the log). */
  lastRun: RunReport | undefined;

  constructor(
    private readonly getPlaybook: () => Promise<Playbook>,
    private readonly changes: StoreChanges,
    private readonly log: vscode.LogOutputChannel,
    private readonly state: vscode.Memento,
  ) {}

  /** When this workspace last ran the rules on the store at `location` (ISO), if it did. */
  private ranHere(location: string): string | undefined {
    return this.state.get<Record<string, string>>(LAST_RUN_KEY, {})[location];
  }

  private async rememberRun(location: string, ranAt: string): Promise<void> {
    await this.state.update(LAST_RUN_KEY, { ...this.state.get<Record<string, string>>(LAST_RUN_KEY, {}), [location]: ranAt });
  }

  /** The store (re)opened: the first look is soon, off the path of the views' first load. */
  storeOpened(): void {
    this.schedule(2000, 'activation');
  }

  /**
   * A run of this window: `activation` and `schedule` run only when due and share a run under
   * way; `command` always runs (after one under way).
   */
  run(trigger: 'activation' | 'schedule' | 'command'): Promise<RunReport | undefined> {
    if (this.running && trigger !== 'command') return this.running;
    const run = (this.running?.catch(() => undefined) ?? Promise.resolve()).then(() => this.runOnce(trigger));
    this.running = run;
    void run
      .catch(() => undefined)
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    return run;
  }

  private async runOnce(trigger: 'activation' | 'schedule' | 'command'): Promise<RunReport | undefined> {
    const playbook = await this.getPlaybook();
    const where = playbook.store.location;
    if (trigger !== 'command' && !(await playbook.lifecycle.isDue(undefined, this.ranHere(where)))) return undefined;
    const report = await playbook.runForgetting(trigger);
    this.lastRun = report;
    await this.rememberRun(where, report.ranAt);
    this.log.info(
      `forgetting run (${trigger}): ${reportSummary(report)}${report.id === null ? ' (nothing changed: no report written)' : ''}`,
    );
    if (report.expiredFacts.length || report.forgottenEpisodes || report.archivedEpisodes || report.promotions.length)
      this.changes.fireSoon(0);
    return report;
  }

  private schedule(ms: number, trigger: 'activation' | 'schedule'): void {
    clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => void this.tick(trigger), ms);
  }

  /** Runs if due, then waits until the next run falls due (by the last report, whoever wrote it). */
  private async tick(trigger: 'activation' | 'schedule'): Promise<void> {
    let wait = MAX_WAIT;
    try {
      await this.run(trigger);
      const playbook = await this.getPlaybook();
      const [last] = await playbook.lifecycle.reports({ limit: 1 });
      const here = this.ranHere(playbook.store.location);
      const latest = Math.max(last ? Date.parse(last.ranAt) : -Infinity, here ? Date.parse(here) : -Infinity);
      const every = playbook.policy().forgetting.run_every_hours * HOUR;
      if (Number.isFinite(latest)) wait = latest + every - Date.now();
    } catch (err) {
      this.log.error(`forgetting run failed: ${(err as Error).message}`);
    }
    this.schedule(Math.min(MAX_WAIT, Math.max(MIN_WAIT, wait)), 'schedule');
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
  }
}

/** "Run Forgetting Now" and "Show Lifecycle Report" (a read-only Markdown document of the recent runs and the policy). */
export function registerForgetting(
  context: vscode.ExtensionContext,
  getPlaybook: () => Promise<Playbook>,
  docs: ReadOnlyDocs,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): ForgettingScheduler {
  const scheduler = new ForgettingScheduler(getPlaybook, changes, log, context.workspaceState);
  const reportUri = viewDocUri('lifecycle', 'report', vscode.l10n.t('Lifecycle report'));
  docs.register('lifecycle', async () => {
    const playbook = await getPlaybook();
    let policy;
    try {
      policy = playbook.policy();
    } catch (err) {
      policy = err as Error;
    }
    return lifecycleReportMarkdown(await playbook.lifecycle.reports({ limit: 20 }), policy);
  });
  const command = reportingCommand(log);
  context.subscriptions.push(
    scheduler,
    command('agentMemory.runForgetting', async () => {
      const report = await scheduler.run('command');
      if (!report) return;
      changes.fireSoon(0);
      const show = vscode.l10n.t('Show Report');
      void vscode.window.showInformationMessage(vscode.l10n.t('Forgetting run done: {0}.', reportSummary(report)), show).then((answer) => {
        if (answer === show) void showMarkdown(reportUri);
      });
    }),
    command('agentMemory.showLifecycleReport', () => showMarkdown(reportUri)),
  );
  return scheduler;
}
