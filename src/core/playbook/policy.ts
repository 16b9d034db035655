/**
 * The lifecycle policy: the rules the tiers follow, held in configuration rather than in
 * prompts. Three sources, later ones winning key by key: DEFAULT_POLICY ← the VS Code
 * settings (an object of the same shape) ← the repository's policy file (YAML in the store
 * folder, shared by the team). Every source is checked: unknown keys are refused (a typo
 * must not silently fall back to a default) and values are range-checked.
 *
 * File shape (every key optional; `episodic.ttl_days: 30` at the top level works too):
 *   episodic:   { ttl_days: 90, owner: ana@example.com, approvers: [bo@example.com], expired: forget }
 *   semantic:   { require_source: true, require_confidence: true, expired: archive }
 *   procedural: { promotion_min_successes: 3 }
 *   working:    { max_tokens: 4000 }
 *   forgetting: { run_every_hours: 24 }
 *   review:     { agent_writes: required,   # a person confirms every agent write, whatever a client's setting says
 *                 self_approval: allowed }  # a proposer may decide their own proposal (default: refused)
 */
import * as z from 'zod';
import { ValidationError } from '../errors';
import { dotted, YamlSource, zodProblems } from './yamlSource';

/** What happens to an item once it expires: kept and hidden, or removed for good. */
export type ExpiredAction = 'archive' | 'forget';

/** Who answers for a tier and who may approve its proposals. */
export interface TierPolicy {
  /** A person (email or name) who owns the tier; null when nobody was named. */
  owner: string | null;
  /** Who may approve proposals of this tier, besides the owner; with no owner and none listed: anyone with access to the store. */
  approvers: string[];
  expired: ExpiredAction;
}

export interface Policy {
  working: { max_tokens: number };
  episodic: TierPolicy & { ttl_days: number };
  semantic: TierPolicy & { require_source: boolean; require_confidence: boolean };
  procedural: TierPolicy & { promotion_min_successes: number };
  forgetting: { run_every_hours: number };
  /**
   * required: every write an agent makes goes before a person (asked, or queued as a proposal) in
   * every client; a server flag or an editor setting cannot turn it off. optional: each client's choice.
   */
  /**
   * self_approval: whether the identity that proposed something may approve or reject it (refused by
   * default; an agent's proposal is the agent's, made for the person, who may decide it).
   */
  review: { agent_writes: 'required' | 'optional'; self_approval: 'allowed' | 'refused' };
}

/** Some keys of a Policy, as a source gives them. */
export type PolicyOverrides = { [L in keyof Policy]?: Partial<Policy[L]> };

/** Expired episodes are forgotten (the issue: "forgets expired episodes"); expired facts and skills are kept, hidden. */
export const DEFAULT_POLICY: Readonly<Policy> = Object.freeze<Policy>({
  working: { max_tokens: 4000 },
  episodic: { ttl_days: 90, owner: null, approvers: [], expired: 'forget' },
  semantic: { require_source: true, require_confidence: true, owner: null, approvers: [], expired: 'archive' },
  procedural: { promotion_min_successes: 3, owner: null, approvers: [], expired: 'archive' },
  forgetting: { run_every_hours: 24 },
  review: { agent_writes: 'optional', self_approval: 'refused' },
});

