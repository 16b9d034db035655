import { CitationChecker } from './citations';
import { MemoryService } from './memoryService';
import { MemoryUpkeep } from './memoryUpkeep';
import type { Codebase } from './ports/codebase';
import type { Ontology } from './playbook/ontology';
import type { Policy } from './playbook/policy';
import type { Store } from './ports/store';
import type { Channel } from './ports/origin';

/*
 * The memory tier's services, built without loading the playbook's modules: a one-shot CLI
 * memory command (search, create) would otherwise build every tier's schemas first, about a
 * fifth of its whole run. services.ts adds the playbook's tiers to these.
 */

/** What the services over a store are built with; every entry point (CLI, MCP, VS Code) gives these. */
export interface ServicesOptions {
  /** Who writes; a function is called once, at the first write (resolving it may ask git). */
  author: string | (() => string);
  /** Injected for tests; defaults to the system clock. */
  now?: () => Date;
  /** The client every write of these services comes through, recorded on each version (vscode, mcp, cli, import). */
  channel?: Channel;
  /** The lifecycle policy in force, read at every use (a changed file or setting applies at once). */
  policy?: () => Policy;
  /** The workspace ontology, or null without one; throws the file's parse error to whoever needs it. */
  ontology?: () => Ontology | null;
  /** The workspace whose code memories cite; without one, citations cannot be written and are shown unchecked. */
  codebase?: Codebase;
}

/** The memory tier's services over one store. */
export interface MemoryServices {
  store: Store;
  memories: MemoryService;
  /** People's upkeep of the same memories: duplicates and merge, the citation check, purge, export and import. */
  upkeep: MemoryUpkeep;
  /** Who this client writes as (resolved at the first call, once). */
  author: () => string;
  /**
   * A memory service over the same store, with the same clock, channel and citation checks, that
   * writes as `who`: approved proposals are written as the person who approved them, naming who
   * proposed them (`proposedBy`).
   */
  memoriesFor: (who: string, proposedBy?: string) => MemoryService;
}

/** The memory tier's services over `store`; every version they write records `options.channel`. */
export function buildMemoryServices(store: Store, options: ServicesOptions): MemoryServices {
  let resolved: string | undefined;
  const given = options.author;
  const author = () => (resolved ??= typeof given === 'function' ? given() : given);
  const { now, channel } = options;
  const citations = options.codebase && new CitationChecker(options.codebase);
  const serviceOptions = { author, now, channel, citations };
  const memories = new MemoryService(store, serviceOptions);
  return {
    store,
    memories,
    upkeep: new MemoryUpkeep(store, serviceOptions, memories),
    author,
    memoriesFor: (who, proposedBy) => new MemoryService(store, { author: who, proposedBy, now, channel, citations }),
  };
}
