import type { Services } from '../../core/services';

const HOUR = 3600_000;
/** The first look, soon after the client connected (off the path of its first calls). */
const FIRST_LOOK_MS = 2_000;
/** Bounds of the wait between looks (a long-lived server sees the period change with policy.yaml). */
const MIN_WAIT = 60_000;
const MAX_WAIT = 6 * HOUR;

/**
 * The forgetting run of an MCP server: the rule VS Code follows (forgetting.ts there). When no
 * run was reported within forgetting.run_every_hours (whoever ran it: a window, another server,
 * the CLI), this server runs it, then looks again when the next one falls due. A run that
 * changed nothing writes no report (Lifecycle); this process remembers it ran, so it does not
 * run again within the period.
 */
export class ForgettingSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private ranHere: string | undefined;
  private stopped = false;

  constructor(
    private readonly services: Services,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.schedule(FIRST_LOOK_MS);
  }

  /** Stops looking; resolves once a run under way has finished (the store closes after it). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const { playbook } = this.services;
    let wait = MAX_WAIT;
    try {
      if (await playbook.lifecycle.isDue(undefined, this.ranHere)) {
        const report = await playbook.runForgetting('schedule');
        this.ranHere = report.ranAt;
        this.log(
          `agent-memory mcp: forgetting run: ${report.expiredFacts.length} facts expired, ${report.forgottenEpisodes} episodes forgotten, ` +
            `${report.archivedEpisodes} archived, ${report.promotions.length} skill drafts proposed${report.id === null ? ' (nothing changed: no report written)' : ''}`,
        );
      }
      const [last] = await playbook.lifecycle.reports({ limit: 1 });
      const latest = Math.max(last ? Date.parse(last.ranAt) : -Infinity, this.ranHere ? Date.parse(this.ranHere) : -Infinity);
      if (Number.isFinite(latest)) wait = latest + playbook.policy().forgetting.run_every_hours * HOUR - Date.now();
    } catch (err) {
      this.log(`agent-memory mcp: forgetting run failed: ${(err as Error).message}`);
    }
    this.schedule(Math.min(MAX_WAIT, Math.max(MIN_WAIT, wait)));
  }
}
