import * as path from 'node:path';
import * as vscode from 'vscode';
import { copyStore, type CopyResult } from '../../core/storeCopy';
import { openStore } from '../../platform/openStore';
import type { StoreSession } from '../session/storeSession';
import {
  configuredBackend,
  passwordKey,
  settingsProblem,
  type TeamDatabase,
  teamDatabaseSettings,
  teamStoreSpec,
  type TlsMode,
} from './teamSettings';

/** What "Connect to Team Database" asks for; any field given here is not asked (for scripts and tests). */
export interface ConnectArgs {
  url?: string;
  project?: string;
  tls?: TlsMode;
  /** Empty: no stored password (PGPASSWORD, ~/.pgpass or none). */
  password?: string;
  /** Copy the workspace store (every memory version, episode, fact, skill and proposal) to the database; asked when not given. */
  copyWorkspaceMemories?: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * "Agent Memory: Connect to Team Database" asks for the server, the project key, TLS and the
 * password, tries the connection, and only when it works saves the settings (workspace) and
 * the password (SecretStorage, per server URL): a failed attempt changes nothing.
 * "Agent Memory: Use the Workspace Store" switches back; the password stays stored.
 */
export function registerTeamCommands(context: vscode.ExtensionContext, session: StoreSession, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.connectTeamDatabase', async (args?: ConnectArgs) => {
      try {
        return await connect(context, session, log, args ?? {});
      } catch (err) {
        log.error(err as Error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', (err as Error).message));
        return false;
      }
    }),
    vscode.commands.registerCommand('agentMemory.useWorkspaceStore', async () => {
      await settings().update('storage.backend', 'workspace', target());
      await session.reopenIfChanged();
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Agent Memory: using the workspace store'), 4000);
    }),
    vscode.commands.registerCommand('agentMemory.showLog', () => log.show()),
  );
}

const settings = () => vscode.workspace.getConfiguration('agentMemory');
const target = () => (vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);

/** Returns true when connected and saved, false when cancelled or refused. */
async function connect(
  context: vscode.ExtensionContext,
  session: StoreSession,
  log: vscode.LogOutputChannel,
  args: ConnectArgs,
): Promise<boolean> {
  const before = teamDatabaseSettings();
  let password = args.password;
  let url =
    args.url ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Team database (1/4): server'),
      prompt: vscode.l10n.t('postgres://user@host:5432/database. A password typed here is moved to the secret store.'),
      // An example is a placeholder, not a value: Enter must not accept a server that does not exist.
      value: before.url,
      placeHolder: 'postgres://user@host:5432/agent_memory',
      ignoreFocusOut: true,
      validateInput: (v) =>
        /^postgres(ql)?:\/\/[^/]+/i.test(v.trim()) ? undefined : vscode.l10n.t('Expected postgres://user@host:5432/database'),
    }));
  if (url === undefined) return false;
  // A password in the URL would end up in settings.json: keep it in SecretStorage instead.
  const parsed = new URL(url.trim());
  if (parsed.password) {
    password ??= decodeURIComponent(parsed.password);
    parsed.password = '';
  }
  if (parsed.searchParams.has('password')) {
    password ??= parsed.searchParams.get('password') ?? '';
    parsed.searchParams.delete('password');
  }
  url = parsed.toString();

  const folderName = vscode.workspace.workspaceFolders?.[0] ? path.basename(vscode.workspace.workspaceFolders[0].uri.fsPath) : '';
  const project =
    args.project ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Team database (2/4): project key'),
      prompt: vscode.l10n.t(
        "Keeps this repository's memories apart from others on the same server. Use the same key in the CLI and MCP server (AGENT_MEMORY_PROJECT).",
      ),
      value: before.project || folderName,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim().length >= 1 && v.trim().length <= 200 ? undefined : vscode.l10n.t('1–200 characters')),
    }));
  if (project === undefined) return false;

  const tls = args.tls ?? (await pickTls(LOOPBACK.has(parsed.hostname) ? 'off' : before.tls));
  if (tls === undefined) return false;

  if (password === undefined) {
    password = await vscode.window.showInputBox({
      title: vscode.l10n.t(
        'Team database (4/4): password for {0}',
        decodeURIComponent(parsed.username) || vscode.l10n.t('the default user'),
      ),
      prompt: vscode.l10n.t(
        "Kept in VS Code's secret storage, never in settings. Leave empty to use PGPASSWORD, ~/.pgpass or no password.",
      ),
      password: true,
      ignoreFocusOut: true,
    });
    if (password === undefined) return false;
  }

  const db: TeamDatabase = { url, project: project.trim(), tls, caFile: before.caFile };
  const problem = settingsProblem(db);
  if (problem) throw new Error(problem);
  // Asked before anything changes; copied after the switch, so a memory an agent saves
  // meanwhile goes to the team database rather than staying behind in the workspace.
  const copyFrom = await workspaceToCopy(session, log, args.copyWorkspaceMemories);
  if (copyFrom === null) return false;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Connecting to the team database…') },
    async () => (await openStore(teamStoreSpec(db, password || undefined), { onWarning: (w) => log.warn(w.message) })).close(),
  );
  if (password) await context.secrets.store(passwordKey(url), password);
  else await context.secrets.delete(passwordKey(url));
  const c = settings();
  await c.update('postgres.url', url, target());
  await c.update('postgres.project', db.project, target());
  await c.update('postgres.tls', tls, target());
  await c.update('storage.backend', 'postgres', target());
  // Now, not when the settings' change event arrives: the next call must reach the new store.
  await session.reopenIfChanged();
  log.info(`connected to the team database ${url} (project ${db.project})`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Agent Memory now uses the team database {0} (project {1}).', url, db.project));
  if (copyFrom) {
    await copyWorkspace(session, copyFrom, log).catch((err: Error) => {
      log.error(err);
      void vscode.window.showErrorMessage(vscode.l10n.t('Agent Memory: {0}', err.message));
    });
  }
  return true;
}

