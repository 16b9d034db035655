// What every run of a real VS Code here needs, shared by run.mjs (the extension-host suites) and
// vsix.mjs (the packaged extension): a temp folder with a HOME of its own, code-server (Node 24
// first on PATH) started on loopback and killed with everything it started, headless Chromium,
// and clean-up on exit or interruption. Why it works this way: ../../shared/notes/real-vscode-tests.md.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CODE_SERVER_BIN, NODE_HOME } from './paths.mjs';

/**
 * Makes the run's temp folder (removed at the end unless keep) and returns what a run uses.
 * @param {{ name: string, keep: boolean, note: (msg: string) => void }} options
 *   name: the temp folder's prefix; note: prints a line of this script's own
 */
export function createSession({ name, keep, note }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `agent-memory-${name}-`));
  const dir = (sub) => {
    const d = path.join(tmp, sub);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  /** No file of the run lands in the user's home: everything that looks there looks here. */
  const isolatedEnv = {
    HOME: dir('home'),
    XDG_CONFIG_HOME: dir('xdg-config'),
    XDG_DATA_HOME: dir('xdg-data'),
    XDG_CACHE_HOME: dir('xdg-cache'),
    XDG_RUNTIME_DIR: dir('xdg-runtime'),
  };
  /** code-server's environment: isolated, with Node 24 (which it requires) first on PATH. */
  const serverEnv = { ...process.env, ...isolatedEnv, PATH: `${path.join(NODE_HOME, 'bin')}${path.delimiter}${process.env.PATH}` };

  let server;
  let browser;
  /** Kills code-server and everything it started (extension host, watchers): its process group. */
  const killServer = (signal) => {
    if (server?.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, signal);
      } catch {
        /* already gone */
      }
    }
  };
  const removeTemp = () => {
    if (keep) note(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };
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

  return {
    tmp,
    dir,
    serverEnv,

    /**
     * `code-server --install-extension <vsix>` into extensions, as a person installs a .vsix.
     * Returns what it printed; throws with that output when it fails.
     */
    installExtension({ vsix, userData, extensions }) {
      try {
        return execFileSync(CODE_SERVER_BIN, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix], {
          env: serverEnv,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 120_000,
        });
      } catch (err) {
        throw new Error(`code-server --install-extension ${vsix} failed: ${err.stdout ?? ''}${err.stderr ?? err.message}`);
      }
    },

    /**
     * Starts code-server on a free loopback port with folder open and waits for /healthz.
     * args: extra options (e.g. --vscode-option enable-smoke-test-driver). Its output goes to
     * <tmp>/code-server.log. Returns { port, log, exited } (exited resolves with { code, signal }).
     */
    async startServer({ userData, extensions, folder, args = [] }) {
      const port = await freePort();
      const log = path.join(tmp, 'code-server.log');
      const out = fs.openSync(log, 'a');
      server = spawn(
        CODE_SERVER_BIN,
        [
          '--bind-addr',
          `127.0.0.1:${port}`,
          '--auth',
          'none',
          '--disable-telemetry',
          '--disable-update-check',
          '--user-data-dir',
          userData,
          '--extensions-dir',
          extensions,
          ...args,
          folder,
        ],
        {
          cwd: folder,
          env: serverEnv,
          stdio: ['ignore', out, out],
          detached: true, // its own process group, killed as a whole
        },
      );
      fs.closeSync(out);
      const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
      await waitForServer(port, exited, log);
      return { port, log, exited };
    },

    /** Headless Debian Chromium with one page of the given size. */
    async openPage({ width = 1400, height = 900 } = {}) {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        env: { ...process.env, ...isolatedEnv },
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      return browser.newPage({ viewport: { width, height } });
    },

    /** Closes the browser, stops the server (SIGTERM, then SIGKILL after 5 s), removes the temp folder. */
    async close() {
      await browser?.close().catch(() => {});
      if (server && server.exitCode === null && server.signalCode === null) {
        const gone = new Promise((resolve) => server.once('exit', resolve));
        killServer('SIGTERM');
        const t = setTimeout(() => killServer('SIGKILL'), 5000);
        await gone;
        clearTimeout(t);
      }
      removeTemp();
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForServer(port, exited, log) {
  let dead;
  exited.then((e) => {
    dead = e;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (dead) {
      printTail(log);
      throw new Error(`code-server exited at start (${dead.signal ?? dead.code})`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  printTail(log);
  throw new Error('code-server did not answer /healthz within 60 s');
}

/** Prints the last n lines of a log file, for a failure's context. */
export function printTail(file, n = 30) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n') : '';
  if (text) console.log(`--- last lines of ${path.basename(file)} ---\n${text}\n---`);
}
