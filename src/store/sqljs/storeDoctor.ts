import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoredVersion } from '../../core/ports/store';
import type { Analysis } from '../../core/search/analysis';
import { differsFromAnalysis } from './carriedTerms';
import { CurrentHeads } from './currentHeads';
import { CurrentView, VIEW_FILE } from './currentView';
import { parseLine } from './entries';
import { JournalFile } from './journal';
import { journalLines, lineState, type NumberedLine } from './journalRepair';
import { SCHEMA_VERSION, userVersion } from './schema';
import { snapshotFromNewerRelease, snapshotPosition } from './snapshot';
import { loadSqlJs } from './sqljsOptions';

/** One thing `agent-memory doctor` found. */
export interface Finding {
  /** What it is about: journal, snapshot, index (and, from the CLI, policy, ontology, database). */
  part: string;
  /** True when something is wrong (doctor exits non-zero); false for information. */
  problem: boolean;
  message: string;
  /** Whether `doctor --repair` fixes it. */
  repairable: boolean;
}

/** Something wrong with `part` (`repairable` when `doctor --repair` fixes it). */
export const problem = (part: string, message: string, repairable = false): Finding => ({ part, problem: true, message, repairable });
/** Something `doctor` says of `part` that is not wrong. */
export const note = (part: string, message: string): Finding => ({ part, problem: false, message, repairable: false });

/** Each memory id's current rowId after the journal's lines that end at or before `offset`. */
function headsAt(lines: readonly NumberedLine[], offset: number): Map<string, string> {
  const current = new CurrentHeads();
  for (const [n, l] of lines.entries()) {
    if (l.end > offset) break;
    const p = parseLine(l.text);
    if (p.ok) current.add(p.entry, n);
  }
  return current.rowIds();
}

/** Ids on which two head maps disagree. */
function disagreeing(a: Map<string, string>, b: Map<string, string>): string[] {
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids].filter((id) => a.get(id) !== b.get(id)).sort();
}

const some = (ids: string[]) =>
  `${ids.length} memor${ids.length === 1 ? 'y' : 'ies'} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`;

/**
 * Checks a workspace store without changing anything: every journal line parses; the saved
 * search index and the snapshot are at a position the journal still has, and hold the current
 * versions the journal's lines up to that position give. Only reads files (the store's own open
 * would set a corrupt snapshot aside).
 */
export async function inspectWorkspaceStore(dir: string, wasmPath?: string): Promise<Finding[]> {
  if (!fs.existsSync(dir)) return [note('store', `no store at ${dir} yet: nothing was written there`)];
  const journal = new JournalFile(path.join(dir, 'journal.jsonl'));
  if (journal.stat().ino === 0) return [note('journal', `${journal.file} does not exist yet: nothing was written`)];
  const findings: Finding[] = [];
  const { lines, end, incomplete } = journalLines(journal);
  let damaged = 0;
  const versions: VersionLine[] = [];
  for (const l of lines) {
    const s = lineState(l.text);
    if (s.state === 'ok' && s.entry.type === 'memory.version') versions.push({ line: l, row: s.entry.row, terms: s.entry.terms });
    if (s.state === 'damaged') {
      damaged++;
      findings.push(problem('journal', `line ${l.number} (byte ${l.start}) ${s.reason}; every command skips it and warns`, true));
    } else if (s.state === 'newer')
      findings.push(
        problem('journal', `line ${l.number} ${s.reason}: written by a newer release; update agent-memory (a repair keeps it)`, false),
      );
  }
  if (incomplete)
    findings.push(
      problem(
        'journal',
        `it ends in an incomplete line (${journal.stat().size - end} bytes after line ${lines.length}): a write in progress, or one a crash cut short`,
        true,
      ),
    );
  findings.push(note('journal', `${lines.length} line(s)${damaged ? `, ${damaged} damaged` : ''}`));
  findings.push(...carriedTermsFindings(versions));

  // The saved search index.
  const viewFile = path.join(dir, VIEW_FILE);
  const saved = CurrentView.load(viewFile);
  if ('view' in saved && !journal.continues(saved.position))
    // Not damage: the next command catches the index up with the lines git changed (appliedLines.ts).
    findings.push(
      note(
        'index',
        `${viewFile} was saved before the journal changed underneath (a git pull, merge or rebase); the next command catches it up`,
      ),
    );
  else if ('view' in saved) {
    const off = disagreeing(saved.view.headRowIds(), headsAt(lines, saved.position.offset));
    if (off.length) findings.push(problem('index', `${viewFile} disagrees with the journal on ${some(off)}`, true));
    else findings.push(note('index', `${viewFile} matches the journal up to byte ${saved.position.offset}`));
  } else if (saved.reason)
    findings.push(problem('index', `${viewFile} is not used: ${saved.reason}; every command rebuilds it until it is saved again`, true));
  else findings.push(note('index', 'no saved search index yet (saved at a checkpoint)'));

  // The snapshot.
  const snapshot = path.join(dir, 'snapshot.sqlite');
  if (!fs.existsSync(snapshot)) findings.push(note('snapshot', 'no snapshot yet (saved at a checkpoint)'));
  else if (snapshotFromNewerRelease(snapshot))
    findings.push(problem('snapshot', `${snapshot} was written by a newer release; update agent-memory`, false));
  else findings.push(await inspectSnapshot(snapshot, journal, lines, wasmPath));
  return findings;
}

