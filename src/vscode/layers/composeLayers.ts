import * as vscode from 'vscode';
import { Layers } from '../../core/layers/layers';
import { type PolicyOverrides, resolvePolicy } from '../../core/layers/policy';
import { MemoryService } from '../../core/memoryService';
import { LayerConfig } from '../../platform/layerConfig';
import type { Store } from '../../store/store';

/** What the views, commands and tools of the other layers need: the layers, and who the person at this window is. */
export interface LayerAccess {
  getLayers: () => Promise<Layers>;
  /** The configured author (agentMemory.author, else git's user.email): who approves, verifies, resolves. */
  getAuthor: () => Promise<string>;
}

/** Settings (package.json) → policy keys (src/core/layers/policy.ts). */
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
 * policy.yaml wins over both (src/core/layers/policy.ts).
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
 * The layers over the store and memory service the session opened. Policy and ontology come
 * from policy.yaml / ontology.yaml in the workspace's store folder, also when the memories live
 * in a team database (the repository holds the team's rules); without a folder, from the
 * settings alone. Approved memory proposals are written as the person who approved them.
 */
export function composeLayers(store: Store, memories: MemoryService, author: () => string, dir: string | undefined): Layers {
  const config = dir ? new LayerConfig(dir, policySettings) : undefined;
  return new Layers(store, memories, {
    author,
    policy: () => (config ? config.policy() : resolvePolicy({ settings: policySettings() })),
    ontology: () => config?.ontology() ?? null,
    memoriesFor: (who) => new MemoryService(store, { author: who }),
  });
}
