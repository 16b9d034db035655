// The host side of the driver protocol (scripts/vscode-test/driver.mjs): a test inside the
// extension host asks run.mjs, which holds the workbench page, for a Playwright action — a
// click on the chat's confirmation card, keys typed into a quick pick, a screenshot.
//
// Request: one console line `[vscode-tests-driver] {"id", "action", …}` (the workbench forwards
// the host's console to run.mjs). Answer: run.mjs writes <answers>/<id>.json, which drive()
// polls. Only run.mjs provides a driver; under other runners (npm run test:electron) the tests
// that need one are skipped (see driverAvailable).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSeed } from './seed';

/** As in scripts/vscode-test/driver.mjs. */
export const DRIVER_PREFIX = '[vscode-tests-driver] ';

/**
 * Which element: the first visible one that matches selector (Playwright's CSS), contains text
 * if given, and has a descendant matching has.selector whose whole text is has.text if given;
 * with inner, that element's first descendant matching inner.
 */
export interface Target {
  selector: string;
  text?: string;
  has?: { selector: string; text: string };
  inner?: string;
}

/** One Playwright action on the workbench page. */
export type DriverAction =
  | ({ action: 'waitFor' } & Target)
  | { action: 'waitGone'; selector: string }
  | ({ action: 'text' } & Target)
  | { action: 'count'; selector: string }
  | ({ action: 'html' } & Target)
  /** A left click, or with button 'right' a right click (a context menu, without running the row's command). */
  | ({ action: 'click'; button?: 'right' } & Target)
  | ({ action: 'hover' } & Target)
  /** Drags the element's right edge (the side bar's sash) by dx pixels. */
  | ({ action: 'dragRightEdge'; dx: number } & Target)
  | { action: 'press'; key: string }
  | { action: 'type'; text: string }
  /** Focuses the element and replaces its value (one input event). */
  | ({ action: 'fill'; value: string } & Target)
  /** What the visible quick input shows (answered with a QuickInputState). */
  | { action: 'quickInput' }
  /** Saved as <AGENT_MEMORY_SCREENSHOTS>/<name>.png, clipped to the elements' boxes; skipped without that variable. */
  | { action: 'screenshot'; name: string; selectors?: string[]; padding?: number }
  /** The whole page, saved in the run's folder under failures/ (kept with VSCODE_TEST_KEEP=1). */
  | { action: 'failure'; name: string };

/** Whether a driver is listening (the run is run.mjs's). */
export function driverAvailable(): boolean {
  try {
    return readSeed().driver !== undefined;
  } catch {
    return false;
  }
}

/** Whether this run saves screenshots (AGENT_MEMORY_SCREENSHOTS set for run.mjs). */
export function screenshotsWanted(): boolean {
  return readSeed().driver?.screenshots === true;
}

/**
 * Performs one action and returns its value (the text for 'text'). The driver waits up to
 * timeoutMs for the element; this side waits a little longer for the answer file.
 */
export async function drive(request: DriverAction & { timeoutMs?: number }): Promise<unknown> {
  const driver = readSeed().driver;
  if (!driver) throw new Error('no driver: these tests need scripts/vscode-test/run.mjs');
  // Unique across suites: each suite is bundled with its own copy of this module (and so of any
  // counter), all in one process, and an answer file stays behind after it was read.
  const id = randomUUID();
  const timeoutMs = request.timeoutMs ?? 30_000;
  const file = path.join(driver.answers, `${id}.json`);
  console.log(DRIVER_PREFIX + JSON.stringify({ id, ...request, timeoutMs }));
  const deadline = Date.now() + timeoutMs + 15_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the driver did not answer ${JSON.stringify(request)} in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const answer = JSON.parse(fs.readFileSync(file, 'utf8')) as { ok: boolean; value?: unknown; error?: string };
  if (!answer.ok) throw new Error(`driver: ${request.action} ${JSON.stringify(request)} failed: ${answer.error}`);
  return answer.value;
}

