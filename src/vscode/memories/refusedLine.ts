/**
 * Where in a memory document a refused save went wrong, so the editor can mark that line. Plain
 * functions (no `vscode` import), tested in Node.
 */

/** What a refusal names: the input path of the field (`tags`, `tags[2]`, `content`, `document`), and a line within it if known. */
export interface Refusal {
  field: string;
  message: string;
  /** 1-based line within the field's text (a secret found in the content says which). */
  line?: number;
}

const FENCE = '---';

/**
 * The 0-based line of `text` (a memory document) to mark for a refusal: the front-matter line
 * of the field (the list item for `tags[2]`), the content's line, the line a front-matter
 * error names; else the first line.
 */
export function refusedLine(text: string, refusal: Refusal): number {
  const lines = documentLines(text);
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === FENCE);
  const frontEnd = end < 0 ? lines.length : end;
  const { root, index } = fieldPath(refusal.field);

  if (root === 'document') {
    // "front matter, line 3: …" counts from the opening fence as line 1.
    const n = /front matter, line (\d+)/.exec(refusal.message)?.[1];
    return n ? clamp(Number(n) - 1, lines) : 0;
  }
  if (root === 'content') {
    if (end < 0) return 0;
    // One blank line after the front matter is not part of the content (memoryDocument.ts).
    const first = lines[end + 1]?.trim() === '' ? end + 2 : end + 1;
    return clamp(first + (refusal.line ?? 1) - 1, lines);
  }
  const key = lines.findIndex((l, i) => i > 0 && i < frontEnd && new RegExp(`^${root}\\s*:`).test(l));
  if (key < 0) return 0;
  if (index !== undefined) {
    // A block list (one "- item" per line): the item's own line; a flow list ([a, b]) is one line.
    let seen = -1;
    for (let i = key + 1; i < frontEnd && /^\s+-|^-/.test(lines[i]!); i++) if (++seen === Number(index)) return i;
  }
  if (refusal.line !== undefined && refusal.line > 1 && root !== 'tags') return clamp(key + refusal.line - 1, lines);
  return key;
}

/** A document's lines, whatever its line ends. */
export function documentLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** A refused field's name and list index: `tags[2]` → tags, "2"; `description` → description. */
export function fieldPath(field: string): { root: string; index: string | undefined } {
  const [, root = '', index] = /^(\w*)(?:\[(\d+)\])?/.exec(field) ?? [];
  return { root, index };
}

function clamp(n: number, lines: string[]): number {
  return Math.max(0, Math.min(n, lines.length - 1));
}
