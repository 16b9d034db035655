// A walk through the packaged extension with the eval set (test/data/eval, 120 memories) in a
// git workspace, taking the README's screenshots of the Memories view's tooltip, Group by Tag,
// Search Memories and a refused save marked in Problems (issue 14). Run `npm run package`
// first; it installs agent-memory.vsix into a fresh code-server, as vsix.mjs does. Prints what
// it saw (the tag groups, the picker's rows, the Problems entry, `git status` after opening
// and at the end, the extension host's errors naming the extension); a screenshot tool, not a
// test: it exits non-zero only when a step fails.
// Env: AGENT_MEMORY_SCREENSHOTS=DIR (default media/screenshots), VSCODE_TEST_KEEP=1.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { clip } from './driver.mjs';
import { createSession } from './session.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VSIX = path.join(ROOT, 'agent-memory.vsix');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SHOTS = path.resolve(process.env.AGENT_MEMORY_SCREENSHOTS ?? path.join(ROOT, 'media', 'screenshots'));
const EXTENSION_ID = 'agent-memory.agent-memory';
const T = 60_000;
const note = (m) => console.log(`walk: ${m}`);
const session = createSession({ name: 'walk', keep: process.env.VSCODE_TEST_KEEP === '1', note });
const ws = session.dir('workspace');
const userData = session.dir('user-data');
const extensions = session.dir('extensions');
const store = path.join(ws, '.agent-memory');
const cli = (...a) =>
  JSON.parse(
    execFileSync(process.execPath, [CLI, '--store', store, '--json', '--author', 'alice@example.com', ...a], { encoding: 'utf8' }),
  );
