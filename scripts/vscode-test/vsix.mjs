// The packaged extension, tested as a person gets it: builds agent-memory.vsix with the README's
// command (`npm run package`), installs it into a fresh extensions folder with code-server's
// `--install-extension`, seeds the workspace store with the CLI, starts code-server with no
// development extension and no test payload, and drives the workbench with Playwright as a
// person would: Restricted Mode first (workspace trust on, the folder not trusted), then trust,
// the Memories view, the memory editor (edit, Ctrl+S), Compare with Previous Version, Delete
// with its modal, Restore a Deleted Memory, Find Likely Duplicates and a merge through its modal
// (host tests cannot answer a modal: VS Code cancels dialogs in test mode). What is stored is checked with the CLI after each
// step; the extension host's log must hold no error of ours.
// Prints one line per check, then a last line "N passed, N failed"; exits non-zero on failure.
// Steps depend on each other: after a failure the rest are reported as skipped (not counted).
// Env: VSCODE_TEST_KEEP=1 keeps the temp folder (workspace, logs, failures/*.png),
// AGENT_MEMORY_SCREENSHOTS=DIR saves the README's memories-view, memory-editor and
// compare-versions screenshots there (media/screenshots). A failed check always leaves a
// picture of the page in <temp>/failures/, whose path is printed (kept only with VSCODE_TEST_KEEP=1).
// Leaves agent-memory.vsix and a production build in dist/ behind, as `npm run package` does.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { clip } from './driver.mjs';
import { CHROMIUM, CODE_SERVER_BIN, NODE_BIN } from './paths.mjs';
import { createSession, printTail } from './session.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VSIX = path.join(ROOT, 'agent-memory.vsix');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const KEEP = process.env.VSCODE_TEST_KEEP === '1';
const SCREENSHOTS = process.env.AGENT_MEMORY_SCREENSHOTS ? path.resolve(process.env.AGENT_MEMORY_SCREENSHOTS) : undefined;
const EXTENSION_ID = 'agent-memory.agent-memory';
const TIMEOUT = 30_000;

const started = Date.now();
const note = (msg) => console.log(`vsix-test: ${msg}`);

