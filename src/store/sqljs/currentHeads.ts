import { isNewer, type VersionKey } from '../../core/ports/versionOrder';
import { AppliedLines, lineKey } from './appliedLines';
import { CurrentView } from './currentView';
import { type JournalEntry, type ParsedLine, parseLine, type VersionHeader, versionHeaderAt } from './entries';
import type { JournalFile, JournalLine } from './journal';
import type { JournalCursor } from './journalCursor';

/**
 * Each memory id's current version (versionOrder) and the purged ids, from journal entries taken
 * in file order, without analysing any text: the first pass of a cold build (which then files
 * only the heads' lines) and what `doctor` compares the caches with.
 */
export class CurrentHeads {
  /** Each live or deleted id's current version, with the number of the line that holds it. */
  readonly heads = new Map<string, VersionKey & { line: number }>();
  readonly purged = new Set<string>();

  /** Takes the entry of line number `line`. */
  add(entry: JournalEntry, line: number): void {
    if (entry.type === 'memory.purge') {
      this.purged.add(entry.id);
      this.heads.delete(entry.id);
    } else if (entry.type === 'memory.version') this.addVersion(entry.row, line);
  }

  /** Takes a version of line number `line`, known by its header (entries.ts, versionHeader). */
  addVersion(v: VersionHeader, line: number): void {
    if (this.purged.has(v.id)) return;
    const head = this.heads.get(v.id);
    if (!head || isNewer(v, head)) this.heads.set(v.id, { changedAt: v.changedAt, version: v.version, rowId: v.rowId, line });
  }

  /** As CurrentView.headRowIds: each id's current rowId, `purged` for a purged id. */
  rowIds(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [id, head] of this.heads) out.set(id, head.rowId);
    for (const id of this.purged) out.set(id, 'purged');
    return out;
  }
}

/**
 * The second pass of a cold build: files into `view` the versions `heads` found current (by
 * their line numbers), reading the journal's first `until` bytes again (decoding only those
 * lines), and drops the purged ids. Analysing a memory's text is the costly part, and a version
 * replaced later in the file would be analysed for nothing. False, with the view part-filled,
 * when a current version's line is not the valid version its header promised (a line damaged
 * after its start, when the first pass read only headers).
 */
export function fileHeads(heads: CurrentHeads, journal: JournalFile, until: number, view: CurrentView): boolean {
  const wanted = new Map<number, VersionKey>();
  for (const h of heads.heads.values()) wanted.set(h.line, h);
  for (const id of heads.purged) view.purge(id);
  const lines = journal.readLines(0, until, (n) => !wanted.has(n));
  let n = 0;
  for (let r = lines.next(); !r.done; r = lines.next()) {
    while (!wanted.has(n)) n++;
    const head = wanted.get(n++)!;
    const parsed = parseLine(r.value.text);
    if (!parsed.ok || parsed.entry.type !== 'memory.version' || !sameVersion(parsed.entry.row, head)) return false;
    // Each memory is filed once here: its content terms are kept only in the postings (each term once for all).
    view.apply(parsed.entry.row, parsed.entry.terms, false);
  }
  return true;
}

function sameVersion(a: VersionKey, b: VersionKey): boolean {
  return a.rowId === b.rowId && a.changedAt === b.changedAt && a.version === b.version;
}

/** A cold build's result: the view, the consumed lines' keys, how many lines were read, the lines that did not parse (to warn about). */
export interface BuiltView {
  view: CurrentView;
  lines: AppliedLines;
  count: number;
  badLines: Array<{ parsed: Extract<ParsedLine, { ok: false }>; line: JournalLine }>;
  /** An incomplete line follows the last complete one. */
  incomplete: boolean;
}

/**
 * Builds the view from the whole journal, `cursor` at its start, in two passes: the first finds
 * each id's current version (versionOrder) and the purges, the second (fileHeads) files only
 * those versions. The end state is what applying every line in order gives. The first pass reads
 * a version line's header alone (versionHeader) and parses only other lines; should a current
 * version's line then fail its parse, the build starts over parsing every line. `cursor` ends
 * past the last complete line.
 */
export function viewFromJournal(journal: JournalFile, cursor: JournalCursor, headersOnly = true): BuiltView {
  const start = cursor.position;
  const current = new CurrentHeads();
  const lines = AppliedLines.after(start);
  const badLines: BuiltView['badLines'] = [];
  let count = 0;
  // Version lines are read by their header's bytes alone (versionHeaderAt); the others are decoded and parsed.
  const incomplete = cursor.scan((data, start, end, base) => {
    const n = count++;
    const header = headersOnly ? versionHeaderAt(data, start, end) : undefined;
    if (header) {
      lines.recordBytes(header.rowId, data, start, end + 1, base + end + 1);
      current.addVersion(header, n);
      return;
    }
    const line = { text: data.toString('utf8', start, end), start: base + start, end: base + end + 1 };
    const parsed = parseLine(line.text);
    lines.record(lineKey(parsed, line.text), line);
    if (parsed.ok) current.add(parsed.entry, n);
    else badLines.push({ parsed, line });
  });
  const view = new CurrentView();
  if (!fileHeads(current, journal, cursor.position.offset, view)) {
    cursor.moveTo(start);
    return viewFromJournal(journal, cursor, false);
  }
  return { view, lines, count, badLines, incomplete };
}
