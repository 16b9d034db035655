import * as fs from 'node:fs';
import * as path from 'node:path';
import { entryLine, type JournalEntry, JOURNAL_FORMAT, parseLine } from './entries';
import { type JournalFile, type JournalLine } from './journal';

/** Entry types this release writes: a line of another type (or a newer format) is a newer release's, not damage. */
const KNOWN_TYPES = new Set(['memory.version', 'memory.purge', 'records', 'records.purge']);

/** What one journal line is to the doctor. */
export type LineState =
  { state: 'ok'; entry: JournalEntry } | { state: 'blank' } | { state: 'damaged'; reason: string } | { state: 'newer'; reason: string };

/** Reads one line as the doctor judges it: damaged (set aside by a repair), a newer release's (kept), or fine. */
export function lineState(text: string): LineState {
  if (text.trim() === '') return { state: 'blank' };
  const parsed = parseLine(text);
  if (parsed.ok) return { state: 'ok', entry: parsed.entry };
  if (!parsed.unknown) return { state: 'damaged', reason: parsed.reason };
  const o = JSON.parse(text) as { v: number; type?: unknown };
  if (o.v > JOURNAL_FORMAT || typeof o.type !== 'string' || !KNOWN_TYPES.has(o.type)) return { state: 'newer', reason: parsed.reason };
  return { state: 'damaged', reason: `is a ${o.type} entry with missing or malformed fields` };
}

/** A journal line with its 1-based number. */
export interface NumberedLine extends JournalLine {
  number: number;
}

/** Every complete line of the journal, numbered, and whether an incomplete line follows them. */
export function journalLines(journal: JournalFile): { lines: NumberedLine[]; end: number; incomplete: boolean } {
  const size = journal.stat().size;
  const lines: NumberedLine[] = [];
  const it = journal.readLines(0, size);
  let r = it.next();
  for (; !r.done; r = it.next()) lines.push({ ...r.value, number: lines.length + 1 });
  return { lines, ...r.value };
}

/** The file beside the journal where a repair keeps the damaged lines it took out. */
export const REJECTED_FILE = 'journal.rejected.jsonl';

/** One damaged line as a repair keeps it: where it was, why, and its text as it was. */
export interface RejectedLine {
  line: number;
  byte: number;
  reason: string;
  text: string;
  setAsideAt: string;
}

/** What a repair did: the damaged lines it moved (and where), and where a torn last line went. */
export interface JournalRepair {
  rejected: RejectedLine[];
  rejectedFile: string | undefined;
  tornKeptAt: string | undefined;
}

/**
 * `doctor --repair`'s part on the file, under the store's write lock: an incomplete last line is
 * set aside (as a writer does), then the damaged lines are moved into REJECTED_FILE (appended,
 * fsynced first) and the journal replaced with every other line, byte for byte and in order.
 * The journal is read once. When nothing is damaged, nothing more is written.
 */
export function setAsideForRepair(journal: JournalFile): JournalRepair {
  const { lines, end, incomplete } = journalLines(journal);
  const tornKeptAt = incomplete ? journal.setAsideTail(end) : undefined;
  const { rejected, file } = setAsideDamagedLines(journal, lines);
  return { rejected, rejectedFile: rejected.length ? file : undefined, tornKeptAt };
}

/** Moves the damaged ones of `lines` (the journal's complete lines, nothing after them) to REJECTED_FILE, keeping the rest as the journal. */
function setAsideDamagedLines(journal: JournalFile, lines: readonly NumberedLine[]): { rejected: RejectedLine[]; file: string } {
  const file = path.join(path.dirname(journal.file), REJECTED_FILE);
  const at = new Date().toISOString();
  const rejected: RejectedLine[] = [];
  const kept: string[] = [];
  for (const l of lines) {
    const s = lineState(l.text);
    if (s.state === 'damaged') rejected.push({ line: l.number, byte: l.start, reason: s.reason, text: l.text, setAsideAt: at });
    else kept.push(l.text);
  }
  if (rejected.length === 0) return { rejected, file };
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, rejected.map((r) => `${JSON.stringify(r)}\n`).join(''));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  journal.replace(kept);
  return { rejected, file };
}

/**
 * The journal's complete lines before `end`, each entry as `keep` returns it: null drops it, the
 * same entry keeps its line as written, another is written anew; unreadable lines stay as they are.
 */
export function keptLines(journal: JournalFile, end: number, keep: (entry: JournalEntry) => JournalEntry | null): string[] {
  const lines: string[] = [];
  for (const text of journal.linesUpTo(end)) {
    const parsed = parseLine(text);
    const kept = parsed.ok ? keep(parsed.entry) : undefined;
    if (!parsed.ok || kept === parsed.entry) lines.push(text);
    else if (kept) lines.push(entryLine(kept));
  }
  return lines;
}
