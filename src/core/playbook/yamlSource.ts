/**
 * YAML configuration files of the tiers (ontology.yaml, policy.yaml): parsing with line
 * numbers kept, so that every error names the file, the line and the reason, the way a
 * person fixes it in the editor.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ValidationError } from '../errors';

export class YamlSource {
  private constructor(
    readonly fileName: string,
    readonly value: unknown,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** Parses `text`; a syntax error throws a ValidationError "file line N: reason". An empty file is `{}`. */
  static parse(text: string, fileName: string): YamlSource {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const problems = [...doc.errors].map((e) => `${fileName} line ${e.linePos?.[0].line ?? 1}: ${e.message.split('\n')[0]}`);
    if (problems.length) throw new ValidationError(fileName, problems[0]!, problems.join('; '));
    return new YamlSource(fileName, doc.toJS() ?? {}, doc, lines);
  }

  /** The 1-based line of the key (for a map entry) or item (for a list entry) at `path`, if it is there. */
  lineOf(path: ReadonlyArray<PropertyKey>): number | undefined {
    let node: unknown = this.doc.contents;
    let offset: number | undefined = (node as { range?: [number] } | null)?.range?.[0];
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
        if (!pair) return undefined;
        offset = isScalar(pair.key) ? pair.key.range?.[0] : offset;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg];
        offset = (node as { range?: [number] } | undefined)?.range?.[0];
      } else {
        return undefined;
      }
    }
    return offset === undefined ? undefined : this.lines.linePos(offset).line;
  }

  /** "file line N: message", with the nearest line found along `path`. */
  at(path: ReadonlyArray<PropertyKey>, message: string): string {
    const line = this.nearestLine(path);
    return line === undefined ? `${this.fileName}: ${message}` : `${this.fileName} line ${line}: ${message}`;
  }

  private nearestLine(path: ReadonlyArray<PropertyKey>): number | undefined {
    for (let n = path.length; n >= 0; n--) {
      const line = this.lineOf(path.slice(0, n));
      if (line !== undefined) return line;
    }
    return undefined;
  }

  /** One ValidationError naming the line and reason of every problem, in line order. */
  fail(problems: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): never {
    const texts = problems
      .map((p) => ({ line: this.nearestLine(p.path) ?? 0, text: this.at(p.path, p.message) }))
      .sort((a, b) => a.line - b.line)
      .map((p) => p.text);
    throw new ValidationError(this.fileName, texts[0]!, texts.join('; '));
  }
}

/** `episodic.ttl_days` style path of a zod issue. */
export function dotted(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** Zod issues as problems with a path and a readable message (unknown keys get one problem each, at their own line). */
export function zodProblems(
  error: z.ZodError,
  knownKeys: (path: ReadonlyArray<PropertyKey>) => readonly string[] = () => [],
): Array<{ path: PropertyKey[]; message: string }> {
  return error.issues.flatMap((i) => {
    if (i.code === 'unrecognized_keys') {
      const known = knownKeys(i.path);
      const hint = known.length ? `; known keys${i.path.length ? ` of ${dotted(i.path)}` : ''}: ${known.join(', ')}` : '';
      return i.keys.map((k) => ({ path: [...i.path, k], message: `unknown key ${dotted([...i.path, k])}${hint}` }));
    }
    const where = dotted(i.path);
    return [{ path: [...i.path], message: where ? `${where}: ${i.message}` : i.message }];
  });
}