for (const [f, fix] of [
  [CODE_SERVER_BIN, 'run `bash scripts/vscode-test/install.sh`'],
  [NODE_BIN, 'the same'],
  [CHROMIUM, 'the same'],
]) {
  if (!fs.existsSync(f)) {
    note(`missing ${f}: ${fix}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

// Workbench selectors (VS Code 1.139).
const SIDEBAR = '.part.sidebar';
const ROW = `${SIDEBAR} .monaco-list-row`;
const PALETTE_INPUT = '.quick-input-widget .quick-input-box input';
const PICK_ROW = '.quick-input-widget .quick-input-list .monaco-list-row';
const MENU_ITEM = '.monaco-menu .action-item';
const DIALOG = '.monaco-dialog-box';
const EDITOR = '.part.editor';

// --- what the store holds before VS Code starts -------------------------------------------
const DAY = 24 * 60 * 60 * 1000;
/** The memory the test opens, edits, deletes and restores (written by `create`, so: Today). */
const SEED = {
  description: 'Jest fails on ESM-only packages: un-ignore them in transformIgnorePatterns',
  tags: ['jest', 'esm', 'testing'],
  content: [
    'Symptom: `SyntaxError: Cannot use import statement outside a module` from a file under node_modules',
    '(lodash-es, nanoid 4, chalk 5). Jest does not transform node_modules by default.',
    '',
    'Fix, in jest.config.js:',
    '',
    '```js',
    "transformIgnorePatterns: ['/node_modules/(?!(lodash-es|nanoid|chalk)/)'],",
    '```',
    '',
    'Verified: `npx jest src/utils` passes; CI green on the branch.',
  ].join('\n'),
};
/** What the person types at the end of the memory in the editor. */
const ADDED = 'Also add the package to moduleNameMapper if it ships .mjs only.';
/** Teammates' memories of the last weeks (imported with their dates), so the view has several groups. */
const OTHERS = [
  {
    ago: 2 * 60 * 1000,
    author: 'bob@example.com',
    description: 'Flaky Playwright login test: wait for the session cookie, not for a fixed timeout',
    tags: ['playwright', 'flaky', 'e2e'],
    content:
      'login.spec.ts failed 1 run in 15 on CI: `page.waitForTimeout(2000)` raced the auth redirect.\n\nNow: `await expect.poll(() => context.cookies()).toContainEqual(expect.objectContaining({ name: "sid" }))`.\n50 CI runs green since.',
  },
  {
    ago: 1 * DAY,
    author: 'carol@example.com',
    description: 'Postgres connection pool exhausted under load: release clients in finally, pool max 20',
    tags: ['postgres', 'performance', 'node'],
    content:
      "Symptom: `timeout exceeded when trying to connect` after ~10 min of the load test.\n\nCause: an early return in the report handler skipped `client.release()`. Release in `finally`; pool `max: 20` matches the server's 100 connections across 4 pods.",
  },
  {
    ago: 3 * DAY,
    author: 'alice@example.com',
    description: 'pnpm lockfile conflicts after a rebase: regenerate it, never merge it by hand',
    tags: ['pnpm', 'git', 'dependencies'],
    content:
      'Take either side of pnpm-lock.yaml, then `pnpm install --lockfile-only` and commit the result. Hand-merged lockfiles installed two copies of react.',
  },
  {
    ago: 5 * DAY,
    author: 'bob@example.com',
    description: 'Windows CI fails on CRLF in snapshots: eol=lf for __snapshots__ in .gitattributes',
    tags: ['ci', 'windows', 'git'],
    content:
      '`__snapshots__/** text eol=lf` in .gitattributes; re-checkout on the runner. Snapshots were written with LF on macOS and compared with CRLF on Windows.',
  },
  {
    ago: 12 * DAY,
    author: 'alice@example.com',
    description: 'Decision: tool inputs are validated only by the zod schemas in src/core/contract',
    tags: ['zod', 'decision', 'architecture'],
    content:
      'One source of truth for the tools, the MCP server and the CLI; package.json is generated from it (npm run manifest). Do not add ad-hoc checks in tool classes.',
  },
];

/** The CLI on the workspace store, as a teammate's terminal would run it; --json output parsed. */
let store;
function cli(...args) {
  return JSON.parse(
    execFileSync(process.execPath, [CLI, '--store', store, '--json', '--author', 'alice@example.com', ...args], {
      encoding: 'utf8',
      timeout: 20_000,
    }),
  );
}

/** A git repository with the store in it; the author of the person's own edits is git's user.email. */
function seedWorkspace(ws) {
  execFileSync('git', ['init', '-q', ws]);
  execFileSync('git', ['-C', ws, 'config', 'user.email', 'alice@example.com']);
  execFileSync('git', ['-C', ws, 'config', 'user.name', 'Alice']);
  store = path.join(ws, '.agent-memory');
  const now = Date.now();
  const rows = OTHERS.map((m) => ({
    rowId: randomUUID(),
    id: randomUUID(),
    version: 1,
    op: 'create',
    description: m.description,
    tags: m.tags,
    content: m.content,
    changedAt: new Date(now - m.ago).toISOString(),
    deletedAt: null,
    author: m.author,
    restoredFrom: null,
  })).reverse(); // oldest first, as an export is
  const file = path.join(path.dirname(ws), 'teammates.jsonl');
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  cli('import', file);
  return cli('create', '--description', SEED.description, '--tags', SEED.tags.join(','), '--content', SEED.content).id;
}

// --- checks ---------------------------------------------------------------------------------
const results = { passed: 0, failed: 0, skipped: 0 };
let page;
let failures;
let broken = false;

/** Runs one check unless an earlier one failed; a failure leaves a picture of the page. */
async function check(title, body) {
  if (broken) {
    console.log(`  - ${title} (skipped: an earlier check failed)`);
    results.skipped++;
    return;
  }
  const t0 = Date.now();
  try {
    await body();
    console.log(`  ✓ ${title} (${Date.now() - t0} ms)`);
    results.passed++;
  } catch (err) {
    console.log(
      `  ✗ ${title}\n${String(err?.stack ?? err)
        .split('\n')
        .slice(0, 14)
        .join('\n')}`,
    );
    results.failed++;
    broken = true;
    if (page) {
      const file = path.join(failures, `${title.replace(/[^\w.-]+/g, '-').slice(0, 80)}.png`);
      fs.mkdirSync(failures, { recursive: true });
      if (
        await page.screenshot({ path: file }).then(
          () => true,
          () => false,
        )
      )
        console.log(`    page at the failure: ${file}${KEEP ? '' : ' (VSCODE_TEST_KEEP=1 keeps it)'}`);
    }
  }
}

function assert(ok, message) {
  if (!ok) throw new Error(message);
}

/** Polls until fn returns a value other than undefined (conditions, never fixed sleeps). */
async function until(what, fn, timeoutMs = TIMEOUT) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Visible text of the first visible match, white space collapsed: Monaco renders spaces as
 * no-break spaces and wraps long lines where the editor is narrow.
 */
const textOf = async (selector) =>
  (await page.locator(selector).filter({ visible: true }).first().innerText({ timeout: TIMEOUT })).replace(/\s+/g, ' ');
const visible = (selector, text) => {
  const loc = page.locator(selector).filter({ visible: true });
  return (text === undefined ? loc : loc.filter({ hasText: text })).first();
};

/**
 * Accepts the open quick pick's row holding text with the keyboard, as a person would: Down
 * until that row is the focused one, then Enter. Not a pointer click: a click waits for the row
 * to hold still, and in one CI run a quick pick laid out again as it opened kept its row moving
 * past the timeout ("element is not stable").
 */
async function choosePick(text) {
  await visible(PICK_ROW, text).waitFor({ timeout: TIMEOUT });
  await until(`"${text}" focused in the quick pick`, async () => {
    const focused = visible(`${PICK_ROW}.focused`);
    if ((await focused.count()) > 0 && (await focused.innerText()).includes(text)) return true;
    await page.keyboard.press('ArrowDown');
    return undefined;
  });
  await page.keyboard.press('Enter');
}

/** The labels of the Command Palette's rows for a query (the palette closed again after). */
async function paletteRows(query) {
  await page.keyboard.press('F1');
  await visible(PALETTE_INPUT).waitFor({ timeout: TIMEOUT });
  await page.keyboard.type(query);
  // The list is filtered as one types; it is settled once the input holds the whole query.
  await until('the palette to take the query', async () =>
    (await visible(PALETTE_INPUT).inputValue()) === `>${query}` ? true : undefined,
  );
  const rows = await page.locator(PICK_ROW).filter({ visible: true }).allInnerTexts();
  await page.keyboard.press('Escape');
  return rows;
}

/** The view's rows in order: level 1 for a group, 2 for a memory under it; label, then description (tags, or a group's count). */
async function viewRows() {
  return page
    .locator(ROW)
    .filter({ visible: true })
    .evaluateAll((els) =>
      els.map((e) => ({
        level: Number(e.getAttribute('aria-level')),
        label: e.querySelector('.label-name')?.textContent ?? '',
        description: e.querySelector('.label-description')?.textContent ?? '',
      })),
    );
}

/**
 * Chooses an item of the open context menu. A click right after the menu opened is sometimes
 * ignored (the workbench guards against the opening right-click's mouse-up); hover, which
 * focuses the item, then Enter, always works.
 */
async function chooseFromMenu(label) {
  const item = visible(MENU_ITEM, label);
  await item.hover({ timeout: TIMEOUT });
  await visible(`${MENU_ITEM}.focused`, label).waitFor({ timeout: TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached', timeout: TIMEOUT });
}

/** Clicks `button` in the modal dialog that shows `text`, and waits for the dialog to close. */
async function answerDialog(text, button) {
  const dialog = visible(DIALOG, text);
  await dialog.waitFor({ timeout: TIMEOUT });
  await dialog
    .locator('.dialog-buttons a.monaco-button')
    .filter({ hasText: new RegExp(`^${button}$`) })
    .click();
  await page.locator(DIALOG).waitFor({ state: 'detached', timeout: TIMEOUT });
}

/** Drags the element's right edge (the sash) by dx pixels. */
async function dragRightEdge(selector, dx) {
  const box = await visible(selector).boundingBox();
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 10 });
  await page.mouse.up();
}

/** A README screenshot (only with AGENT_MEMORY_SCREENSHOTS): the elements' boxes, cut at maxHeight. */
async function screenshot(name, selectors, { padding = 0, maxHeight = Infinity } = {}) {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const region = await clip(page, { selectors, padding });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), clip: { ...region, height: Math.min(region.height, maxHeight) } });
  note(`screenshot ${path.join(SCREENSHOTS, `${name}.png`)}`);
}

