/** What the tier service tests share: a store of either backend with the services over it, a clock, refusals. */
import { EpisodeService } from '../../../src/core/playbook/episodeService';
import { FactService } from '../../../src/core/playbook/factService';
import { Lifecycle } from '../../../src/core/playbook/lifecycle';
import { SkillService } from '../../../src/core/playbook/skillService';
import type { Ontology } from '../../../src/core/playbook/ontology';
import { DEFAULT_POLICY, mergePolicy, type Policy, type PolicyOverrides } from '../../../src/core/playbook/policy';
import type { RecordStore } from '../../../src/core/ports/records';
import { openService, type Backend } from '../../helpers/builders';
import { skill } from './skillHelpers';
export { rejects } from '../../helpers/assertions';

/** A clock the test moves: starts at `start`, `advance` by milliseconds or days. */
export function testClock(start = '2026-03-01T12:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    iso: () => new Date(t).toISOString(),
    advance: (ms: number) => void (t += ms),
    days: (n: number) => void (t += n * 86_400_000),
    set: (iso: string) => void (t = Date.parse(iso)),
  };
}

export interface Playbook {
  records: RecordStore;
  episodes: EpisodeService;
  facts: FactService;
  lifecycle: Lifecycle;
  skills: SkillService;
  /** Saves skill `name` until it has `versions` versions (episodes may only cite versions that exist). */
  skillVersions(name: string, versions: number): Promise<void>;
  /** Services writing as another author, over the same store and clock. */
  as(author: string): { episodes: EpisodeService; facts: FactService };
  /** How many record rows are stored (every kind, every version). */
  rows(): Promise<number>;
  close(): Promise<void>;
}

export async function openPlaybook(
  backend: Backend,
  options: {
    author?: string;
    clock?: ReturnType<typeof testClock>;
    policy?: PolicyOverrides;
    ontology?: Ontology;
    promote?: () => Promise<string[]>;
  } = {},
): Promise<Playbook> {
  const { store } = await openService({ backend });
  const clock = options.clock ?? testClock();
  const policy: Policy = mergePolicy(DEFAULT_POLICY, options.policy);
  const make = (author: string) => ({
    episodes: new EpisodeService(store.records, { author, now: clock.now }),
    facts: new FactService(store.records, { author, now: clock.now, policy, ontology: options.ontology }),
  });
  const author = options.author ?? 'ana@example.com';
  const skills = new SkillService(store, { author, now: clock.now });
  return {
    records: store.records,
    ...make(author),
    lifecycle: new Lifecycle(store.records, { author, now: clock.now, policy, ontology: options.ontology, promote: options.promote }),
    skills,
    skillVersions: async (name, versions) => {
      for (let v = 1; v <= versions; v++) await skills.save(skill({ name, description: `Step ${v} of ${name}: deploy a preview` }));
    },
    as: make,
    rows: async () => {
      let n = 0;
      for await (const _ of store.records.exportRecords()) n++;
      return n;
    },
    close: () => store.close(),
  };
}

/** Awaits a refusal of class `type` whose message matches `re`; returns it. */
/** An episode input with sensible defaults. */
export function episode(over: Record<string, unknown> = {}) {
  return {
    task: 'Fix the flaky integration test of the billing service',
    outcome: 'success',
    tools: ['runTests', 'editFile'],
    errors: ['TimeoutError: waited 5000 ms for the queue'],
    resolution: 'Waited for the queue to drain before asserting.',
    tags: ['billing', 'tests'],
    source: { type: 'pull-request', ref: 'https://github.com/acme/billing/pull/42' },
    ...over,
  };
}

/** A fact input with evidence. */
export function fact(over: Record<string, unknown> = {}) {
  return { subject: 'billing', predicate: 'uses', object: 'postgres', source: 'docs/architecture.md', confidence: 0.8, ...over };
}

/** A small ontology: owned_by is single-valued, depends_on many-valued, runs_version takes a literal. */
export const ONTOLOGY = `types: [service, database, team]
relations:
  - name: owned_by
    from: service
    to: team
    cardinality: one
  - name: depends_on
    from: service
    to: [service, database]
  - name: runs_version
    from: service
    to: value
    cardinality: one
`;
