import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../core/errors';
import { defaultStoreDir } from './storeLocation';
import { hasPassword } from '../store/postgres/url';
import type { PgStoreOptions } from '../store/postgres/pgStore';
import type { GrantResult } from '../store/postgres/roles';
import { SqlJsStore } from '../store/sqljs/sqljsStore';
import type { Store, StoreWarning } from '../core/ports/store';

/**
 * Where memories live: a workspace store folder, or a project in a PostgreSQL database (with
 * the connection's password and TLS settings when the caller has them: VS Code keeps them in
 * SecretStorage and settings; the CLI leaves them to PGPASSWORD, ~/.pgpass and the URL).
 */
export type StoreSpec = { kind: 'dir'; dir: string } | { kind: 'postgres'; url: string; project: string; pool?: PgStoreOptions['pool'] };

/** How to open a store. */
export interface OpenStoreOptions {
  /** What the store noticed and set aside (a torn journal line, a stale snapshot): logged by the caller. */
  onWarning?: (w: StoreWarning) => void;
  /**
   * PostgreSQL only: `background` loads a local search index (a client serving many calls: VS
   * Code, the MCP server); `off` ranks every search on the server (a one-shot command would
   * wait at close for a load it never uses). Default `off`.
   */
  localIndex?: 'background' | 'off';
}

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

/**
 * The .wasm that esbuild.mjs copies into dist/, next to the bundle this code runs in (dist/cli.js
 * or dist/extension.js); from source, sql.js finds its own.
 */
export function bundledWasm(): string | undefined {
  const file = path.join(__dirname, 'sql-wasm.wasm');
  return fs.existsSync(file) ? file : undefined;
}

/** Where a store is, for messages: the folder, or the server (without its query) and project. */
export function describeStore(spec: StoreSpec): string {
  return spec.kind === 'dir' ? spec.dir : `${spec.url.replace(/\?.*$/, '')} (project ${spec.project})`;
}

/**
 * The one place a store is opened, for every entry point (CLI, MCP server, VS Code). pg is
 * loaded only for a database: loading it costs a one-shot CLI call on a folder store more
 * than its whole search (bench: --only cli).
 */
export async function openStore(spec: StoreSpec, options: OpenStoreOptions = {}): Promise<Store> {
  const { onWarning } = options;
  if (spec.kind === 'dir') return SqlJsStore.open({ dir: spec.dir, wasmPath: bundledWasm(), onWarning });
  const { PgStore } = await import('../store/postgres/pgStore');
  return PgStore.open({
    connectionString: spec.url,
    project: spec.project,
    onWarning,
    localIndex: options.localIndex ?? 'off',
    ...(spec.pool ? { pool: spec.pool } : {}),
  });
}

/**
 * Sets a teammate's role up on the team database `spec` names (`agent-memory db grant`): the
 * database then enforces what it may do, whatever client or SQL it uses. A workspace folder has
 * no roles to set up, and is refused with why.
 */
export async function grantDatabaseRole(spec: StoreSpec, role: string, approver: boolean): Promise<GrantResult> {
  if (spec.kind !== 'postgres')
    throw new ValidationError(
      'store',
      `${describeStore(spec)} is a workspace folder: it has no roles (who wrote is what each client declares); give --store postgres://… or set AGENT_MEMORY_DATABASE_URL`,
    );
  const { PgStore } = await import('../store/postgres/pgStore');
  const store = await PgStore.open({ connectionString: spec.url, project: spec.project, localIndex: 'off' });
  try {
    return await store.grantMember(role, approver);
  } finally {
    await store.close();
  }
}