/** A version line as the doctor read it. */
interface VersionLine {
  line: NumberedLine;
  row: StoredVersion;
  terms?: Analysis;
}

/**
 * What the journal's version lines say of their terms (carriedTerms.ts): how many carry terms this
 * release files them under, how many carry terms it cannot use (another release's analysis: those
 * are analysed again), and, as a problem, those whose terms are not what this release's analysis
 * of their row gives (a line written by hand or by a faulty writer: after a fresh clone's open,
 * the memory is found by the terms written, not by its text).
 */
function carriedTermsFindings(versions: readonly VersionLine[]): Finding[] {
  let used = 0;
  let unused = 0;
  const differing: number[] = [];
  const ids = new Set<string>();
  for (const { line, row, terms } of versions) {
    if (!terms) {
      // A field this release could not use (parseLine dropped it): read again only where one is written.
      if (row.deletedAt === null && line.text.includes('"terms"') && (JSON.parse(line.text) as { terms?: unknown }).terms !== undefined)
        unused++;
      continue;
    }
    used++;
    if (differsFromAnalysis(terms, row)) {
      differing.push(line.number);
      ids.add(row.id);
    }
  }
  const findings: Finding[] = [];
  if (used || unused)
    findings.push(
      note(
        'journal',
        `${used} version line(s) carry the terms they are filed under${unused ? `; ${unused} carry terms of another release's analysis (analysed again when read)` : ''}`,
      ),
    );
  if (differing.length)
    findings.push(
      problem(
        'journal',
        `${differing.length} line(s) (${differing.slice(0, 5).join(', ')}${differing.length > 5 ? ', …' : ''}) carry terms that this release's analysis of their text does not give, for ${some([...ids])}: a fresh clone finds them by the terms written; edit such a memory to file it by its text again`,
      ),
    );
  return findings;
}

async function inspectSnapshot(file: string, journal: JournalFile, lines: readonly NumberedLine[], wasmPath?: string): Promise<Finding> {
  const SQL = await loadSqlJs(wasmPath);
  let db;
  try {
    db = new SQL.Database(fs.readFileSync(file));
    const version = userVersion(db);
    if (version < 1) return problem('snapshot', `${file} has no schema version: not a snapshot of this store`, true);
    if (version < SCHEMA_VERSION) return note('snapshot', `${file} has schema ${version}; this release migrates it when it loads it`);
    const position = snapshotPosition(db);
    if (!journal.continues(position))
      return problem(
        'snapshot',
        `${file} does not match the journal (rewritten or merged since it was saved); every command that loads it replays the whole journal and warns`,
        true,
      );
    const rows = db.exec('SELECT v.id, v.row_id FROM memories_current c JOIN memory_versions v ON v.seq = c.seq')[0]?.values ?? [];
    const inSnapshot = new Map(rows.map(([id, rowId]) => [String(id), String(rowId)]));
    for (const [id] of db.exec('SELECT id FROM purged')[0]?.values ?? []) inSnapshot.set(String(id), 'purged');
    const off = disagreeing(inSnapshot, headsAt(lines, position.offset));
    if (off.length) return problem('snapshot', `${file} disagrees with the journal on ${some(off)}`, true);
    return note('snapshot', `${file} matches the journal up to byte ${position.offset}`);
  } catch (err) {
    return problem(
      'snapshot',
      `${file} cannot be read (${(err as Error).message}); the store sets it aside and rebuilds it from the journal`,
      true,
    );
  } finally {
    db?.close();
  }
}
