import * as vscode from 'vscode';
import { whenMarkdown } from '../shared/times';
import type { EpisodeView } from '../../core/playbook/episodeService';
import { md } from '../shared/markdownText';

/** A list of stored texts as Markdown bullets, or a dash. */
const bullets = (items: readonly string[]) => (items.length ? items.map((x) => `- ${md(x)}`).join('\n') : '—');

/** The whole episode as a read-only document: what, how it ended, when, what was used, what went wrong, how it was resolved. */
export function episodeMarkdown(e: EpisodeView): string {
  const lines = [
    `# ${md(e.task)}`,
    '',
    `**${vscode.l10n.t('Outcome')}:** ${e.outcome}  `,
    `**${vscode.l10n.t('Happened at')}:** ${whenMarkdown(e.timestamp)}  `,
    `**${vscode.l10n.t('Recorded at')}:** ${vscode.l10n.t('{0} by {1}', whenMarkdown(e.recordedAt), md(e.author))}  `,
    `**${vscode.l10n.t('Run by')}:** ${md(e.executor)}  `,
    `**${vscode.l10n.t('Skill followed')}:** ${e.skill ? `${md(e.skill.name)} v${e.skill.version}` : '—'}  `,
    `**${vscode.l10n.t('Tags')}:** ${e.tags.length ? e.tags.map((t) => `\`${t}\``).join(' ') : '—'}  `,
    `**${vscode.l10n.t('Source')}:** ${e.source.type} ${md(e.source.ref)}`,
    ...(e.archivedAt
      ? ['', `> ${vscode.l10n.t('Archived by the forgetting run {0}: kept, hidden from lists.', whenMarkdown(e.archivedAt))}`]
      : []),
    '',
    `## ${vscode.l10n.t('Tools')}`,
    '',
    bullets(e.tools),
    '',
    `## ${vscode.l10n.t('Inputs')}`,
    '',
    bullets(e.inputs ?? []),
    '',
    `## ${vscode.l10n.t('Errors')}`,
    '',
    bullets(e.errors),
    '',
    `## ${vscode.l10n.t('Resolution')}`,
    '',
    e.resolution ? md(e.resolution) : '—',
    '',
    vscode.l10n.t('Episode {0}', e.id),
    '',
  ];
  return lines.join('\n');
}