/** What waitUntil throws when its check never held. */
export class WaitTimeout extends Error {}

/**
 * A quick pick closed while `choose` was answering it: the workbench closes one when something else
 * takes the focus (a webview that finished loading, say). The command that showed it has returned.
 */
export class PickClosed extends Error {}

/** Polls until check() returns a value other than undefined (explicit waits, never fixed sleeps). */
export async function waitUntil<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new WaitTimeout(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the quick pick whose placeholder contains `placeholder` is on screen, so that the
 * keys a test sends next reach it rather than nothing (a fixed sleep loses that race on a loaded
 * machine). Under run.mjs the driver watches the page; other runners have no view of the page
 * and wait a fixed second, as best they can.
 */
export async function pickShown(placeholder: string): Promise<void> {
  if (!driverAvailable()) {
    await new Promise((r) => setTimeout(r, 1000));
    return;
  }
  const quoted = placeholder.replace(/["\\]/g, '\\$&');
  await drive({ action: 'waitFor', selector: `.quick-input-widget .quick-input-box input[placeholder*="${quoted}"]` });
}

/** What the visible quick input shows, as the driver reads it from the page. */
export interface QuickInputState {
  shown: boolean;
  value?: string;
  placeholder?: string;
  /** The text of each listed row. */
  rows: string[];
  /** The focused element, as tag.classes. */
  focus?: string;
}

/**
 * Picks, in the single-choice quick pick whose placeholder contains `placeholder`, the row whose
 * text contains `row`: types the row's text into the pick's filter and, once that row is the only
 * one listed, presses Enter. No click: a pick that opens another at once (a version, then what to
 * do with it) was seen on loaded CI runs to take the click's release as a pick in the next one,
 * or to show the next one without rows. No arrow keys and no "accept the selected item" command
 * before the list settled: both race its focus and items. If the row is not listed alone within
 * 10 s (a loaded CI run once showed the second of two picks without the typed row for 30 s),
 * the filter is written again into the pick's input itself, wherever the focus went, and what
 * the pick showed is logged; after three tries the error says what it showed. Needs run.mjs's
 * driver.
 */
export async function choose(placeholder: string, row: string): Promise<void> {
  await pickShown(placeholder);
  const input = '.quick-input-widget .quick-input-box input';
  let seen: QuickInputState | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (attempt === 1) await drive({ action: 'type', text: row });
    else await drive({ action: 'fill', selector: input, value: row });
    try {
      const state = await waitUntil(
        `"${row}" alone in the pick`,
        async () => {
          seen = (await drive({ action: 'quickInput' })) as QuickInputState;
          if (!seen.shown) return 'closed';
          return seen.placeholder?.includes(placeholder) && seen.rows.length === 1 && seen.rows[0]!.includes(row) ? 'listed' : undefined;
        },
        10_000,
      );
      if (state === 'closed') throw new PickClosed(`the pick "${placeholder}" closed before "${row}" was chosen`);
      await drive({ action: 'press', key: 'Enter' });
      return;
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
    }
    console.log(`choose: "${row}" not listed alone after try ${attempt}; the pick showed ${JSON.stringify(seen)}`);
  }
  throw new Error(`"${row}" was never listed alone in the pick "${placeholder}"; it showed ${JSON.stringify(seen)}`);
}

/**
 * Runs a command that asks through quick picks (`start`) and answers them in order (`choose`),
 * then waits for it. The workbench closes a pick that loses the focus (a webview that finished
 * loading takes it): the command then returns having done nothing, and it is run once more.
 */
export async function answerPicks(
  start: () => Thenable<unknown>,
  picks: ReadonlyArray<readonly [placeholder: string, row: string]>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const running = start();
    try {
      for (const [placeholder, row] of picks) await choose(placeholder, row);
      await running;
      return;
    } catch (err) {
      if (!(err instanceof PickClosed) || attempt === 2) throw err;
      await running;
      console.log(`answerPicks: ${err.message}; running the command again`);
    }
  }
}