async function pickTls(preferred: TlsMode): Promise<TlsMode | undefined> {
  const items: Array<vscode.QuickPickItem & { mode: TlsMode }> = [
    {
      mode: 'verify',
      label: vscode.l10n.t('TLS, certificate verified'),
      detail: vscode.l10n.t('For a server on the network (a custom CA goes in agentMemory.postgres.caFile).'),
    },
    {
      mode: 'require',
      label: vscode.l10n.t('TLS, certificate not verified'),
      detail: vscode.l10n.t('Encrypted, but an impostor server would not be noticed.'),
    },
    { mode: 'off', label: vscode.l10n.t('No TLS'), detail: vscode.l10n.t('Only for a server on this machine.') },
  ];
  items.sort((a, b) => Number(b.mode === preferred) - Number(a.mode === preferred));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Team database (3/4): connection security'),
    ignoreFocusOut: true,
  });
  return pick?.mode;
}

/**
 * Whether to copy the workspace store to the team database: its folder, undefined for no,
 * null when the person cancelled. Asked only when the workspace store is in use and holds
 * memories or records of the playbook's tiers; a workspace store that cannot be read is logged and not offered.
 */
async function workspaceToCopy(
  session: StoreSession,
  log: vscode.LogOutputChannel,
  copy: boolean | undefined,
): Promise<string | undefined | null> {
  const dir = session.storeDir();
  if (copy === false || !dir || configuredBackend() !== 'workspace') return undefined;
  try {
    const { memories, store } = await session.getServices();
    const hasMemories =
      (await memories.list({ limit: 1 })).items.length > 0 || (await memories.list({ deleted: true, limit: 1 })).items.length > 0;
    const kinds = ['episode', 'fact', 'skill', 'proposal'] as const;
    const hasRecords = async () =>
      (await Promise.all(kinds.map((kind) => store.records.query({ kind, limit: 1 })))).some((r) => r.length > 0);
    if (!hasMemories && !(await hasRecords())) return undefined;
  } catch (err) {
    log.warn(`the workspace store could not be read, so copying it is not offered: ${(err as Error).message}`);
    return undefined;
  }
  if (copy === true) return dir;
  const yes = vscode.l10n.t('Connect and Copy');
  const no = vscode.l10n.t('Connect Only');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t("Copy this workspace's memories to the team database?"),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Every memory version is copied with its history, with the episodes, facts, skills and proposals; what is already there is skipped. The workspace store is left as it is.',
      ),
    },
    yes,
    no,
  );
  return answer === yes ? dir : answer === no ? undefined : null;
}

/**
 * Copies the workspace store in `dir` into the store now in use (the team database): every
 * memory version and every record of the playbook's tiers, with the copy `migrate` uses
 * (src/core/storeCopy.ts). Stored rows are skipped: a second copy, or a teammate's copy of the
 * same git-shared journal, adds nothing twice; an interrupted copy is completed by running it again.
 */
async function copyWorkspace(session: StoreSession, dir: string, log: vscode.LogOutputChannel): Promise<void> {
  const source = await openStore({ kind: 'dir', dir }, { onWarning: (w) => log.warn(w.message) });
  let sofar: CopyResult = { versions: { added: 0, skipped: 0 }, records: { added: 0, skipped: 0 } };
  try {
    const target = (await session.getServices()).store;
    sofar = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Copying memories to the team database…') },
      () => copyStore(source, target, { onProgress: (p) => (sofar = p) }),
    );
  } catch (err) {
    const done = sofar.versions.added + sofar.versions.skipped + sofar.records.added + sofar.records.skipped;
    throw new Error(
      vscode.l10n.t(
        'Copying stopped after {0} rows ({1} added); run "Connect to Team Database" again to copy the rest: {2}',
        done,
        sofar.versions.added + sofar.records.added,
        (err as Error).message,
      ),
    );
  } finally {
    await source.close();
  }
  const { versions, records } = sofar;
  log.info(
    `copied the workspace store to the team database: ${versions.added} memory versions and ${records.added} records added, ${versions.skipped + records.skipped} rows already there`,
  );
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      '{0} memory versions and {1} episodes, facts, skills and proposals copied to the team database ({2} were there already).',
      versions.added,
      records.added,
      versions.skipped + records.skipped,
    ),
  );
}
