/**
 * The entities a task may name, as fact keys (normalizeKey), for working memory's fact lookups.
 * Facts are found by their key columns only (subject, object): exact values, so the task's words
 * are turned into the values a fact could carry, never matched by a scan.
 */
import { isStopWord, words } from '../text';
import { normalizeKey } from './kinds';

/** The record store matches at most 500 key values at once. */
const MAX_ENTITY_CANDIDATES = 500;
/** Typed names tried at most (queried 500 at a time): 20 ontology types × 100 names. */
export const MAX_TYPED_CANDIDATES = 2000;

/** The task's whitespace-separated tokens, surrounding quotes, brackets and punctuation removed. */
function rawTokens(task: string): string[] {
  return task
    .split(/\s+/)
    .map((t) => t.replace(/^[\s"'`([{<]+|[\s"'`)\]}>,;:!?.]+$/g, ''))
    .filter(Boolean);
}

/**
 * Identifiers as written (`service-a`, `src/store/records.ts`, `PgStore`), single words, and
 * 2–3 word phrases of consecutive words that neither start nor end with a stop word
 * (`payments service`).
 */
export function entityCandidates(task: string): string[] {
  const raw = rawTokens(task);
  const out = new Set<string>();
  for (const t of raw) if (t.length >= 2) out.add(normalizeKey(t));
  for (const w of words(task)) if (w.length >= 2 && !isStopWord(w)) out.add(w);
  const lower = raw.map((t) => t.toLowerCase());
  for (let n = 2; n <= 3; n++) {
    for (let i = 0; i + n <= lower.length; i++) {
      const phrase = lower.slice(i, i + n);
      if (!isStopWord(phrase[0]!) && !isStopWord(phrase[n - 1]!)) out.add(normalizeKey(phrase.join(' ')));
    }
  }
  return [...out].filter((c) => !isStopWord(c)).slice(0, MAX_ENTITY_CANDIDATES);
}

/**
 * Typed entities (`type:name`, as ontology.ts writes them) a task names without the prefix.
 * With an ontology, every type of it before every name of one or two words (`billing` →
 * `service:billing`, `team:billing`). Without one, a word next to a name is taken as its type:
 * `billing service` → `service:billing`, `team payments` → `team:payments`, so a bare name is
 * found only when the task also says what it is. Two-word names are tried with a space and a
 * dash (`billing api service` → `service:billing api`, `service:billing-api`).
 */
export function typedEntityCandidates(task: string, types: readonly string[] | null): string[] {
  const raw = rawTokens(task)
    .map((t) => t.toLowerCase())
    .filter((t) => !t.includes(':'));
  const meaningful = (w: string | undefined): w is string => w !== undefined && w.length >= 2 && !isStopWord(w);
  const names: Array<{ name: string; at: number; n: number }> = [];
  for (let n = 1; n <= 2; n++) {
    for (let i = 0; i + n <= raw.length; i++) {
      const phrase = raw.slice(i, i + n);
      if (!meaningful(phrase[0]) || !meaningful(phrase[n - 1])) continue;
      for (const name of new Set([phrase.join(' '), phrase.join('-')])) names.push({ name, at: i, n });
    }
  }
  const out = new Set<string>();
  const add = (type: string, name: string) => {
    if (type !== name) out.add(normalizeKey(`${type}:${name}`));
  };
  if (types && types.length) {
    for (const { name } of names) for (const t of types) add(t, name);
  } else {
    for (const { name, at, n } of names) {
      const after = raw[at + n];
      const before = raw[at - 1];
      if (meaningful(after)) add(after, name);
      if (meaningful(before)) add(before, name);
    }
  }
  return [...out].slice(0, MAX_TYPED_CANDIDATES);
}
