import type { RecordKind, StoredRecord } from '../../core/ports/records';
import type { StoredVersion, StoreWarning } from '../../core/ports/store';
import type { VersionKey } from '../../core/ports/versionOrder';
import type { Analysis } from '../../core/search/analysis';
import { carriedTerms, readTerms, termsText } from './carriedTerms';
import type { JournalLine } from './journal';

/** Version of the journal line format. Lines with a higher `v` come from a newer release. */
export const JOURNAL_FORMAT = 1;

/**
 * One journal line. Records of the other tiers are written as one `records` line per write,
 * so a write of several rows (two facts disputed together) is stored whole or not at all.
 */
export type JournalEntry =
  // `terms`: the row's analysis as its line carries it (carriedTerms.ts), when this release can use it.
  | { v: number; type: 'memory.version'; row: StoredVersion; terms?: Analysis }
  | { v: number; type: 'memory.purge'; id: string; at: string; author: string }
  | { v: number; type: 'records'; rows: StoredRecord[] }
  // `author` (who purged) is absent from lines written before it was recorded.
  | { v: number; type: 'records.purge'; kind: RecordKind; ids: string[]; at: string; author?: string };

export type ParsedLine = { ok: true; entry: JournalEntry } | { ok: false; reason: string; unknown?: boolean };

const isStr = (x: unknown): x is string => typeof x === 'string';
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** What a reader is told of a line it skips (none for a blank one): where it is, and why. */
export function badLineWarning(parsed: Extract<ParsedLine, { ok: false }>, line: JournalLine, file: string): StoreWarning | undefined {
  if (line.text.trim() === '') return undefined;
  return {
    code: parsed.unknown ? 'unknown-journal-entry' : 'bad-journal-line',
    message: `journal line at byte ${line.start} of ${file} ${parsed.reason}; it was skipped and left in place`,
  };
}

/** Structural check of a stored row: the journal is our own output, so this guards against damage, not input. */
function isRow(r: unknown): r is StoredVersion {
  if (!isObj(r)) return false;
  const o = r;
  return (
    isStr(o.rowId) &&
    isStr(o.id) &&
    Number.isInteger(o.version) &&
    isStr(o.op) &&
    isStr(o.description) &&
    Array.isArray(o.tags) &&
    o.tags.every(isStr) &&
    isStr(o.content) &&
    isStr(o.changedAt) &&
    (o.deletedAt === null || isStr(o.deletedAt)) &&
    isStr(o.author)
  );
}

function isRecord(r: unknown): r is StoredRecord {
  if (!isObj(r)) return false;
  return (
    isStr(r.rowId) &&
    isStr(r.kind) &&
    isStr(r.id) &&
    Number.isInteger(r.version) &&
    isStr(r.op) &&
    isStr(r.status) &&
    Array.isArray(r.keys) &&
    r.keys.length === 3 &&
    r.keys.every(isStr) &&
    typeof r.rank === 'number' &&
    (r.dueAt === null || isStr(r.dueAt)) &&
    isObj(r.data) &&
    isStr(r.changedAt) &&
    (r.deletedAt === null || isStr(r.deletedAt)) &&
    isStr(r.author)
  );
}

export function parseLine(text: string): ParsedLine {
  let e: unknown;
  try {
    e = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'is not valid JSON' };
  }
  if (!isObj(e)) return { ok: false, reason: 'is not a JSON object' };
  const o = e;
  if (typeof o.v !== 'number') return { ok: false, reason: 'has no format version' };
  if (o.v > JOURNAL_FORMAT) return { ok: false, reason: `has format ${o.v}, newer than this release (${JOURNAL_FORMAT})`, unknown: true };
  if (o.type === 'memory.version' && isRow(o.row)) {
    if (o.terms !== undefined) o.terms = readTerms(o.terms, o.row);
    return { ok: true, entry: e as JournalEntry };
  }
  if (o.type === 'memory.purge' && isStr(o.id) && isStr(o.at)) return { ok: true, entry: e as JournalEntry };
  if (o.type === 'records' && Array.isArray(o.rows) && o.rows.every(isRecord)) return { ok: true, entry: e as JournalEntry };
  if (o.type === 'records.purge' && isStr(o.kind) && Array.isArray(o.ids) && o.ids.every(isStr) && isStr(o.at))
    return { ok: true, entry: e as JournalEntry };
  return { ok: false, reason: `has an unknown or malformed entry type ${JSON.stringify(o.type)}`, unknown: true };
}

/** The line of an entry (without its newline), fields in a fixed order. */
export function entryLine(e: JournalEntry): string {
  switch (e.type) {
    case 'memory.version':
      return JSON.stringify({ v: JOURNAL_FORMAT, type: e.type, row: e.row, terms: e.terms && termsText(e.terms) });
    case 'memory.purge':
      return JSON.stringify({ v: JOURNAL_FORMAT, type: e.type, id: e.id, at: e.at, author: e.author });
    case 'records':
      return JSON.stringify({ v: JOURNAL_FORMAT, type: e.type, rows: e.rows });
    case 'records.purge':
      return JSON.stringify({ v: JOURNAL_FORMAT, type: e.type, kind: e.kind, ids: e.ids, at: e.at, author: e.author });
  }
}

