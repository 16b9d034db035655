import type { z } from 'zod';
import { ValidationError } from '../errors';

/** `tags[2]` style path for an issue. */
function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
}

/** The rule an issue states, without repeating the field name our own messages start with. */
function ruleOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  const head = String(issue.path[0] ?? '');
  return head && issue.message.startsWith(`${head} `) ? issue.message.slice(head.length + 1) : issue.message;
}

/**
 * Parses `input` against `schema`; on failure throws one ValidationError that names every
 * offending field and its rule, so a model can fix all of them in one retry.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
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
