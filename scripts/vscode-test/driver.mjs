// The driver side of the protocol by which a test inside the extension host asks for a
// Playwright action on the workbench page (a click on the chat's confirmation card, typing into
// a quick pick, a screenshot). The extension host cannot reach the page, and the page cannot
// call into the host, but both sides share the machine:
//
//   host → driver: the test logs one console line `[vscode-tests-driver] {"id":…,"action":…}`;
//                  the workbench forwards the host's console to codeAutomationLog (run.mjs),
//                  which hands the request to `perform` below;
//   driver → host: the answer is written as JSON to <answers>/<id>.json (temp file + rename,
//                  so it appears complete), which the test polls (test/vscode/driver.ts).
//
// Requests run one at a time, in the order logged. Every action waits for its element with
// Playwright's auto-waiting (generous timeouts, no fixed sleeps). Screenshots are taken only
// when AGENT_MEMORY_SCREENSHOTS names a folder; otherwise they answer { skipped: true }.
import fs from 'node:fs';
import path from 'node:path';

/** As in test/vscode/driver.ts. */
export const DRIVER_PREFIX = '[vscode-tests-driver] ';
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * @param {import('playwright-core').Page} page
 * @param {{ answers: string, screenshots?: string, failures: string, note: (msg: string) => void }} options
 *   answers: the folder for answer files; screenshots: where README screenshots go (if wanted);
 *   failures: where a failing test's picture of the page goes (kept with VSCODE_TEST_KEEP=1)
 * @returns {(line: string) => void} takes a logged line that starts with DRIVER_PREFIX
 */
export function createDriver(page, { answers, screenshots, failures, note }) {
  fs.mkdirSync(answers, { recursive: true });
  let chain = Promise.resolve();
  return (line) => {
    let req;
    try {
      req = JSON.parse(line.slice(DRIVER_PREFIX.length));
    } catch {
      note(`driver: unreadable request ${line}`);
      return;
    }
    chain = chain.then(async () => {
      let answer;
      try {
        answer = { ok: true, value: await perform(page, req, screenshots, failures) };
      } catch (err) {
        answer = {
          ok: false,
          error: String(err?.message ?? err)
            .split('\n')
            .slice(0, 12)
            .join('\n'),
        };
      }
      const file = path.join(answers, `${req.id}.json`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(answer));
      fs.renameSync(`${file}.tmp`, file);
    });
  };
}

/**
 * The first visible element that matches selector, contains text (if given) and has a
 * descendant matching has.selector whose whole text is has.text (if given); then, with inner,
 * its first descendant matching inner.
 */
function target(page, { selector, text, has, inner }) {
  let loc = page.locator(selector).filter({ visible: true });
  if (text !== undefined) loc = loc.filter({ hasText: text });
  if (has !== undefined) loc = loc.filter({ has: page.locator(has.selector).getByText(has.text, { exact: true }) });
  loc = loc.first();
  return inner === undefined ? loc : loc.locator(inner).first();
}

async function perform(page, req, screenshots, failures) {
  const timeout = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  switch (req.action) {
    case 'waitFor': // resolves once a visible element matches
      await target(page, req).waitFor({ state: 'visible', timeout });
      return undefined;
    case 'waitGone': // resolves once no visible element matches
      await page.locator(req.selector).filter({ visible: true }).first().waitFor({ state: 'detached', timeout });
      return undefined;
    case 'text': // the element's visible text
      return await target(page, req).innerText({ timeout });
    case 'count': // how many visible elements match now (no waiting)
      return await page.locator(req.selector).filter({ visible: true }).count();
    case 'html': // the element's outer HTML, for finding selectors while writing a test
      return await target(page, req).evaluate((el) => el.outerHTML, undefined, { timeout });
    case 'click': // button: 'right' opens a context menu
      await target(page, req).click({ timeout, ...(req.button ? { button: req.button } : {}) });
      return undefined;
    case 'hover':
      await target(page, req).hover({ timeout });
      return undefined;
    case 'dragRightEdge': {
      // drags the element's right edge (a sash, e.g. the side bar's) by dx pixels
      const box = await target(page, req).boundingBox({ timeout });
      const [x, y] = [box.x + box.width + 1, box.y + box.height / 2];
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + req.dx, y, { steps: 10 });
      await page.mouse.up();
      return undefined;
    }
    case 'press': // a key or chord on whatever has the focus, e.g. "Enter", "Control+A"
      await page.keyboard.press(req.key);
      return undefined;
    case 'type': // key by key, as a person types (each key fires its own input event)
      await page.keyboard.type(req.text, { delay: 20 });
      return undefined;
    case 'fill': // focuses the element and replaces its value (one input event), wherever the focus was
      await target(page, req).fill(req.value, { timeout });
      return undefined;
    case 'quickInput': // what the quick input shows now: its filter text, placeholder, listed rows, the focus
      // The function runs in the workbench page, where document is the page's.
      /* global document */
      return await page.evaluate(() => {
        const widget = [...document.querySelectorAll('.quick-input-widget')].find((w) => w.checkVisibility());
        const input = widget?.querySelector('.quick-input-box input');
        const active = document.activeElement;
        return {
          shown: widget !== undefined,
          value: input?.value,
          placeholder: input?.getAttribute('placeholder') ?? undefined,
          rows: [...(widget?.querySelectorAll('.quick-input-list .monaco-list-row') ?? [])]
            .filter((r) => r.checkVisibility())
            .map((r) => r.textContent ?? ''),
          focus: active ? `${active.tagName.toLowerCase()}.${[...active.classList].join('.')}` : undefined,
        };
      });
    case 'failure': {
      // the whole page when a test failed, to see why
      const file = path.join(failures, `${req.name.replace(/[^\w.-]+/g, '-').slice(0, 100)}.png`);
      fs.mkdirSync(failures, { recursive: true });
      await page.screenshot({ path: file });
      return { file };
    }
    case 'screenshot': {
      if (!screenshots) return { skipped: true };
      const file = path.join(screenshots, `${req.name}.png`);
      fs.mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: file, clip: await clip(page, req, timeout) });
      return { file };
    }
    default:
      throw new Error(`unknown driver action ${JSON.stringify(req.action)}`);
  }
}

/**
 * The region to capture: the union of the boxes of the elements req.selectors names (each the
 * first visible match) plus req.padding (default 8), or the whole page. Also used by vsix.mjs.
 */
export async function clip(page, req, timeout = DEFAULT_TIMEOUT_MS) {
  if (!req.selectors?.length) return undefined;
  const boxes = [];
  for (const selector of req.selectors) {
    const el = target(page, { selector });
    await el.waitFor({ state: 'visible', timeout });
    const box = await el.boundingBox();
    if (box) boxes.push(box);
  }
  const pad = req.padding ?? 8;
  const view = page.viewportSize();
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
  const right = Math.min(view.width, Math.max(...boxes.map((b) => b.x + b.width)) + pad);
  const bottom = Math.min(view.height, Math.max(...boxes.map((b) => b.y + b.height)) + pad);
  return { x, y, width: right - x, height: bottom - y };
}
