// Runs the suites of test/vscode/ inside a real VS Code extension host: code-server (VS Code
// served to a browser, with its real Node extension host) driven by headless Chromium.
// Builds nothing: `npm test` (node esbuild.mjs) builds dist/ and dist-test/ first, and
// scripts/vscode-test/install.sh installs code-server, Node 24 and Chromium.
// Prints the suites' output, then a last line "N passed, N failed"; exits non-zero on failure.
// Env: VSCODE_TEST_TIMEOUT_MS (default 300000), VSCODE_TEST_KEEP=1 keeps the temp folder
// (workspace, user data, logs, screenshot) for a look afterwards, VSCODE_TEST_VERBOSE=1 prints
// every line the workbench logs, AGENT_MEMORY_SCREENSHOTS=DIR saves the README's screenshots
// there (media/screenshots). Why it works this way: ../../shared/notes/real-vscode-tests.md.
// Besides our extension (the development extension), the scripted test model
// (test/vscode/scripted-model/) is installed into the run's extensions folder for the Agent-mode
// tests; those tests ask this script for clicks and keys through the protocol of driver.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createDriver, DRIVER_PREFIX } from './driver.mjs';
import { CHROMIUM, CODE_SERVER_BIN, NODE_HOME } from './paths.mjs';
import { prepareWorkspace } from './workspace.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TIMEOUT_MS = Number(process.env.VSCODE_TEST_TIMEOUT_MS || 300_000);
const KEEP = process.env.VSCODE_TEST_KEEP === '1';
const VERBOSE = process.env.VSCODE_TEST_VERBOSE === '1';
/** As in test/vscode/output.ts (a .ts file this plain script cannot import). */
const MARK = '[vscode-tests] ';
const RESULT = 'result ';
const CLI = path.join(ROOT, 'dist', 'cli.js');
const TESTS = path.join(ROOT, 'dist-test', 'vscode', 'index.js');
const SCRIPTED_MODEL = path.join(ROOT, 'test', 'vscode', 'scripted-model');
const SCREENSHOTS = process.env.AGENT_MEMORY_SCREENSHOTS ? path.resolve(process.env.AGENT_MEMORY_SCREENSHOTS) : undefined;

const started = Date.now();
const note = (msg) => console.log(`vscode-test: ${msg}`);

/** Ends the run: the counts line is always the last line printed. */
function finish(passed, failed, code) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = code;
}

// --- prerequisites -------------------------------------------------------------------------
const missing = [
  [path.join(ROOT, 'dist', 'extension.js'), 'run `node esbuild.mjs` (npm test does)'],
  [CLI, 'run `node esbuild.mjs` (npm test does)'],
  [TESTS, 'run `node esbuild.mjs` (npm test does)'],
  [CODE_SERVER_BIN, 'run `bash scripts/vscode-test/install.sh`'],
  [path.join(NODE_HOME, 'bin', 'node'), 'run `bash scripts/vscode-test/install.sh`'],
  [CHROMIUM, 'run `bash scripts/vscode-test/install.sh`'],
].filter(([f]) => !fs.existsSync(f));
if (missing.length) {
  for (const [f, fix] of missing) note(`missing ${f}: ${fix}`);
  finish(0, 1, 1);
  process.exit();
}

// --- temp folders: workspace, user data, and a HOME of its own -----------------------------
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-memory-vscode-test-'));
const dir = (name) => { const d = path.join(tmp, name); fs.mkdirSync(d, { recursive: true }); return d; };
const ws = dir('workspace');
const userData = dir('user-data');
const isolatedEnv = {
  HOME: dir('home'),
  XDG_CONFIG_HOME: dir('xdg-config'),
  XDG_DATA_HOME: dir('xdg-data'),
  XDG_CACHE_HOME: dir('xdg-cache'),
  XDG_RUNTIME_DIR: dir('xdg-runtime'),
};

