import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { hasPassword } from '../../store/postgres/url';
import type { StoreSpec } from '../../platform/openStore';

export type Backend = 'workspace' | 'postgres';
export type TlsMode = 'off' | 'require' | 'verify';

/** The team database as the settings describe it (never with a password). */
export interface TeamDatabase {
  url: string;
  project: string;
  tls: TlsMode;
  caFile: string;
}

const SECTION = 'agentMemory';

/** Which store the settings choose. */
export function configuredBackend(): Backend {
  return vscode.workspace.getConfiguration(SECTION).get<string>('storage.backend') === 'postgres' ? 'postgres' : 'workspace';
}

export function teamDatabaseSettings(): TeamDatabase {
  const c = vscode.workspace.getConfiguration(SECTION);
  const tls = c.get<string>('postgres.tls');
  return {
    url: (c.get<string>('postgres.url') ?? '').trim(),
    project: (c.get<string>('postgres.project') ?? '').trim(),
    tls: tls === 'off' || tls === 'require' ? tls : 'verify',
    caFile: (c.get<string>('postgres.caFile') ?? '').trim(),
  };
}

/** Whether a settings change can change which store is open. */
export function affectsStore(e: vscode.ConfigurationChangeEvent): boolean {
  return ['storage', 'postgres', 'storePath'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`));
}

/** The SecretStorage key of a server's password: per URL, so a password never goes to another server. */
export function passwordKey(url: string): string {
  return `agentMemory.postgres.password:${url}`;
}

/** A reason the settings cannot work, in words a person acts on; undefined when they can. */
export function settingsProblem(db: TeamDatabase): string | undefined {
  if (!db.url) return vscode.l10n.t('No team database is set: run "Agent Memory: Connect to Team Database".');
  let url: URL;
  try {
    url = new URL(db.url);
  } catch {
    return vscode.l10n.t('agentMemory.postgres.url is not a URL; expected postgres://user@host:5432/database.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return vscode.l10n.t('agentMemory.postgres.url must start with postgres://.');
  if (hasPassword(db.url))
    return vscode.l10n.t(
      'agentMemory.postgres.url holds a password: remove it and run "Agent Memory: Connect to Team Database", which keeps it in the secret store.',
    );
  if (!db.project || db.project.length > 200)
    return vscode.l10n.t("Set agentMemory.postgres.project (1–200 characters): it keeps this repository's memories apart on the server.");
  return undefined;
}

/** The team database as a store to open, with the password and TLS; the CA file is read here so a missing one is a clear error. */
export function teamStoreSpec(db: TeamDatabase, password: string | undefined): StoreSpec {
  let ssl: NonNullable<Extract<StoreSpec, { kind: 'postgres' }>['pool']>['ssl'];
  if (db.tls === 'require') ssl = { rejectUnauthorized: false };
  if (db.tls === 'verify') {
    let ca: string | undefined;
    if (db.caFile) {
      try {
        ca = fs.readFileSync(db.caFile, 'utf8');
      } catch (err) {
        throw new Error(vscode.l10n.t('Cannot read agentMemory.postgres.caFile ({0}): {1}', db.caFile, (err as Error).message));
      }
    }
    ssl = ca ? { rejectUnauthorized: true, ca } : { rejectUnauthorized: true };
  }
  return { kind: 'postgres', url: db.url, project: db.project, pool: { ...(password ? { password } : {}), ...(ssl ? { ssl } : {}) } };
}
