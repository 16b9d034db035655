// `npm run test:electron`: the extension-host suites of test/vscode/ under the ecosystem's
// standard runner, @vscode/test-electron, which downloads VS Code desktop (stable) into
// .vscode-test/ and starts it with our extension as the development extension. For contributors
// whose machines can download VS Code; ours cannot (only the npm registry and Debian are
// reachable), which is why `npm test` runs the same suites in code-server instead
// (scripts/vscode-test/run.mjs). Not part of `npm test`.
//
// The Agent-mode suite (agentMode.test.ts) needs run.mjs's Playwright driver for its clicks and
// is skipped here; everything else runs as in code-server. Build first: `node esbuild.mjs`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { prepareWorkspace } from './vscode-test/workspace.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const TESTS = path.join(ROOT, 'dist-test', 'vscode', 'index.js');
const CLI = path.join(ROOT, 'dist', 'cli.js');

for (const f of [TESTS, CLI, path.join(ROOT, 'dist', 'extension.js')]) {
  if (!fs.existsSync(f)) {
    console.error(`test:electron: missing ${f}: run \`node esbuild.mjs\` first`);
    process.exit(1);
  }
}

// The same workspace as run.mjs prepares, without a driver: the Agent-mode suite skips itself.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-memory-electron-test-'));
const ws = path.join(tmp, 'workspace');
const userData = path.join(tmp, 'user-data');
prepareWorkspace({ ws, userData, cli: CLI });

let code = 1;
try {
  code = await runTests({
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: TESTS,
    launchArgs: [ws, '--user-data-dir', userData, '--extensions-dir', path.join(tmp, 'extensions'), '--disable-workspace-trust'],
  });
} catch (err) {
  const msg = String(err?.message ?? err);
  console.error(`test:electron: ${msg}`);
  if (/download|getaddrinfo|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|fetch failed|socket/i.test(msg)) {
    console.error(
      'test:electron: VS Code could not be downloaded (update.code.visualstudio.com must be reachable).' +
        ' Where it is not, `npm test` runs the same suites in code-server (scripts/vscode-test/).',
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
}
process.exitCode = code === 0 ? 0 : 1;
