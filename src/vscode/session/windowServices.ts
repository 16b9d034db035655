import * as vscode from 'vscode';
import type { Playbook } from '../../core/playbook/playbook';
import { type PolicyOverrides, resolvePolicy } from '../../core/playbook/policy';
import { buildServices, type Services } from '../../core/services';
import { GitCodebase } from '../../platform/gitCodebase';
import { PlaybookConfig } from '../../platform/playbookConfig';
import type { Store } from '../../core/ports/store';

/** What the views, commands and tools of the other tiers need: the layers, and who the person at this window is. */
export interface PlaybookAccess {
  getPlaybook: () => Promise<Playbook>;
  /** The configured author (agentMemory.author, else git's user.email): who approves, verifies, resolves. */
  getAuthor: () => Promise<string>;
}

/** Settings (package.json) → policy keys (src/core/playbook/policy.ts). */
const SETTINGS: ReadonlyArray<[setting: string, section: keyof PolicyOverrides, key: string]> = [
  ['working.maxTokens', 'working', 'max_tokens'],
  ['episodic.ttlDays', 'episodic', 'ttl_days'],
  ['semantic.requireSource', 'semantic', 'require_source'],
  ['semantic.requireConfidence', 'semantic', 'require_confidence'],
  ['procedural.promotionMinSuccesses', 'procedural', 'promotion_min_successes'],
  ['forgetting.runEveryHours', 'forgetting', 'run_every_hours'],
];

/**
 * The lifecycle settings as the policy override object parsePolicySettings takes. Only values
 * a person set are passed: the defaults are the policy's own, and the repository's
 * policy.yaml wins over both (src/core/playbook/policy.ts).
 */
function policySettings(): PolicyOverrides {
  const config = vscode.workspace.getConfiguration('agentMemory');
  const out: Record<string, Record<string, unknown>> = {};
  for (const [setting, section, key] of SETTINGS) {
    const i = config.inspect(setting);
    const value = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    if (value !== undefined) (out[section] ??= {})[key] = value;
  }
  return out as PolicyOverrides;
}

/**
 * The services of a window over the store it opened. Policy and ontology come from policy.yaml
 * / ontology.yaml in the workspace's store folder, also when the memories live in a team
 * database (the repository holds the team's rules), over the lifecycle settings; without a
 * folder, from the settings alone.
 */
export function buildWindowServices(store: Store, author: () => string, dir: string | undefined, folder: string | undefined): Services {
  const config = dir ? new PlaybookConfig(dir, policySettings) : undefined;
  return buildServices(store, {
    author,
    // Every write of a window (its tools, editor, views and commands) comes through VS Code.
    channel: 'vscode',
    // Citations are checked against the window's (first) folder: the code its agents work on.
    codebase: folder ? new GitCodebase(folder) : undefined,
    policy: () => (config ? config.policy() : resolvePolicy({ settings: policySettings() })),
    ontology: () => config?.ontology() ?? null,
  });
}

/**
 * Whether the repository's policy.yaml (in the store folder) requires a person to confirm every
 * agent write; a policy file that cannot be read counts as requiring it (fail closed).
 */
export function policyRequiresReview(dir: string | undefined): boolean {
  if (!dir) return false;
  try {
    return (
      (reviewConfigs.get(dir) ?? reviewConfigs.set(dir, new PlaybookConfig(dir)).get(dir)!).policy().review.agent_writes === 'required'
    );
  } catch {
    return true;
  }
}
const reviewConfigs = new Map<string, PlaybookConfig>();