let server;
let browser;
/** Kills code-server and everything it started (extension host, watchers): its process group. */
function killServer(signal) {
  if (server?.exitCode === null && server.signalCode === null) {
    try { process.kill(-server.pid, signal); } catch { /* already gone */ }
  }
}
function removeTemp() {
  if (KEEP) note(`kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
}
// Interrupted: Playwright's own exit handler kills Chromium; we kill the server and clean up.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    note(`interrupted (${sig})`);
    killServer('SIGKILL');
    removeTemp();
    process.exit(130);
  });
}
process.once('exit', () => killServer('SIGKILL'));

try {
  // driver: where this script answers the host's driver requests (test/vscode/driver.ts).
  const driver = { answers: path.join(tmp, 'driver'), screenshots: Boolean(SCREENSHOTS) };
  prepareWorkspace({ ws, userData, cli: CLI, driver });

  // The scripted test model goes into the extensions folder as if installed: the web workbench
  // keeps the payload in a Map, so a second extensionDevelopmentPath would replace ours. With no
  // extensions.json there yet, code-server registers what the folder holds when it starts.
  const extensions = dir('extensions');
  const model = JSON.parse(fs.readFileSync(path.join(SCRIPTED_MODEL, 'package.json'), 'utf8'));
  fs.cpSync(SCRIPTED_MODEL, path.join(extensions, `${model.publisher}.${model.name}-${model.version}`), { recursive: true });

  const port = await freePort();
  const serverLog = path.join(tmp, 'code-server.log');
  const serverOut = fs.openSync(serverLog, 'a');
  server = spawn(CODE_SERVER_BIN, [
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--user-data-dir', userData, '--extensions-dir', extensions,
    // Without this the test payload in the URL is silently ignored.
    '--vscode-option', 'enable-smoke-test-driver',
    ws,
  ], {
    cwd: ws,
    env: { ...process.env, ...isolatedEnv, PATH: `${path.join(NODE_HOME, 'bin')}${path.delimiter}${process.env.PATH}` },
    stdio: ['ignore', serverOut, serverOut],
    detached: true, // its own process group, killed as a whole
  });
  fs.closeSync(serverOut);
  const serverExited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

  await waitForServer(port, serverExited, serverLog);
  note(`code-server up on 127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, ...isolatedEnv },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

  // The workbench reports everything it logs, the extension host's console included, through
  // codeAutomationLog, and the end of the tests through codeAutomationExit, when the page
  // defines them. Messages of the suites start with MARK (test/vscode/output.ts).
  const ours = [];
  let others = 0;
  let exited;
  const exit = new Promise((resolve) => { exited = resolve; });
  const drive = createDriver(page, { answers: driver.answers, screenshots: SCREENSHOTS, failures: path.join(tmp, 'failures'), note });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.map(String).join(' ') : String(args);
    if (text.startsWith(DRIVER_PREFIX)) drive(text);
    else if (text.startsWith(MARK)) ours.push(text.slice(MARK.length));
    else others++;
    if (VERBOSE) console.log(`[${type}] ${text}`);
  });
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    if (KEEP && Array.isArray(logs)) {
      for (const { relativePath, contents } of logs) {
        const file = path.join(tmp, 'workbench-logs', relativePath);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, String(contents));
      }
    }
    exited({ code });
  });
  page.on('crash', () => exited({ error: 'the browser page crashed' }));

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(ROOT)], ['extensionTestsPath', remote(TESTS)]];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);

  let timer;
  const outcome = await Promise.race([
    exit,
    serverExited.then(({ code, signal }) => ({ error: `code-server exited (${signal ?? code}) before the tests ended` })),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve({
        error: `timed out after ${TIMEOUT_MS / 1000} s: the extension host never reported the end of the tests` +
          ' (VSCODE_TEST_TIMEOUT_MS changes the limit)',
      }), TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (KEEP) await page.screenshot({ path: path.join(tmp, 'screenshot.png') }).catch(() => {});

  const resultText = ours.find((t) => t.startsWith(RESULT));
  const result = resultText ? JSON.parse(resultText.slice(RESULT.length)) : undefined;
  for (const t of ours) if (t !== resultText) console.log(t);
  if (outcome.error) {
    note(outcome.error);
    if (!VERBOSE) printTail(serverLog);
  }
  const code = outcome.error ? 1 : outcome.code;
  const passed = result?.passed ?? 0;
  let failed = result?.failed ?? 0;
  if (code !== 0 && failed === 0) {
    // The suites never ran to the end (index.ts threw, the host crashed, a timeout): one failure.
    note(result ? `the extension host exited with code ${code}` : 'the suites did not report their results');
    failed = 1;
  }
  if (code !== 0 && !VERBOSE) note(`${others} other lines the workbench logged are not shown; VSCODE_TEST_VERBOSE=1 shows them`);
  note(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await shutdown();
  finish(passed, failed, code === 0 && failed === 0 ? 0 : 1);
} catch (err) {
  note(`could not run the tests: ${err?.stack ?? err}`);
  await shutdown();
  finish(0, 1, 1);
}

async function shutdown() {
  await browser?.close().catch(() => {});
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise((resolve) => server.once('exit', resolve));
    killServer('SIGTERM');
    const t = setTimeout(() => killServer('SIGKILL'), 5000);
    await gone;
    clearTimeout(t);
  }
  removeTemp();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function waitForServer(port, serverExited, log) {
  let dead;
  serverExited.then((e) => { dead = e; });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (dead) { printTail(log); throw new Error(`code-server exited at start (${dead.signal ?? dead.code})`); }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  printTail(log);
  throw new Error('code-server did not answer /healthz within 60 s');
}

function printTail(file, n = 30) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n') : '';
  if (text) console.log(`--- last lines of ${path.basename(file)} ---\n${text}\n---`);
}
