import * as vscode from 'vscode';
import type { Outcome } from '../../core/playbook/kinds';
import { OUTCOMES } from '../../core/contract/episodes';
import type { ReadOnlyDocs } from '../documents/readOnlyDocs';
import { reportingCommand } from '../memories/target';
import type { PlaybookAccess } from '../session/windowServices';
import { episodeMarkdown } from './episodeMarkdown';
import type { EpisodesTreeProvider } from './episodesView';

/** Skills offered in the filter: a team's playbook, not a corpus. */
const SKILLS_OFFERED = 500;

/**
 * The Episodes view's commands: Filter Episodes… (outcome, then skill, each a quick pick whose
 * first item is "any"), Clear Filter, and the read-only document an episode opens as.
 */
export function registerEpisodeCommands(
  context: vscode.ExtensionContext,
  access: PlaybookAccess,
  docs: ReadOnlyDocs,
  provider: EpisodesTreeProvider,
  log: vscode.LogOutputChannel,
): void {
  const command = reportingCommand(log);
  docs.register('episode', async (id) => episodeMarkdown(await (await access.getPlaybook()).episodes.show({ id })));

  context.subscriptions.push(
    command('agentMemory.filterEpisodes', async () => {
      const title = vscode.l10n.t('Filter Episodes');
      const current = provider.filter;
      const any = vscode.l10n.t('Any outcome');
      const outcome = await vscode.window.showQuickPick(
        [{ label: any, outcome: undefined }, ...OUTCOMES.map((o) => ({ label: o, outcome: o as Outcome, picked: current.outcome === o }))],
        { title, placeHolder: vscode.l10n.t('Show episodes that ended how?') },
      );
      if (!outcome) return;
      const playbook = await access.getPlaybook();
      // The live skills, and the skill the filter has now (an episode may name a skill deleted since).
      const names = new Set((await playbook.skills.list({ limit: SKILLS_OFFERED })).items.map((s) => s.name));
      if (current.skill) names.add(current.skill);
      const skill = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('Any skill, or none'), skill: undefined },
          ...[...names]
            .sort()
            .map((name) => ({ label: name, skill: name, description: current.skill === name ? vscode.l10n.t('current') : undefined })),
        ],
        { title, placeHolder: vscode.l10n.t('Only episodes that followed which skill?') },
      );
      if (!skill) return;
      await provider.setFilter({ outcome: outcome.outcome, skill: skill.skill });
    }),
    command('agentMemory.clearEpisodeFilter', () => provider.setFilter({})),
  );
}
