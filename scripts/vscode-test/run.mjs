// Runs the suites of test/vscode/ inside a real VS Code extension host: code-server (VS Code
// served to a browser, with its real Node extension host) driven by headless Chromium.
// Builds nothing: `npm test` (node esbuild.mjs) builds dist/ and dist-test/ first, and
// scripts/vscode-test/install.sh installs code-server, Node 24 and Chromium.
// Prints the suites' output, then a last line "N passed, N failed"; exits non-zero on failure.
// Env: VSCODE_TEST_TIMEOUT_MS (default 300000), VSCODE_TEST_KEEP=1 keeps the temp folder
// (workspace, user data, logs, screenshot) for a look afterwards, VSCODE_TEST_VERBOSE=1 prints
// every line the workbench logs, AGENT_MEMORY_SCREENSHOTS=DIR saves the README's screenshots
// there (media/screenshots), VSCODE_TEST_SUITES=review,tools runs only those suites of test/vscode/. Why it works this way: ../../shared/notes/real-vscode-tests.md.
// Besides our extension (the development extension), the scripted test model
// (test/vscode/scripted-model/) is installed into the run's extensions folder for the Agent-mode
// tests; those tests ask this script for clicks and keys through the protocol of driver.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { createDriver, DRIVER_PREFIX } from './driver.mjs';
import { CHROMIUM, CODE_SERVER_BIN, NODE_HOME } from './paths.mjs';
import { createSession, printTail } from './session.mjs';
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

// --- temp folders: workspace, user data, and a HOME of its own (session.mjs) ----------------
const session = createSession({ name: 'vscode-test', keep: KEEP, note });
const { tmp, dir } = session;
const ws = dir('workspace');
const userData = dir('user-data');

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

  const {
    port,
    log: serverLog,
    exited: serverExited,
  } = await session.startServer({
    userData,
    extensions,
    folder: ws,
    // Without this the test payload in the URL is silently ignored.
    args: ['--vscode-option', 'enable-smoke-test-driver'],
  });
  note(`code-server up on 127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const page = await session.openPage({ width: 1400, height: 900 });

  // The workbench reports everything it logs, the extension host's console included, through
  // codeAutomationLog, and the end of the tests through codeAutomationExit, when the page
  // defines them. Messages of the suites start with MARK (test/vscode/output.ts).
  const ours = [];
  let others = 0;
  let exited;
  const exit = new Promise((resolve) => {
    exited = resolve;
  });
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
  const payload = [
    ['extensionDevelopmentPath', remote(ROOT)],
    ['extensionTestsPath', remote(TESTS)],
  ];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);

  let timer;
  const outcome = await Promise.race([
    exit,
    serverExited.then(({ code, signal }) => ({ error: `code-server exited (${signal ?? code}) before the tests ended` })),
    new Promise((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            error:
              `timed out after ${TIMEOUT_MS / 1000} s: the extension host never reported the end of the tests` +
              ' (VSCODE_TEST_TIMEOUT_MS changes the limit)',
          }),
        TIMEOUT_MS,
      );
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
  await session.close();
  finish(passed, failed, code === 0 && failed === 0 ? 0 : 1);
} catch (err) {
  note(`could not run the tests: ${err?.stack ?? err}`);
  await session.close();
  finish(0, 1, 1);
}