const int = (what: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${what}, ${min}–${max}` })
    .int({ error: `must be a whole number of ${what}` })
    .min(min, { error: (i) => `is ${String(i.input)}; it must be ${min}–${max} ${what}` })
    .max(max, { error: (i) => `is ${String(i.input)}; it must be ${min}–${max} ${what}` });

const flag = z.boolean({ error: 'must be true or false' });
const Person = z
  .string({ error: 'must be a name or an email address' })
  .trim()
  .min(1, { error: 'is empty' })
  .max(200, { error: 'is longer than 200 characters' });
const tierRoles = {
  owner: Person.nullable(),
  approvers: z.array(Person, { error: 'must be a list of names or email addresses' }).max(100, { error: 'lists more than 100 people' }),
  expired: z.enum(['archive', 'forget'], { error: 'must be archive (kept, hidden) or forget (removed)' }),
};

const PolicySchema = z
  .strictObject({
    working: z.strictObject({ max_tokens: int('tokens', 256, 200_000) }).partial(),
    episodic: z.strictObject({ ttl_days: int('days', 1, 3650), ...tierRoles }).partial(),
    semantic: z.strictObject({ require_source: flag, require_confidence: flag, ...tierRoles }).partial(),
    // At least 2: promotion needs successes recorded by two different authors.
    procedural: z.strictObject({ promotion_min_successes: int('successes', 2, 100), ...tierRoles }).partial(),
    forgetting: z.strictObject({ run_every_hours: int('hours', 1, 24 * 30) }).partial(),
    review: z
      .strictObject({
        agent_writes: z.enum(['required', 'optional'], {
          error: 'must be required (a person confirms every agent write) or optional (each client decides)',
        }),
        self_approval: z.enum(['allowed', 'refused'], {
          error: 'must be allowed (a proposer may decide their own proposal) or refused',
        }),
      })
      .partial(),
  })
  .partial();

/** The keys a path of the policy may hold, for "unknown key" messages. */
function knownKeys(path: ReadonlyArray<PropertyKey>): string[] {
  const shape = PolicySchema.shape as Record<string, { unwrap(): { shape: object } }>;
  if (path.length === 0) return Object.keys(shape);
  const section = shape[String(path[0])];
  return section && path.length === 1 ? Object.keys(section.unwrap().shape) : [];
}

/** `episodic.ttl_days: 30` at the top level is read as `episodic: { ttl_days: 30 }`. */
function nestDottedKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const dot = k.indexOf('.');
    if (dot < 0) {
      out[k] =
        v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? { ...(out[k] as object), ...v } : v;
      continue;
    }
    const [head, rest] = [k.slice(0, dot), k.slice(dot + 1)];
    const section = out[head];
    out[head] = { ...(section && typeof section === 'object' ? section : {}), [rest]: v };
  }
  return out;
}

/**
 * Keys of the playbook's own example configuration that have no use here: accepted, and reported
 * (`agent-memory policy show`) with the reason, never refused and never silently dropped.
 */
const ONE_STORE =
  'every tier lives in one store: the workspace store (journal + sql.js) or the team database (agentMemory.storage.backend, --store)';
const NOT_USED: Readonly<Record<string, string>> = {
  'working.keep_recent_turns':
    "the chat client keeps the conversation's turns; Agent Memory packs memories, facts, episodes and skills within working.max_tokens",
  'episodic.backend': ONE_STORE,
  'semantic.backend': ONE_STORE,
  'procedural.backend': ONE_STORE,
};

/** A key of the file that is accepted but not used, with where it is and why. */
export interface PolicyNote {
  key: string;
  line: number | undefined;
  why: string;
}

/** Parses the repository's policy file; a problem throws "policy.yaml line N: reason" for every bad line. */
export function parsePolicyFile(text: string, fileName = 'policy.yaml'): PolicyOverrides {
  return readPolicyFile(text, fileName).overrides;
}

/**
 * The policy file's overrides and the keys it holds that are not used. The playbook's shape is
 * read as written: its settings under a root `memory:` key, `backend:` per tier, `keep_recent_turns`.
 */
export function readPolicyFile(text: string, fileName = 'policy.yaml'): { overrides: PolicyOverrides; notes: PolicyNote[] } {
  const src = YamlSource.parse(text, fileName);
  if (typeof src.value !== 'object' || Array.isArray(src.value)) {
    src.fail([{ path: [], message: 'must be a map of settings such as "episodic:" or "semantic:"' }]);
  }
  let value = nestDottedKeys(src.value) as Record<string, unknown>;
  let root: PropertyKey[] = [];
  const wrapped = value.memory;
  if (wrapped !== undefined) {
    if (!wrapped || typeof wrapped !== 'object' || Array.isArray(wrapped))
      src.fail([{ path: ['memory'], message: 'must be a map of the tiers (working, episodic, semantic, procedural, forgetting)' }]);
    const others = Object.keys(value).filter((k) => k !== 'memory');
    if (others.length)
      src.fail([{ path: [others[0]!], message: `settings go either under memory: or at the top level, not both (${others.join(', ')})` }]);
    value = nestDottedKeys(wrapped) as Record<string, unknown>;
    root = ['memory'];
  }
  const notes: PolicyNote[] = [];
  const kept: Record<string, unknown> = {};
  for (const [section, body] of Object.entries(value)) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      kept[section] = body;
      continue;
    }
    const rest: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(body)) {
      const why = NOT_USED[`${section}.${key}`];
      if (why) notes.push({ key: `${section}.${key}`, line: src.lineOf([...root, section, key]), why });
      else rest[key] = v;
    }
    kept[section] = rest;
  }
  const parsed = PolicySchema.safeParse(kept);
  if (!parsed.success) {
    // A dotted top-level key is found at its own line.
    src.fail(
      zodProblems(parsed.error, knownKeys).map((p) => {
        const at = [...root, ...p.path];
        return {
          ...p,
          path:
            src.lineOf(at) === undefined && p.path.length >= 2
              ? [...root, `${String(p.path[0])}.${String(p.path[1])}`, ...p.path.slice(2)]
              : at,
        };
      }),
    );
  }
  return { overrides: parsed.data as PolicyOverrides, notes };
}

/** Checks the settings' policy object (same shape as the file); problems name the setting. */
export function parsePolicySettings(value: unknown, what = 'settings'): PolicyOverrides {
  const parsed = PolicySchema.safeParse(nestDottedKeys(value ?? {}));
  if (parsed.success) return parsed.data as PolicyOverrides;
  const problems = zodProblems(parsed.error, knownKeys).map((p) => `${what}: ${p.message}`);
  throw new ValidationError(dotted(parsed.error.issues[0]!.path), problems[0]!, problems.join('; '));
}

/** `base` with each override applied in turn, key by key (a list replaces the list before it). */
export function mergePolicy(base: Readonly<Policy>, ...overrides: ReadonlyArray<PolicyOverrides | undefined>): Policy {
  const out = JSON.parse(JSON.stringify(base)) as Policy;
  for (const o of overrides) {
    if (!o) continue;
    for (const section of Object.keys(o) as Array<keyof Policy>) {
      const values = Object.fromEntries(Object.entries(o[section] ?? {}).filter(([, v]) => v !== undefined));
      Object.assign(out[section], JSON.parse(JSON.stringify(values)));
    }
  }
  return out;
}

/** The policy in force: defaults ← settings ← the repository file (either may be absent). */
export function resolvePolicy(sources: { settings?: unknown; file?: { text: string; name?: string } } = {}): Policy {
  const settings = sources.settings === undefined ? undefined : parsePolicySettings(sources.settings);
  const file = sources.file ? parsePolicyFile(sources.file.text, sources.file.name) : undefined;
  return mergePolicy(DEFAULT_POLICY, settings, file);
}
