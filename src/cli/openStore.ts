import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../core/errors';
import { defaultStoreDir } from '../platform/storeLocation';
import { hasPassword } from '../store/postgres/connection';
import { PgStore } from '../store/postgres/pgStore';
import { SqlJsStore } from '../store/sqljs/sqljsStore';
import type { Store, StoreWarning } from '../core/ports/store';

/** Where memories live: a workspace store folder, or a project in a PostgreSQL database. */
export type StoreSpec = { kind: 'dir'; dir: string } | { kind: 'postgres'; url: string; project: string };

/** The project key when none is given: set AGENT_MEMORY_PROJECT (or --project) per repository. */
export const DEFAULT_PROJECT = 'default';

export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/**
 * A store location as the user wrote it (a folder or a postgres:// URL). A URL holding a
 * password is refused without repeating it: the password belongs in PGPASSWORD or ~/.pgpass,
 * not in shell history, MCP configuration files or process listings.
 */
export function parseStoreSpec(field: string, value: string, project: string | undefined, cwd: string): StoreSpec {
  if (!isPostgresUrl(value)) return { kind: 'dir', dir: path.resolve(cwd, value) };
  if (hasPassword(value)) {
    throw new ValidationError(field, 'the connection string holds a password; leave it out and set PGPASSWORD (or use ~/.pgpass)');
  }
  const key = (project ?? DEFAULT_PROJECT).trim();
  if (!key || key.length > 200) throw new ValidationError('project', 'must be 1–200 characters');
  return { kind: 'postgres', url: value, project: key };
}

/**
 * The CLI's store: --store (a folder or a postgres:// URL), else AGENT_MEMORY_DATABASE_URL,
 * else AGENT_MEMORY_DIR, else the workspace default. The project key: --project, else
 * AGENT_MEMORY_PROJECT, else "default".
 */
export function resolveStoreSpec(flags: { store?: string; project?: string }, env: NodeJS.ProcessEnv, cwd: string): StoreSpec {
  const project = flags.project ?? (env.AGENT_MEMORY_PROJECT || undefined);
  if (flags.store !== undefined) return parseStoreSpec('store', flags.store, project, cwd);
  if (env.AGENT_MEMORY_DATABASE_URL) return parseStoreSpec('AGENT_MEMORY_DATABASE_URL', env.AGENT_MEMORY_DATABASE_URL, project, cwd);
  return { kind: 'dir', dir: path.resolve(cwd, env.AGENT_MEMORY_DIR ?? defaultStoreDir(cwd)) };
}

/** The .wasm that esbuild.mjs copies next to dist/cli.js; from source, sql.js finds its own. */
function bundledWasm(): string | undefined {
  const file = path.join(__dirname, 'sql-wasm.wasm');
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Opens the store of `spec`. `longLived` (the MCP server): PostgreSQL searches use a local
 * index loaded in the background; otherwise every search is the server's (a one-shot command
 * would wait at close for a load it never uses).
 */
export function openStore(spec: StoreSpec, onWarning: (w: StoreWarning) => void, options: { longLived?: boolean } = {}): Promise<Store> {
  return spec.kind === 'postgres'
    ? PgStore.open({ connectionString: spec.url, project: spec.project, onWarning, localIndex: options.longLived ? 'background' : 'off' })
    : SqlJsStore.open({ dir: spec.dir, wasmPath: bundledWasm(), onWarning });
}
