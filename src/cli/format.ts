import type * as Yaml from 'yaml';
import type { z } from 'zod';
import type * as C from '../core/contract';
import type { DuplicatePair } from '../core/duplicates';
import { escapeInvisible } from '../core/invisibleText';
import type { CliIo } from './io';

/*
 * How commands print: `--json` prints the service's answer (the contract's shapes); otherwise
 * text for people, rendered below for memories and as YAML for the playbook tiers unless given.
 */

/** Where a command prints, and how: `--json` or text. */
interface Output {
  json: boolean;
  io: CliIo;
}

/**
 * Control and format characters (bidi controls, zero-width, ESC, …) as JSON escapes: outside
 * strings JSON is ASCII, so the value is unchanged and a terminal never receives them raw.
 */
const jsonVisible = (json: string) =>
  json.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) =>
    c === '\n' ? c : [...c].map((_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );

let yaml: typeof Yaml | undefined;

/**
 * `value` as YAML. The yaml package (115 KB of the bundle) is loaded on first use, not run at
 * every one-shot command's start: only the playbook's commands print YAML.
 */
function asYaml(value: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not when the bundle starts
  return (yaml ??= require('yaml') as typeof Yaml).stringify(value, { lineWidth: 0 });
}

/** `--json` prints the service's answer; text prints `text`, or the answer as YAML when no text is given. */
export function show(out: Output, value: unknown, text?: string): void {
  out.io.stdout(out.json ? `${jsonVisible(JSON.stringify(value))}\n` : (text ?? asYaml(value)));
}

/** A page of items as one line each, and how to get the next page. */
export function showPage<T>(out: Output, page: { items: T[]; nextCursor: string | null }, line: (item: T) => string, empty: string): void {
  const more = page.nextCursor ? `… more: --cursor ${page.nextCursor}\n` : '';
  show(out, page, page.items.length ? page.items.map((i) => `${line(i)}\n`).join('') + more : `${empty}\n`);
}

const tagList = (tags: string[]) => `[${tags.join(', ')}]`;
/**
 * Stored text for a terminal: characters the fields now refuse (core/screening.ts) escaped, for
 * memories stored before they were; `one` also writes newlines as \n (a one-line field).
 */
const seen = (text: string, one = true) => escapeInvisible(text, !one);
const flagged = (reasons: string[] | undefined) => (reasons?.length ? `  ! reads like instructions: ${reasons.join('; ')}` : '');

export function formatSearch(hits: z.output<typeof C.SearchOutput>): string {
  if (hits.length === 0) return 'No memories match.\n';
  return hits
    .map((h) => `${h.id}  ${staleMark(h.freshness)}${seen(h.description)}  ${tagList(h.tags)}${flagged(h.instructionLike)}\n`)
    .join('');
}

/** `[stale] ` before the description of a memory whose cited code changed. */
function staleMark(freshness: C.Freshness | undefined): string {
  return freshness === 'stale' ? '[stale] ' : '';
}

function formatCitations(r: { citations?: C.CitationView[]; freshness?: C.Freshness; note?: string }): string {
  if (!r.citations?.length) return '';
  const lines = r.citations
    .map((c, i) => `${i === 0 ? 'cites:       ' : '             '}${c.status.padEnd(9)} ${seen(c.detail)}\n`)
    .join('');
  return lines + (r.note ? `stale:       ${r.note}\n` : '');
}

export function formatCheck(c: z.output<typeof C.CheckOutput>): string {
  if (!c.workspace) return 'No workspace to check citations against.\n';
  let out = '';
  for (const m of c.stale) {
    out += `${m.id}  v${m.version}  ${seen(m.description)}\n`;
    for (const cit of m.citations)
      if (cit.status !== 'fresh' && cit.status !== 'moved') out += `  ${cit.status.padEnd(9)} ${seen(cit.detail)}\n`;
  }
  const noun = c.checked === 1 ? 'memory cites' : 'memories cite';
  return `${out}${c.stale.length} stale; ${c.checked} ${noun} code.\n`;
}

export function formatRecord(r: z.output<typeof C.ReadOutput>): string {
  return (
    `id:          ${r.id}\n` +
    `version:     ${r.version}\n` +
    `description: ${seen(r.description)}\n` +
    `tags:        ${r.tags.join(', ')}\n` +
    `changed:     ${r.changedAt} by ${r.author}\n` +
    (r.deletedAt ? `deleted:     ${r.deletedAt}\n` : '') +
    formatCitations(r) +
    (r.instructionLike?.length ? `warning:     reads like instructions to an agent: ${r.instructionLike.join('; ')}\n` : '') +
    `\n${seen(r.content, false)}${r.content.endsWith('\n') ? '' : '\n'}`
  );
}

export function formatEdit(e: z.output<typeof C.EditOutput>): string {
  return e.changed
    ? `Saved version ${e.version} of ${e.id} (changed: ${e.changedFields.join(', ')}).\n` +
        (e.instructionLike ?? []).map((r) => `warning: reads like instructions to an agent: ${r}\n`).join('')
    : `Nothing changed: ${e.id} is still at version ${e.version}; nothing was written.\n`;
}

export function formatHistory(h: z.output<typeof C.HistoryOutput>): string {
  return h
    .map(
      (v) =>
        `v${v.version}  ${v.changedAt}  ${v.op.padEnd(7)}  ${v.author}${v.proposedBy ? ` (proposed by ${v.proposedBy})` : ''}` +
        `  via ${v.channel}${v.dbRole ? ` as role ${v.dbRole}` : ''}  ${seen(v.description)}  ${tagList(v.tags)}\n`,
    )
    .join('');
}

/** `next` gives the command line that reads the page after a cursor. */
export function formatList(l: z.output<typeof C.ListOutput>, next: (cursor: string) => string): string {
  const lines = l.items
    .map((i) => `${i.id}  ${i.changedAt}  ${staleMark(i.freshness)}${seen(i.description)}  ${tagList(i.tags)}\n`)
    .join('');
  return (lines || 'No memories.\n') + (l.nextCursor ? `More: ${next(l.nextCursor)}\n` : '');
}

/** `agent-memory` and `words` as a POSIX shell reads them back: a word with other characters single-quoted. */
export function commandLine(words: string[]): string {
  const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  return ['agent-memory', ...words].map(quote).join(' ');
}

export function formatTags(t: z.output<typeof C.TagsOutput>): string {
  let out = t.tags.map((x) => `${String(x.count).padStart(5)}  ${x.tag}\n`).join('') || 'No tags yet.\n';
  if (t.totalTags > t.tags.length) out += `(${t.totalTags - t.tags.length} less used tags not shown)\n`;
  for (const s of t.suggestions) {
    const close = s.similar.map((x) => `${x.tag} (${x.count})`).join(', ');
    out += `${s.proposed} → ${s.normalized}: ${s.exists ? 'exists' : 'new'}${close ? `; close: ${close}` : ''}\n`;
  }
  return out;
}

/** What a create adds for a person: instruction-like text, and the live memories it closely matches. */
export function formatCreateNotes(c: z.output<typeof C.CreateOutput>): string {
  const lines = (c.instructionLike ?? []).map((r) => `warning: reads like instructions to an agent: ${r}\n`);
  for (const s of c.similar ?? [])
    lines.push(`note: closely matches memory ${s.id} (similarity ${s.similarity}): ${seen(s.description)}; consider editing it instead\n`);
  return lines.join('');
}

/** Likely duplicate pairs, most similar first, with the commands that merge them. */
export function formatDuplicates(pairs: DuplicatePair[]): string {
  if (pairs.length === 0) return 'No likely duplicates.\n';
  return (
    pairs
      .map(
        (p) =>
          `${p.similarity.toFixed(2)}  ${p.a.id}  ${seen(p.a.description)}  ${tagList(p.a.tags)}\n` +
          `      ${p.b.id}  ${seen(p.b.description)}  ${tagList(p.b.tags)}\n`,
      )
      .join('') + 'Merge a pair: edit the one to keep (its content, the union of tags), then delete the other; history keeps both.\n'
  );
}