// --- the run ----------------------------------------------------------------------------------
const session = createSession({ name: 'vsix-test', keep: KEEP, note });
failures = path.join(session.tmp, 'failures');
const ws = session.dir('workspace');
const userData = session.dir('user-data');
const extensions = session.dir('extensions');
let id;
let serverLog;

try {
  await check("`npm run package` (the README's command) builds agent-memory.vsix", async () => {
    const before = fs.existsSync(VSIX) ? fs.statSync(VSIX).mtimeMs : 0;
    try {
      execFileSync('npm', ['run', 'package'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    } catch (err) {
      throw new Error(`npm run package failed:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
    }
    assert(fs.existsSync(VSIX) && fs.statSync(VSIX).mtimeMs > before, `${VSIX} was not written`);
    const kb = fs.statSync(VSIX).size / 1024;
    assert(kb < 2048, `the .vsix is ${kb.toFixed(0)} KB`);
    note(`agent-memory.vsix: ${kb.toFixed(0)} KB`);
  });

  await check(
    'code-server --install-extension installs it into a fresh extensions folder: bundled, the .wasm inside, no node_modules, sources or screenshots',
    async () => {
      const out = session.installExtension({ vsix: VSIX, userData, extensions });
      assert(/successfully installed/i.test(out), `unexpected output:\n${out}`);
      const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
      const dir = path.join(extensions, `${EXTENSION_ID}-${version}`);
      assert(fs.existsSync(dir), `${dir} missing; extensions folder: ${fs.readdirSync(extensions).join(', ')}`);
      // What the person got, file by file.
      const files = fs
        .readdirSync(dir, { recursive: true })
        .map((f) => f.split(path.sep).join('/'))
        .filter((f) => fs.statSync(path.join(dir, f)).isFile());
      for (const f of [
        'package.json',
        'package.nls.json',
        'dist/extension.js',
        'dist/sql-wasm.wasm',
        'dist/loadWorker.js',
        'media/memory.svg',
      ])
        assert(files.includes(f), `${f} missing from the installed extension:\n${files.join('\n')}`);
      const unwanted = files.filter(
        (f) => /^(node_modules|src|test|scripts|docs|media\/screenshots)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts'),
      );
      assert(unwanted.length === 0, `the installed extension holds files a user does not need: ${unwanted.join(', ')}`);
      note(`installed ${files.length} files: ${files.join(', ')}`);
    },
  );

  let port;
  await check('the CLI seeds the store; code-server starts with the folder and no development extension', async () => {
    id = seedWorkspace(ws);
    // Workspace trust keeps its default (on), so the folder opens untrusted: Restricted Mode.
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'telemetry.telemetryLevel': 'off',
          // files.autoSave is left at the browser's default (afterDelay): memory documents must not
          // be auto-saved anyway (the extension turns it off for their language); Ctrl+S saves.
        },
        null,
        2,
      ),
    );
    const server = await session.startServer({ userData, extensions, folder: ws });
    port = server.port;
    serverLog = server.log;
    note(`code-server up on 127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    page = await session.openPage({ width: 1440, height: 800 });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await visible('.statusbar-item', 'Restricted Mode').waitFor({ timeout: 90_000 });
  });

  await check(
    'Restricted Mode: Agent Memory is listed as installed, yet has no activity-bar entry and no commands in the Command Palette',
    async () => {
      // The Explorer lists the workspace: the workbench and its extension host are up.
      await visible(`${SIDEBAR} .monaco-list-row`, '.agent-memory').waitFor({ timeout: TIMEOUT });
      // The Extensions view lists our extension: the checks below look after the workbench read it.
      await page.keyboard.press('Control+Shift+X');
      await visible(`${SIDEBAR} .extension-list-item`, 'Agent Memory').waitFor({ timeout: TIMEOUT });
      const entries = await page
        .locator('.activitybar .action-item .action-label')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert(
        entries.some((e) => e?.startsWith('Extensions')),
        `the activity bar is not complete: ${entries.join(', ')}`,
      );
      assert(!entries.includes('Agent Memory'), `the activity bar shows Agent Memory in Restricted Mode: ${entries.join(', ')}`);
      const rows = await paletteRows('Agent Memory: ');
      assert(
        !rows.some((r) => r.startsWith('Agent Memory:')),
        `the Command Palette offers our commands in Restricted Mode: ${rows.join(' | ')}`,
      );
    },
  );

  await check(
    'trusting the folder (banner → Manage → Trust) brings the view: the seeded memory under "Today", teammates\' under older dates',
    async () => {
      await visible('.part.banner a', 'Manage').click({ timeout: TIMEOUT });
      await visible('.workspace-trust-editor .monaco-button', 'Trust').click({ timeout: TIMEOUT });
      await visible('.workspace-trust-editor', 'You trust this folder').waitFor({ timeout: TIMEOUT });
      // The trust editor opens as a modal over the workbench: close it.
      await visible('.monaco-modal-editor-block .action-label[aria-label^="Close"]').click({ timeout: TIMEOUT });
      await page.locator('.monaco-modal-editor-block').waitFor({ state: 'detached', timeout: TIMEOUT });
      await page.locator('.activitybar .action-item .action-label[aria-label="Agent Memory"]').click({ timeout: 60_000 });
      await visible(ROW, SEED.description).waitFor({ timeout: 60_000 });
      const rows = await viewRows();
      const at = rows.findIndex((r) => r.label === SEED.description);
      const group = rows
        .slice(0, at)
        .reverse()
        .find((r) => r.level === 1);
      assert(rows[at].level === 2 && group?.label === 'Today', `not under Today: ${JSON.stringify(rows)}`);
      assert(rows[at].description === SEED.tags.join(', '), `the tags are not shown: ${JSON.stringify(rows[at])}`);
      const groups = rows.filter((r) => r.level === 1).map((r) => r.label);
      for (const g of ['Today', 'Yesterday', 'Past 7 days', 'Past 30 days'])
        assert(groups.includes(g), `no group ${g}: ${groups.join(', ')}`);
      // Typed far enough that the command is among the rows the palette shows (it lists ~15).
      const palette = await paletteRows('Agent Memory: Search Mem');
      assert(
        palette.some((r) => r.startsWith('Agent Memory: Search Memories')),
        `the Command Palette does not offer our commands once trusted: ${palette.join(' | ')}`,
      );
    },
  );

  await check(
    'opening the memory from the tree shows its YAML front matter; editing it and Ctrl+S saves version 2 (read back with the CLI)',
    async () => {
      await visible(ROW, SEED.description).click();
      const lines = `${EDITOR} .monaco-editor .view-lines`;
      // Long lines wrap; the description is quoted (it holds a colon).
      const text = await until('the memory document', async () => {
        const t = await textOf(lines);
        return t.includes(`description: "${SEED.description}"`) ? t : undefined;
      });
      assert(
        text.startsWith(`--- # agent-memory ${id} · version 1 · `) && text.includes(`tags: [ ${SEED.tags.join(', ')} ] ---`),
        `front matter:\n${text}`,
      );
      // The tab is named after the description (src/vscode/shared/readableName.ts), not the id.
      await visible(`${EDITOR} .tab.active`, 'jest-fails-on-esm-only-packages').waitFor({ timeout: TIMEOUT });
      // The extension gives the document its own language (no auto-save) just after it opens;
      // typing into it while that switch is in flight can lose the editor's focus.
      await visible('[id="status.editor.mode"]', 'Agent Memory').waitFor({ timeout: TIMEOUT });
      await visible(lines).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(`\n${ADDED}`, { delay: 5 });
      await visible(`${EDITOR} .tab.active.dirty`).waitFor({ timeout: TIMEOUT });
      await screenshot('memory-editor', [EDITOR], { maxHeight: 450 });
      await page.keyboard.press('Control+S');
      await page.locator(`${EDITOR} .tab.active.dirty`).waitFor({ state: 'detached', timeout: TIMEOUT });
      const m = await until('version 2 in the store', () => {
        const r = cli('read', id);
        return r.version === 2 ? r : undefined;
      });
      assert(m.content.startsWith(SEED.content) && m.content.trimEnd().endsWith(ADDED), `content after the save:\n${m.content}`);
      assert(m.description === SEED.description && m.tags.join() === SEED.tags.join(), `description or tags changed: ${JSON.stringify(m)}`);
      assert(m.author === 'alice@example.com', `author ${m.author}, not git's user.email`);
      // The editor reloads the saved memory: its header now names version 2.
      await until('the header to say version 2', async () => ((await textOf(lines)).includes(`${id} · version 2 · `) ? true : undefined));
    },
  );

  await check('"Compare with Previous Version" in the editor title bar opens the diff of version 1 and the current version', async () => {
    await visible(`${EDITOR} .editor-actions .action-label[aria-label="Compare with Previous Version"]`).click({ timeout: TIMEOUT });
    await visible(`${EDITOR} .monaco-diff-editor`).waitFor({ timeout: TIMEOUT });
    await visible(`${EDITOR} .tab.active`, '(version 1 ↔ current)').waitFor({ timeout: TIMEOUT });
    const modified = await until('the added line in the diff', async () => {
      const t = await textOf(`${EDITOR} .monaco-diff-editor .editor.modified .view-lines`);
      return t.includes(ADDED) ? t : undefined;
    });
    assert(modified.includes('version 2'), `the right side is not the current version:\n${modified}`);
    await screenshot('compare-versions', [EDITOR], { maxHeight: 640 });
    await page.keyboard.press('Control+K');
    await page.keyboard.press('W'); // close all editors, so the next steps start from the view
    await page.locator(`${EDITOR} .tab`).first().waitFor({ state: 'detached', timeout: TIMEOUT });
  });

  await check('right-click → "Delete Memory…" → Delete in the modal: the CLI reads it deleted and the view drops it', async () => {
    // The README's picture wants the descriptions whole, as a person would widen the side bar.
    if (SCREENSHOTS) await dragRightEdge(SIDEBAR, 300);
    // Right-clicked near its end, so that the menu leaves the row's text in sight.
    const row = visible(ROW, SEED.description);
    const box = await row.boundingBox();
    await row.click({ button: 'right', position: { x: box.width - 60, y: box.height / 2 } });
    await visible(MENU_ITEM, 'Delete Memory…').waitFor({ timeout: TIMEOUT });
    await screenshot('memories-view', [`${SIDEBAR} .composite.title`, `${SIDEBAR} .monaco-list-rows`, '.context-view .monaco-menu'], {
      padding: 6,
    });
    await chooseFromMenu('Delete Memory…');
    await answerDialog(SEED.description, 'Delete');
    const m = await until('the delete in the store', () => {
      const r = cli('read', id);
      return r.deletedAt ? r : undefined;
    });
    assert(m.version === 3, `version ${m.version} after the delete, expected 3`);
    await visible(ROW, SEED.description).waitFor({ state: 'detached', timeout: TIMEOUT });
  });

  await check(
    'the view\'s … menu → "Restore a Deleted Memory…" → pick it: the CLI reads it restored and the view lists it again',
    async () => {
      // The container holds several views (Memories, Facts, Skills, Pending): each has its own
      // header, whose actions show while the pointer is over it.
      const header = visible(`${SIDEBAR} .pane-header`, 'Memories');
      await header.hover({ timeout: TIMEOUT });
      await header.locator('.action-label.codicon-toolbar-more').click({ timeout: TIMEOUT });
      await chooseFromMenu('Restore a Deleted Memory…');
      await choosePick(SEED.description);
      const m = await until('the restore in the store', () => {
        const r = cli('read', id);
        return r.version === 4 ? r : undefined;
      });
      assert(!m.deletedAt, `still deleted: ${JSON.stringify(m)}`);
      assert(m.content.trimEnd().endsWith(ADDED), 'the restored memory lost the edit');
      await visible(ROW, SEED.description).waitFor({ timeout: TIMEOUT });
    },
  );

  await check(
    'Command Palette → "Find Likely Duplicates…" → the pair → "Merge into A" → Merge in the modal: the CLI reads one merged, the other deleted',
    async () => {
      const description = 'Vite dev server HMR websocket fails behind the corporate proxy';
      const a = cli('create', '--description', description, '--tags', 'vite,hmr,proxy', '--content', 'Set server.hmr.clientPort to 443.');
      const b = cli('create', '--description', `${description} again`, '--tags', 'vite,hmr,proxy', '--content', 'Use the proxy port.');
      await page.keyboard.press('F1');
      await visible(PALETTE_INPUT).waitFor({ timeout: TIMEOUT });
      await page.keyboard.type('Agent Memory: Find Likely Duplicates');
      await choosePick('Find Likely Duplicates');
      await choosePick('Vite dev server HMR');
      await choosePick('Merge into A');
      await answerDialog(description, 'Merge');
      const [kept, removed] = await until('the merge in the store', () => {
        const both = [cli('read', a.id), cli('read', b.id)];
        const gone = both.findIndex((m) => m.deletedAt);
        return gone === -1 ? undefined : [both[1 - gone], both[gone]];
      });
      assert(kept.version === 2 && !kept.deletedAt, `the kept one: ${JSON.stringify(kept)}`);
      assert(kept.content.includes('Set server.hmr.clientPort') && kept.content.includes('Use the proxy port.'), 'both contents kept');
      assert(removed.version === 2, `the removed one: ${JSON.stringify(removed)}`);
    },
  );

  await check('the extension host logged no error from Agent Memory', async () => {
    const logs = path.join(userData, 'logs');
    const files = fs
      .readdirSync(logs, { recursive: true })
      .map((f) => path.join(logs, f))
      .filter((f) => f.endsWith('.log') && fs.statSync(f).isFile());
    const host = files.filter((f) => /exthost\d*[/\\]remoteexthost\.log$/.test(f));
    assert(host.length > 0, `no extension-host log under ${logs}`);
    const ours = files.filter((f) => f.includes(`${path.sep}${EXTENSION_ID}${path.sep}`));
    assert(ours.length > 0, `no log of our LogOutputChannel under ${logs}`);
    const bad = [];
    // A log entry is its timestamped line and the lines after it (a stack trace). Ours name the
    // extension (its id, its install folder) or one of its commands; the temp folder's name,
    // in many paths, holds "agent-memory" too and does not count.
    const entries = (f) => fs.readFileSync(f, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/);
    for (const f of host)
      for (const e of entries(f)) if (/\[error\]/.test(e) && (e.includes(EXTENSION_ID) || e.includes('agentMemory.'))) bad.push(e);
    for (const f of ours) for (const e of entries(f)) if (/\[(error|warning)\]/.test(e)) bad.push(e);
    assert(bad.length === 0, `errors logged:\n${bad.join('\n')}`);
    const activated = host.some((f) => fs.readFileSync(f, 'utf8').includes(`ExtensionService#_doActivateExtension ${EXTENSION_ID}`));
    assert(activated, 'the extension-host log does not show our activation');
  });
} catch (err) {
  note(`could not run: ${err?.stack ?? err}`);
  results.failed++;
}

if (results.failed && serverLog) printTail(serverLog, 15);
note(
  `done in ${((Date.now() - started) / 1000).toFixed(1)} s${results.skipped ? `; ${results.skipped} check(s) skipped after a failure` : ''}`,
);
await session.close();
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exitCode = results.failed === 0 ? 0 : 1;