let page;
try {
  note(session.installExtension({ vsix: VSIX, userData, extensions }).trim().split('\n').pop());
  execFileSync('git', ['init', '-q', ws]);
  execFileSync('git', ['-C', ws, 'config', 'user.email', 'alice@example.com']);
  const authors = ['alice@example.com', 'bob@example.com', 'carol@example.com'];
  const now = Date.now();
  const lines = fs.readFileSync(path.join(ROOT, 'test/data/eval/memories.jsonl'), 'utf8').split('\n').filter(Boolean);
  const rows = lines.map((l, i) => {
    const m = JSON.parse(l);
    // One every 12 hours up to now, the file's last line newest; authors in turn.
    return {
      rowId: randomUUID(),
      id: randomUUID(),
      version: 1,
      op: 'create',
      description: m.description,
      tags: m.tags,
      content: m.content,
      changedAt: new Date(now - (lines.length - i) * 12 * 3600 * 1000).toISOString(),
      deletedAt: null,
      author: authors[i % 3],
      restoredFrom: null,
    };
  });
  const file = path.join(session.tmp, 'eval.jsonl');
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  cli('import', file);
  execFileSync('git', ['-C', ws, 'add', '-A']);
  execFileSync('git', ['-C', ws, 'commit', '-qm', 'memories']);
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'security.workspace.trust.enabled': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'telemetry.telemetryLevel': 'off',
      'workbench.colorTheme': 'Default Light Modern',
    }),
  );
  const server = await session.startServer({ userData, extensions, folder: ws });
  page = await session.openPage({ width: 1280, height: 760 });
  await page.goto(`http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(ws)}`);
  const shot = async (name, selectors, padding = 0, maxHeight = Infinity) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const r = await clip(page, { selectors, padding });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), clip: { ...r, height: Math.min(r.height, maxHeight) } });
    note(`shot ${name}`);
  };
  const vis = (sel, text) => {
    const l = page.locator(sel).filter({ visible: true });
    return (text ? l.filter({ hasText: text }) : l).first();
  };
  const SIDEBAR = '.part.sidebar';
  const ROW = `${SIDEBAR} .monaco-list-row`;
  await page.locator('.activitybar .action-item .action-label[aria-label="Agent Memory"]').click({ timeout: 90_000 });
  await vis(ROW, 'Today').waitFor({ timeout: T });
  // Widen the side bar a little.
  const box = await vis(SIDEBAR).boundingBox();
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 120, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const gitBefore = execFileSync('git', ['-C', ws, 'status', '--porcelain'], { encoding: 'utf8' });
  note(`git status after opening: ${JSON.stringify(gitBefore)}`);
  // 1. tooltip
  const second = page.locator(`${ROW}[aria-level="2"]`).filter({ visible: true }).nth(1);
  await second.hover();
  await vis('.monaco-hover, .workbench-hover', 'Version').waitFor({ timeout: T });
  await page.waitForTimeout(500);
  await shot('memories-view-tooltip', [SIDEBAR, '.workbench-hover-container, .monaco-hover'], 0, 520);
  await page.mouse.move(900, 600);
  await page.keyboard.press('Escape');
  await page.waitForTimeout(500);
  // 2. group by tag (title actions show while the header is hovered)
  const header = () => vis(`${SIDEBAR} .pane-header`, 'Memories');
  await header().hover();
  await vis(`${SIDEBAR} .action-label[aria-label="Group by Tag"]`).click({ timeout: T });
  await vis(ROW, 'Other tags').waitFor({ timeout: T });
  const groups = await page
    .locator(ROW)
    .filter({ visible: true })
    .evaluateAll((els) =>
      els.map((e) => `${e.querySelector('.label-name')?.textContent} ${e.querySelector('.label-description')?.textContent ?? ''}`),
    );
  note(`tag groups visible: ${groups.join(' | ')}`);
  await shot('group-by-tag', [SIDEBAR], 0, 560);
  // 3. search as you type
  await header().hover();
  await vis(`${SIDEBAR} .action-label[aria-label="Search Memories"]`).click({ timeout: T });
  await vis('.quick-input-widget .quick-input-box input').waitFor({ timeout: T });
  await page.keyboard.type('postgres connection pool', { delay: 30 });
  await vis('.quick-input-widget .monaco-list-row', 'Show the Results').waitFor({ timeout: T });
  await page.waitForTimeout(400);
  const picked = await page.locator('.quick-input-widget .monaco-list-row').filter({ visible: true }).allInnerTexts();
  note(`picker rows: ${picked.map((r) => r.replace(/\s+/g, ' ').slice(0, 90)).join('\n   ')}`);
  await shot('search-as-you-type', ['.quick-input-widget'], 12);
  await page.keyboard.press('Enter');
  await vis('.part.editor .tab.active').waitFor({ timeout: T });
  await vis('[id="status.editor.mode"]', 'Agent Memory').waitFor({ timeout: T });
  // 4. a refused save
  await vis('.part.editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nDeploy key for the pooler: AKIAQ3EXAMPLE7KEY4Z2', { delay: 5 });
  await page.keyboard.press('Control+S');
  await vis('.notifications-toasts .notification-toast')
    .waitFor({ timeout: T })
    .catch(() => note('no toast'));
  await page.keyboard.press('Control+Shift+M');
  await vis('.part.panel .markers-panel .monaco-list-row').waitFor({ timeout: T });
  await vis('.part.editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.waitForTimeout(800);
  const problems = await page.locator('.part.panel .markers-panel .monaco-list-row').filter({ visible: true }).allInnerTexts();
  note(`problems: ${problems.join(' | ')}`);
  await shot('refused-save', ['.part.editor', '.part.panel'], 0);
  // the host log
  const logs = path.join(userData, 'logs');
  const files = fs
    .readdirSync(logs, { recursive: true })
    .map((f) => path.join(logs, f))
    .filter((f) => f.endsWith('.log') && fs.statSync(f).isFile());
  const bad = [];
  for (const f of files)
    for (const e of fs.readFileSync(f, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/))
      if (/\[error\]/.test(e) && (e.includes(EXTENSION_ID) || e.includes('agentMemory') || f.includes(EXTENSION_ID)))
        bad.push(`${path.basename(f)}: ${e.slice(0, 400)}`);
  note(`host-log errors of ours: ${bad.length}\n${bad.join('\n')}`);
  note(`git status at the end: ${JSON.stringify(execFileSync('git', ['-C', ws, 'status', '--porcelain'], { encoding: 'utf8' }))}`);
} catch (err) {
  console.log('walk: FAILED', err);
  process.exitCode = 1;
  if (page) await page.screenshot({ path: path.join(session.tmp, 'failure.png') }).catch(() => {});
} finally {
  await session.close?.();
}
