import * as vscode from 'vscode';
import { when } from '../shared/times';
import { parseSkillUri, skillDraftUri, skillUri } from './skillUris';
import type { StoreChanges } from '../session/storeChanges';
import { reportingCommand } from '../memories/target';
import type { PlaybookAccess } from '../session/windowServices';
import type { SkillNode } from './skillsView';

/** The skill a command is about: a Skills view item, `{ name }`, or the skill document in the active editor. */
function skillName(arg: unknown): string | undefined {
  if (arg && typeof arg === 'object' && typeof (arg as SkillNode).name === 'string') return (arg as SkillNode).name;
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const path = uri ? parseSkillUri(uri) : undefined;
  if (path && path.kind !== 'draft') return path.name;
  void vscode.window.showInformationMessage(vscode.l10n.t('Run this on a skill in the Skills view.'));
  return undefined;
}

const YAML_FILTER = { YAML: ['yaml', 'yml'] };

/**
 * The commands of the Skills view: new skill (a YAML draft whose first save creates it),
 * import and export YAML files, delete, history, and proposing skills from the recorded
 * episodes (drafts go to Pending, never straight into the skills).
 */
export function registerSkillCommands(
  context: vscode.ExtensionContext,
  access: PlaybookAccess,
  changes: StoreChanges,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);
  const skills = async () => (await access.getPlaybook()).skills;

  context.subscriptions.push(
    command('agentMemory.newSkill', async () => {
      // Unique across sessions: VS Code restores open drafts after a reload.
      await vscode.window.showTextDocument(skillDraftUri(Date.now().toString(36)), { preview: false });
    }),

    command('agentMemory.importSkill', async () => {
      const [file] =
        (await vscode.window.showOpenDialog({ title: vscode.l10n.t('Import Skill YAML'), canSelectMany: false, filters: YAML_FILTER })) ??
        [];
      if (!file) return;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      const out = await (await skills()).importYaml(text);
      changes.fireSoon(0);
      void vscode.window.showInformationMessage(
        out.changed
          ? vscode.l10n.t('Imported the skill "{0}" as version {1}.', out.name, out.version)
          : vscode.l10n.t('The skill "{0}" already holds this playbook (version {1}): nothing was written.', out.name, out.version),
      );
    }),

    command('agentMemory.exportSkill', async (arg) => {
      const name = skillName(arg);
      if (!name) return;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Skill YAML'),
        filters: YAML_FILTER,
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${name}.yaml`) } : {}),
      });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(await (await skills()).exportYaml(name)));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Skill exported to {0}', target.fsPath), 4000);
    }),

    command('agentMemory.deleteSkill', async (arg) => {
      const name = skillName(arg);
      if (!name) return;
      const s = await (await skills()).read({ name });
      const yes = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the skill "{0}" (version {1})?', s.name, s.version),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Agents will no longer find it. Its versions stay in the history; saving a skill with this name brings it back.',
          ),
        },
        yes,
      );
      if (answer !== yes) return;
      await (await skills()).delete(name, { expectedVersion: s.version });
      changes.fireSoon(0);
    }),

    command('agentMemory.showSkillHistory', async (arg) => {
      const name = skillName(arg);
      if (!name) return;
      const history = await (await skills()).history(name);
      const current = history[history.length - 1]!;
      const pick = await vscode.window.showQuickPick(
        [...history].reverse().map((v) => {
          const t = when(v.changedAt);
          return {
            label: `v${v.version} · ${v.op}${v === current ? ` · ${vscode.l10n.t('current')}` : ''}`,
            description: `${t.relative} · ${v.author}`,
            detail: `${v.description} · ${t.local} · ${v.changedAt}`,
            version: v.version,
            deleted: v.deletedAt !== null,
          };
        }),
        {
          title: vscode.l10n.t('History of the skill "{0}"', name),
          placeHolder: vscode.l10n.t('Pick a version to open it (read-only), compared with the version before it'),
        },
      );
      if (!pick) return;
      if (current.deletedAt) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The skill "{0}" is deleted: its versions cannot be opened until it is saved again.', name),
        );
        return;
      }
      const before = history.filter((v) => v.version < pick.version && !v.deletedAt).pop();
      if (!before) {
        await vscode.window.showTextDocument(skillUri(name, pick.version), { preview: true });
        return;
      }
      const title = vscode.l10n.t('{0} (version {1} ↔ {2})', name, before.version, pick.version);
      await vscode.commands.executeCommand('vscode.diff', skillUri(name, before.version), skillUri(name, pick.version), title);
    }),

    command('agentMemory.promoteSkills', async () => {
      const ids = await vscode.window.withProgress(
        { location: { viewId: 'agentMemory.skills' }, title: vscode.l10n.t('Looking for repeated successes without a skill') },
        async () => (await access.getPlaybook()).promote(),
      );
      changes.fireSoon(0);
      if (ids.length === 0) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'No skill to propose: no kind of task has enough successful episodes, by two executors or more, without a skill that covers it.',
          ),
        );
        return;
      }
      const open = vscode.l10n.t('Show Pending');
      // Not awaited: the command is done once the drafts are queued, whether or not the message is answered.
      void vscode.window
        .showInformationMessage(vscode.l10n.t('{0} skill drafts went to Pending for review.', ids.length), open)
        .then((answer) => {
          if (answer === open) void vscode.commands.executeCommand('agentMemory.pending.focus');
        });
    }),
  );
}
