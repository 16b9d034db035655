import { ValidationError } from '../core/errors';

/**
 * A command line's flags as util.parseArgs returns them: a string or a switch, or a list of them
 * for a flag declared `multiple`. The command's options decide each flag's shape; the accessors
 * below read it as that shape, and name the flag when it is something else.
 */
export type Flags = { [name: string]: string | boolean | (string | boolean)[] | undefined };

/** A string flag's value; undefined when it was not given. */
export function str(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ValidationError(name, Array.isArray(value) ? 'give it once' : 'needs a value');
}

/** A switch: true when it was given. */
export function bool(flags: Flags, name: string): boolean {
  const value = flags[name];
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw new ValidationError(name, 'is a switch; it takes no value');
}

/** A whole number; undefined when the flag was not given. */
export function int(flags: Flags, name: string): number | undefined {
  const value = str(flags, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new ValidationError(name, `must be a whole number, got "${value}"`);
  return Number(value);
}

/** A comma-separated list: `a, b,c` → [`a`, `b`, `c`]; undefined when the flag was not given. */
export function list(flags: Flags, name: string): string[] | undefined {
  return str(flags, name)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Every value of a repeatable flag (`--input a --input b`); undefined when it was not given. */
export function many(flags: Flags, name: string): string[] | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => {
    if (typeof v !== 'string') throw new ValidationError(name, 'needs a value');
    return v;
  });
}

/** --limit and --cursor of a paged listing, only when given (the service's defaults apply otherwise). */
export function pageFlags(flags: Flags): { limit?: number; cursor?: string } {
  const limit = int(flags, 'limit');
  const cursor = str(flags, 'cursor');
  return { ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) };
}

/** The string flags that were given, renamed to the service's fields, so its defaults and messages apply to the rest. */
export function given(flags: Flags, fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [flag, field] of Object.entries(fields)) {
    const value = str(flags, flag);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** The given string flags among `names` as words of a command line (`--store`, DIR), to repeat them in a hint. */
export function passOn(flags: Flags, names: string[]): string[] {
  return names.flatMap((name) => {
    const value = str(flags, name);
    return value === undefined ? [] : [`--${name}`, value];
  });
}
