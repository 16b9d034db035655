import { CitationChecker } from './citations';
import { MemoryService } from './memoryService';
import type { Codebase } from './ports/codebase';
import type { Ontology } from './playbook/ontology';
import { Playbook } from './playbook/playbook';
import { DEFAULT_POLICY, type Policy } from './playbook/policy';
import type { Store } from './ports/store';
import type { Channel } from './ports/origin';

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

/** The services over one store: what the tools, commands and views use. */
export interface Services {
  store: Store;
  memories: MemoryService;
  /** The playbook's tiers (episodes, facts, skills, proposals, lifecycle, context) over the same store. */
  playbook: Playbook;
  /** Who this client writes as (resolved at the first call, once). */
  author: () => string;
}

/**
 * The one place the services over a store are built. Approved proposals are written as the
 * person who approved them, naming who proposed them, so the playbook gets a memory service per
 * approval. Every version these services write records `channel`.
 */
export function buildServices(store: Store, options: ServicesOptions): Services {
  let resolved: string | undefined;
  const given = options.author;
  const author = () => (resolved ??= typeof given === 'function' ? given() : given);
  const { now, channel } = options;
  const citations = options.codebase && new CitationChecker(options.codebase);
  const memories = new MemoryService(store, { author, now, channel, citations });
  const playbook = new Playbook(store, memories, {
    author,
    now,
    channel,
    policy: options.policy ?? (() => DEFAULT_POLICY),
    ontology: options.ontology ?? (() => null),
    memoriesFor: (who, proposedBy) => new MemoryService(store, { author: who, proposedBy, now, channel, citations }),
  });
  return { store, memories, playbook, author };
}
