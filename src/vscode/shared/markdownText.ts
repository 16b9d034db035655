/**
 * Stored text (a memory, a fact, an agent's proposal) inside Markdown that a person reads: the
 * text must read as written, and must not turn into links, HTML, math or formatting. Plain
 * functions (no `vscode` import), tested in Node.
 */

/**
 * What a Markdown renderer would turn into a link (VS Code's preview and hovers link bare URLs
 * and e-mail addresses). Stopped before a closing bracket or a final punctuation mark.
 */
const LINKABLE = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>`"|]*[^\s<>`"|.,;:!?)\]}'*]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;

/**
 * Markdown that renders as `text`. Characters that would format are escaped, but only those:
 * an escape splits the text a renderer scans for links, so `https://wiki\.example\.com`
 * linked only `https://wiki`. URLs and addresses go in code spans instead: shown whole, never
 * linked. For Markdown only: a quick pick, a plain tooltip or a text document shows text as is.
 */
export function md(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(LINKABLE)) {
    out += escape(text.slice(last, m.index)) + `\`${m[0]}\``;
    last = m.index + m[0].length;
  }
  return out + escape(text.slice(last));
}

/** Backslash before what formats anywhere; and before what starts a block only at a line's start. */
function escape(text: string): string {
  return text
    .replace(/[\\`*_[\]<>|~$&#]/g, '\\$&')
    .replace(/^(\s*)([+=-])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

/** A fenced block that the content itself cannot close. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}markdown\n${text}\n${fence}`;
}

/** A code span showing `text` as it is (no escapes inside: a backslash there would show). */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text.replace(/\n/g, ' ')}${pad}${ticks}`;
}
