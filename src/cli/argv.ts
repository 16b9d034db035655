import { ValidationError } from '../core/errors';

/** Options as util.parseArgs takes them. */
export type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

/**
 * Prepares a command's tokens for util.parseArgs, as git and gh read a command line:
 * - `--name VALUE` of a string option becomes `--name=VALUE`, so a value that begins with a dash
 *   (`--content "-----BEGIN …"`, a description starting with `--flag`) is the value; parseArgs
 *   alone refuses it as "ambiguous";
 * - a flag the command does not have is refused in our words, naming the closest valid one
 *   (parseArgs says "positional argument starting with '-'"); so is a switch given a value.
 * Tokens after `--` are positionals and are left alone. Throws a ValidationError whose rule is a
 * whole sentence naming the flag.
 */
export function prepareArgv(argv: string[], options: Options): string[] {
  const out: string[] = [];
  const shorts = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      out.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.startsWith('--') ? token.slice(2, eq < 0 ? undefined : eq) : shorts.get(token.slice(1));
    const option = name !== undefined && Object.hasOwn(options, name) ? options[name] : undefined;
    if (!option) refuse(token.split('=')[0]!, unknownFlag(token.split('=')[0]!, options));
    if (option.type === 'boolean') {
      if (eq >= 0) refuse(`--${name}`, `--${name} is a switch; it takes no value`);
      out.push(token);
    } else if (eq >= 0) {
      out.push(token);
    } else if (i + 1 < argv.length) {
      out.push(`--${name}=${argv[++i]}`);
    } else {
      refuse(`--${name}`, `--${name} needs a value`);
    }
  }
  return out;
}

/** True when `--help` or `-h` is among the flags (a string option's value already joined to it by prepareArgv). */
export function asksHelp(prepared: string[]): boolean {
  const end = prepared.indexOf('--');
  return (end < 0 ? prepared : prepared.slice(0, end)).some((t) => t === '--help' || t === '-h');
}

/** A ValidationError whose message is the sentence alone: it names the flag as it was typed. */
function refuse(flag: string, sentence: string): never {
  throw new ValidationError(flag, sentence, sentence);
}

function unknownFlag(flag: string, options: Options): string {
  const close = closest(flag.replace(/^-+/, ''), Object.keys(options));
  return `unknown flag ${flag}${close ? `; did you mean --${close}?` : ''}`;
}

/** The candidate nearest to `word` by edit distance, when it is near enough to be a typo of it. */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`tgas` → `tags`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
