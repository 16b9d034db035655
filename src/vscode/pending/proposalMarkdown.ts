import * as vscode from 'vscode';
import { whenMarkdown } from '../shared/times';
import type { ProposalView } from '../../core/playbook/proposalService';
import type { SkillData } from '../../core/playbook/kinds';
import { givesEvidence } from '../../core/playbook/skillData';
import { formatSkillYaml } from '../../core/playbook/skillYaml';
import type { MemoryService } from '../../core/memoryService';
import { code, fenced, md } from '../shared/markdownText';

type Memory = Awaited<ReturnType<MemoryService['read']>>;

const yamlBlock = (text: string) => `\`\`\`\`yaml\n${text.trimEnd()}\n\`\`\`\``;
const field = (label: string, value: unknown) =>
  `| ${label} | ${value === undefined || value === null || value === '' ? '—' : md(String(value))} |`;
/** A time field: the local time and how long ago, the ISO text on hover. */
const timeField = (label: string, value: unknown) =>
  typeof value === 'string' && value ? `| ${label} | ${whenMarkdown(value)} |` : field(label, value);

/** What approving a fact proposal asserts. */
function factPart(p: Record<string, unknown>): string[] {
  return [
    `| ${vscode.l10n.t('Field')} | ${vscode.l10n.t('Value')} |`,
    '|---|---|',
    field(vscode.l10n.t('Subject'), p.subject),
    field(vscode.l10n.t('Predicate'), p.predicate),
    field(vscode.l10n.t('Object'), p.object),
    field(vscode.l10n.t('Source'), p.source),
    field(vscode.l10n.t('Confidence'), p.confidence),
    timeField(vscode.l10n.t('Observed at'), p.observedAt),
    timeField(vscode.l10n.t('Valid until'), p.validUntil),
  ];
}

/** The skill a proposal saves; one without evidence (as agents propose) keeps the current version's. */
function skillPart(payload: Record<string, unknown>): string[] {
  const out = [yamlBlock(formatSkillYaml(payload as unknown as SkillData))];
  if (!givesEvidence(payload))
    out.push('', vscode.l10n.t("No evidence given: approving keeps the evidence of the skill's current version, if there is one."));
  return out;
}

/** A memory create, or an edit shown field by field against the current version. */
function memoryPart(p: ProposalView, current: Memory | undefined): string[] {
  const d = p.payload as { description?: string; tags?: string[]; content?: string; expectedVersion?: number };
  if (p.action === 'create') {
    return [
      `**${vscode.l10n.t('Description')}:** ${md(d.description ?? '')}`,
      `**${vscode.l10n.t('Tags')}:** ${(d.tags ?? []).map((x) => `\`${x}\``).join(' ')}`,
      `**${vscode.l10n.t('Content')}:**`,
      fenced(d.content ?? ''),
    ];
  }
  const out = [vscode.l10n.t('A new version of memory {0} (proposed against version {1}).', p.targetId ?? '', d.expectedVersion ?? '?')];
  if (current && current.version !== d.expectedVersion)
    out.push(
      `**${vscode.l10n.t('The memory changed since: it is at version {0}, so approving will be refused as a conflict.', current.version)}**`,
    );
  if (d.description !== undefined)
    out.push(`**${vscode.l10n.t('Description')}:** ${current ? `~~${md(current.description)}~~ → ` : ''}${md(d.description)}`);
  if (d.tags !== undefined)
    out.push(
      `**${vscode.l10n.t('Tags')}:** ${current ? `~~${current.tags.join(', ')}~~ → ` : ''}${d.tags.map((x) => `\`${x}\``).join(' ')}`,
    );
  if (d.content !== undefined) {
    out.push(`**${vscode.l10n.t('New content')}:**`, fenced(d.content));
    if (current) out.push(`**${vscode.l10n.t('Replaces')}:**`, fenced(current.content));
  }
  return out;
}

/**
 * The preview of a proposal: what approving writes, what validation found (near-duplicates,
 * warnings), and the decision once there is one. `current` is the memory an edit changes.
 */
export function proposalMarkdown(p: ProposalView, current?: Memory): string {
  const kind = { fact: vscode.l10n.t('fact'), skill: vscode.l10n.t('skill'), memory: vscode.l10n.t('memory') }[p.target];
  const state = { pending: vscode.l10n.t('Pending'), approved: vscode.l10n.t('Approved'), rejected: vscode.l10n.t('Rejected') }[p.state];
  const lines = [
    `# ${vscode.l10n.t('{0} {1} proposal', state, kind)}`,
    '',
    md(p.summary),
    '',
    vscode.l10n.t('Proposed by {0}, {1}. Proposal {2}.', md(p.proposedBy), whenMarkdown(p.proposedAt), code(p.id)),
    '',
    `## ${vscode.l10n.t('What approving writes')}`,
    '',
  ];
  if (p.target === 'fact') lines.push(...factPart(p.payload));
  else if (p.target === 'skill') lines.push(...skillPart(p.payload));
  else lines.push(...memoryPart(p, current).flatMap((l) => [l, '']));
  lines.push('', `## ${vscode.l10n.t('Near-duplicates')}`, '');
  lines.push(
    ...(p.validation.duplicates.length
      ? p.validation.duplicates.map((d) => `- ${d.kind} \`${d.id}\` (${vscode.l10n.t('similarity {0}', d.similarity)}): ${md(d.label)}`)
      : [vscode.l10n.t('None found.')]),
  );
  lines.push('', `## ${vscode.l10n.t('Warnings')}`, '');
  lines.push(...(p.validation.warnings.length ? p.validation.warnings.map((w) => `- ${md(w)}`) : [vscode.l10n.t('None.')]));
  if (p.decision) {
    lines.push(
      '',
      `## ${vscode.l10n.t('Decision')}`,
      '',
      vscode.l10n.t('{0} by {1}, {2}.', state, md(p.decision.by), whenMarkdown(p.decision.at)),
    );
    if (p.decision.reason) lines.push('', `${vscode.l10n.t('Reason')}: ${md(p.decision.reason)}`);
  }
  return `${lines.join('\n')}\n`;
}
