import { safeParse } from 'zod/mini';
import type { z } from 'zod';
import { ValidationError } from '../errors';

/** `tags[2]` style path for an issue. */
function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
}

/** How a value of a zod type is named to a person or a model. */
const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object (a mapping of fields)',
  array: 'a list',
  null: 'null',
  undefined: 'missing',
};
const noun = (t: string) => NOUNS[t] ?? t;

/**
 * Our wording for a rule zod states in its own default words ("Too small: expected number to be
 * >=1", "Invalid input: expected object, received undefined"): a schema that gave its own message
 * keeps it. Recognised by zod's default message shapes, so a field without a custom message still
 * reads like every other refusal.
 */
function plainRule(issue: z.core.$ZodIssue): string | undefined {
  const m = issue.message;
  switch (issue.code) {
    case 'too_small': {
      if (!m.startsWith('Too small: ')) return undefined;
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? 'must not be empty' : `must be at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return n === 1 ? 'needs at least one item' : `needs at least ${n} items`;
      return issue.inclusive ? `must be at least ${n}` : `must be more than ${n}`;
    }
    case 'too_big': {
      if (!m.startsWith('Too big: ')) return undefined;
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `is too long; the limit is ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `has too many items; the limit is ${n}`;
      return issue.inclusive ? `must be at most ${n}` : `must be less than ${n}`;
    }
    case 'invalid_type': {
      const got = /^Invalid input: expected \w+, received (\w+)$/.exec(m)?.[1];
      if (!got) return undefined;
      return got === 'undefined' ? `is missing; give ${noun(issue.expected)}` : `must be ${noun(issue.expected)}, not ${noun(got)}`;
    }
    case 'invalid_value': {
      if (!/^Invalid (option|input): expected /.test(m)) return undefined;
      const values = issue.values.map((v) => String(v));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
    }
    case 'invalid_format': {
      if (!m.startsWith('Invalid ')) return undefined;
      if (issue.format === 'datetime') return 'must be an ISO-8601 time such as 2026-01-01T09:30:00Z';
      if (issue.format === 'uuid') return 'must be an id (a UUID) as returned by the tools';
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The rule an issue states, without repeating the field name our own messages start with. */
function ruleOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  const plain = plainRule(issue);
  if (plain) return plain;
  // A schema's own message often starts with the field's name ("source.type is one of …"): not twice.
  const prefixes = [pathOf(issue.path), String(issue.path[issue.path.length - 1] ?? ''), String(issue.path[0] ?? '')];
  for (const prefix of prefixes) if (prefix && issue.message.startsWith(`${prefix} `)) return issue.message.slice(prefix.length + 1);
  return issue.message;
}

/**
 * Parses `input` against `schema`; on failure throws one ValidationError that names every
 * offending field and its rule, so a model can fix all of them in one retry.
 */
export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = safeParse(schema, input);
  if (result.success) return result.data;
  const parts = result.error.issues.map((i) => {
    const field = pathOf(i.path);
    return field ? `${field}: ${ruleOf(i)}` : ruleOf(i);
  });
  const first = result.error.issues[0]!;
  return failWith(pathOf(first.path), ruleOf(first), parts.join('; '));
}

function failWith(field: string, rule: string, message: string): never {
  throw new ValidationError(field, rule, message);
}