/** The line of a version, with the terms it is filed under when live (carriedTerms.ts). */
export function versionLine(row: StoredVersion): string {
  return entryLine({ v: JOURNAL_FORMAT, type: 'memory.version', row, terms: carriedTerms(row) });
}

export function purgeLine(id: string, at: string, author: string): string {
  return entryLine({ v: JOURNAL_FORMAT, type: 'memory.purge', id, at, author });
}

/** What orders a version line among its id's versions, read without parsing the line. */
export interface VersionHeader extends VersionKey {
  id: string;
}

/** The start of a version line as entryLine writes it (a rowId and id without escapes, as this release makes them). */
const VERSION_START = new RegExp(
  `^\\{"v":${JOURNAL_FORMAT},"type":"memory\\.version","row":\\{"rowId":"([^"\\\\]*)","id":"([^"\\\\]*)","version":(\\d{1,15}),`,
);
/** What every version line entryLine writes starts with. */
const VERSION_PREFIX = `{"v":${JOURNAL_FORMAT},"type":"memory.version","row":{"rowId":"`;
const CHANGED_AT = '"changedAt":"';
/** Where a version line's carried terms start, after its row. */
const TERMS_AFTER_ROW = '},"terms":"';

/**
 * A version line's id and order (versionOrder), read from the text without parsing it: what the
 * first pass of a cold build needs of each of a long journal's lines, at a fraction of a parse's
 * cost. Undefined for any line not written as entryLine writes a version (a purge, records,
 * another key order, escapes): parse those. A line it reads may still be damaged further on:
 * the lines used are parsed in full later, and a failure there falls back to parsing every line.
 */
export function versionHeader(text: string): VersionHeader | undefined {
  const m = VERSION_START.exec(text);
  if (m === null || !(text.endsWith('}}') || (text.endsWith('"}') && text.lastIndexOf(TERMS_AFTER_ROW) !== -1))) return undefined;
  // A key inside a string has escaped quotes: an unescaped `"changedAt":"` is the row's own key, found once.
  const at = text.lastIndexOf(CHANGED_AT);
  if (at === -1 || text.indexOf(CHANGED_AT) !== at) return undefined;
  const from = at + CHANGED_AT.length;
  const to = text.indexOf('"', from);
  if (to === -1) return undefined;
  const changedAt = text.slice(from, to);
  if (changedAt.includes('\\')) return undefined;
  try {
    return { rowId: ownString(m[1]!), id: ownString(m[2]!), version: Number(m[3]), changedAt: ownString(changedAt) };
  } catch {
    return undefined; // a control character: not valid JSON
  }
}

const CHANGED_AT_BYTES = Buffer.from(CHANGED_AT);
const TERMS_AFTER_ROW_BYTES = Buffer.from(TERMS_AFTER_ROW);
/** Bytes of a version line's start that hold its rowId, id and number (two UUIDs): longer ones are read from the whole text. */
const HEADER_BYTES = 256;
const [QUOTE, BACKSLASH, CLOSE] = ['"', '\\', '}'].map((c) => c.charCodeAt(0)) as [number, number, number];

/**
 * versionHeader of the line `data[start, end)`, decoding only the bytes it reads: the start, and
 * the row's time near the end. The same answer: every mark it looks for is ASCII, which UTF-8
 * never uses inside another character.
 */
export function versionHeaderAt(data: Buffer, start: number, end: number): VersionHeader | undefined {
  if (end - start < 4 || data[end - 1] !== CLOSE) return undefined;
  const before = data[end - 2];
  if (before !== CLOSE && !(before === QUOTE && data.lastIndexOf(TERMS_AFTER_ROW_BYTES, end - 1) >= start)) return undefined;
  const head = data.toString('utf8', start, Math.min(end, start + HEADER_BYTES));
  const m = VERSION_START.exec(head);
  // A version whose ids run past the bytes decoded: read from its whole text.
  if (m === null)
    return end - start > HEADER_BYTES && head.startsWith(VERSION_PREFIX) ? versionHeader(data.toString('utf8', start, end)) : undefined;
  const at = data.lastIndexOf(CHANGED_AT_BYTES, end - 1);
  if (at < start || data.indexOf(CHANGED_AT_BYTES, start) !== at) return undefined;
  const from = at + CHANGED_AT_BYTES.length;
  const to = data.indexOf(QUOTE, from);
  if (to === -1 || to >= end || data.subarray(from, to).includes(BACKSLASH)) return undefined;
  try {
    return { rowId: ownString(m[1]!), id: ownString(m[2]!), version: Number(m[3]), changedAt: ownString(data.toString('utf8', from, to)) };
  } catch {
    return undefined; // a control character: not valid JSON
  }
}

/**
 * A string of its own, not a slice keeping the whole line alive (V8 keeps a long substring as a
 * view of its parent): the rowIds outlive the build, one a line. JSON reads it as a parse would.
 */
function ownString(unescaped: string): string {
  return JSON.parse(`"${unescaped}"`) as string;
}
