import * as vscode from 'vscode';
import { whenLine, whenMarkdown } from '../shared/times';
import type { FactView } from '../../core/playbook/factRules';
import type { Report } from '../../core/playbook/lifecycle';
import type { Policy } from '../../core/playbook/policy';
import { code, md } from '../shared/markdownText';

type FactVersion = FactView & { op: string; writtenBy: string };

/** Every version of a fact, newest first: what it said, its evidence and standing, who wrote it. */
export function factHistoryMarkdown(history: FactVersion[]): string {
  const cur = history[history.length - 1]!;
  const lines = [
    `# ${md(cur.subject)} · ${md(cur.predicate)} → ${md(cur.object)}`,
    '',
    vscode.l10n.t('Fact {0}: {1} versions, newest first.', code(cur.id), history.length),
    '',
  ];
  for (const v of [...history].reverse()) {
    lines.push(`## ${vscode.l10n.t('Version {0}', v.version)} · ${v.op} · ${v.status}`, '');
    lines.push(`- ${vscode.l10n.t('Written {0} by {1}', whenMarkdown(v.changedAt), md(v.writtenBy))}`);
    lines.push(`- ${vscode.l10n.t('Says: {0} {1} {2}', md(v.subject), md(v.predicate), md(v.object))}`);
    lines.push(
      `- ${vscode.l10n.t('Source: {0}; confidence: {1}; observed {2}; valid until: {3}', md(v.source ?? '—'), String(v.confidence ?? '—'), whenMarkdown(v.observedAt), v.validUntil ? whenMarkdown(v.validUntil) : '—')}`,
    );
    lines.push(`- ${vscode.l10n.t('Asserted by {0}', md(v.assertedBy))}`);
    if (v.verification.state === 'verified')
      lines.push(
        `- ${vscode.l10n.t('Verified by {0} at {1}: {2}', md(v.verification.by), whenMarkdown(v.verification.at), md(v.verification.evidence))}`,
      );
    if (v.disputedWith.length) lines.push(`- ${vscode.l10n.t('Disputed with {0}', v.disputedWith.map((x) => `\`${x}\``).join(', '))}`);
    if (v.retraction)
      lines.push(
        `- ${vscode.l10n.t('Retracted by {0} at {1}: {2}', md(v.retraction.by), whenMarkdown(v.retraction.at), md(v.retraction.reason))}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

/** The rules the forgetting run applies, as a person reads them. */
function policyLines(p: Policy): string[] {
  const fate = (a: 'archive' | 'forget') =>
    a === 'forget' ? vscode.l10n.t('forgotten (removed)') : vscode.l10n.t('archived (kept, hidden)');
  return [
    `- ${vscode.l10n.t('Episodes older than {0} days are {1}, except the evidence of a skill.', p.episodic.ttl_days, fate(p.episodic.expired))}`,
    `- ${vscode.l10n.t('Facts past their valid-until are {0}.', fate(p.semantic.expired))}`,
    `- ${vscode.l10n.t('A skill draft is proposed after {0} successful episodes of one kind of task (by two executors or more).', p.procedural.promotion_min_successes)}`,
    `- ${vscode.l10n.t('The forgetting run is due every {0} hours; working memory packs {1} tokens by default.', p.forgetting.run_every_hours, p.working.max_tokens)}`,
  ];
}

/** The recent forgetting runs, newest first, with the policy in force (or the error that kept it from being read). */
export function lifecycleReportMarkdown(reports: Report[], policy: Policy | Error): string {
  const lines = [`# ${vscode.l10n.t('Agent Memory lifecycle report')}`, '', `## ${vscode.l10n.t('Policy in force')}`, ''];
  lines.push(...(policy instanceof Error ? [vscode.l10n.t('The policy could not be read: {0}', md(policy.message))] : policyLines(policy)));
  lines.push(
    '',
    vscode.l10n.t('From the settings (agentMemory.*), overridden by policy.yaml in the store folder.'),
    '',
    `## ${vscode.l10n.t('Recent runs, newest first')}`,
    '',
  );
  if (reports.length === 0) {
    lines.push(vscode.l10n.t('No forgetting run yet. Run "Agent Memory: Run Forgetting Now", or wait for the next scheduled run.'));
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `| ${[vscode.l10n.t('Ran at'), vscode.l10n.t('Trigger'), vscode.l10n.t('Facts expired'), vscode.l10n.t('Episodes forgotten'), vscode.l10n.t('Episodes archived'), vscode.l10n.t('Skills proposed'), vscode.l10n.t('Search results read')].join(' | ')} |`,
    '|---|---|---:|---:|---:|---:|---|',
  );
  for (const r of reports) {
    const s = r.searchReads;
    const reads = s.returned ? vscode.l10n.t('{0} of {1} ({2} searches)', s.read, s.returned, s.searches) : vscode.l10n.t('no searches');
    lines.push(
      `| ${whenMarkdown(r.ranAt)} | ${r.trigger} | ${r.expiredFacts.length} | ${r.forgottenEpisodes} | ${r.archivedEpisodes} | ${r.promotions.length} | ${reads} |`,
    );
  }
  const detailed = reports.filter((r) => r.expiredFacts.length || r.promotions.length);
  if (detailed.length) lines.push('', `## ${vscode.l10n.t('Details')}`, '');
  for (const r of detailed) {
    lines.push(`### ${whenLine(r.ranAt)}`, '');
    if (r.expiredFacts.length) lines.push(`- ${vscode.l10n.t('Facts expired: {0}', r.expiredFacts.map((x) => `\`${x}\``).join(', '))}`);
    if (r.promotions.length)
      lines.push(`- ${vscode.l10n.t('Skill drafts sent to Pending: {0}', r.promotions.map((x) => `\`${x}\``).join(', '))}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
