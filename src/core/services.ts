import { buildMemoryServices, type MemoryServices, type ServicesOptions } from './memoryTierServices';
import { Playbook } from './playbook/playbook';
import { DEFAULT_POLICY } from './playbook/policy';
import type { Store } from './ports/store';

export type { MemoryServices, ServicesOptions } from './memoryTierServices';

/** The services over one store: what the tools, commands and views use. */
export interface Services extends MemoryServices {
  /** The playbook's tiers (episodes, facts, skills, proposals, lifecycle, context) over the same store. */
  playbook: Playbook;
}

/**
 * The one place the services over a store are built. Every version these services write
 * records `options.channel`.
 */
export function buildServices(store: Store, options: ServicesOptions): Services {
  return withPlaybook(buildMemoryServices(store, options), options);
}

/**
 * Memory services (built with the same `options`) and the playbook's tiers over their store:
 * for a client that loads this module only when a command needs the playbook (the CLI).
 */
export function withPlaybook(base: MemoryServices, options: ServicesOptions): Services {
  const playbook = new Playbook(base.store, base.memories, {
    author: base.author,
    now: options.now,
    channel: options.channel,
    policy: options.policy ?? (() => DEFAULT_POLICY),
    ontology: options.ontology ?? (() => null),
    memoriesFor: base.memoriesFor,
  });
  return { ...base, playbook };
}
