import type { CitationInput, CitationStatus, CitationView, Freshness, StoredCitation } from './contract/citations';
import { ValidationError } from './errors';
import type { Codebase } from './ports/codebase';
import { sha256Hex } from './nodeCrypto';

/** Cited lines up to this many keep a hash per line, to tell a changed passage from a removed one and find a moved one fast. */
const LINE_HASHES_MAX = 200;
/** How long what git said about a file is reused (a commit or checkout changes it; the cache is per file state otherwise). */
const HISTORY_TTL_MS = 5_000;
const FILE_CACHE_MAX = 500;

const lineHash = (s: string) => sha256Hex(s).slice(0, 8);
const strip = (s: string) => s.replace(/\s+/g, '');

/** A file read once per state: its lines without whitespace, and where each starts in their concatenation. */
interface FileText {
  lineCount: number;
  stripped: string[];
  /** Offset of each line in `all`. */
  offsets: number[];
  all: string;
  /** Lines (by hash, without whitespace) that are not blank, with their 0-based numbers. */
  byHash: Map<string, number[]>;
}

function analyse(text: string): FileText {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the newline at the end of the file is not a line
  const stripped = lines.map(strip);
  const offsets: number[] = [];
  let at = 0;
  for (const s of stripped) {
    offsets.push(at);
    at += s.length;
  }
  const byHash = new Map<string, number[]>();
  stripped.forEach((s, i) => {
    if (!s) return;
    const h = lineHash(s);
    const list = byHash.get(h);
    if (list) list.push(i);
    else byHash.set(h, [i]);
  });
  return { lineCount: lines.length, stripped, offsets, all: stripped.join(''), byHash };
}

const range = (c: { startLine?: number; endLine?: number }) =>
  c.startLine === undefined ? '' : c.endLine !== undefined && c.endLine !== c.startLine ? `${c.startLine}-${c.endLine}` : `${c.startLine}`;

/** `src/a.ts:10-24`, or the path alone for a whole file. */
export function citationLabel(c: { path: string; startLine?: number; endLine?: number }): string {
  const r = range(c);
  return r ? `${c.path}:${r}` : c.path;
}

/** Parses `path[:START[-END]]` (the CLI's --cite, the editor's front matter shorthand). */
export function parseCitation(text: string): { path: string; startLine?: number; endLine?: number } {
  const m = /^(.*?):(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!m) return { path: text.trim() };
  return { path: m[1]!, startLine: Number(m[2]), ...(m[3] ? { endLine: Number(m[3]) } : {}) };
}

/**
 * Anchors citations to a codebase and re-checks them: the one place that knows how a cited passage
 * is recognised. Results are cached by the file's state (size, mtime, inode), so checking the
 * citations of every search result costs a stat per cited file once the files were read.
 */
export class CitationChecker {
  private readonly files = new Map<string, { state: string; text: FileText }>();
  private readonly histories = new Map<string, { at: number; value: Promise<{ commits: string[]; renamedTo?: string }> }>();

  constructor(readonly codebase: Codebase) {}

  private file(path: string): FileText | undefined {
    const state = this.codebase.fileState(path);
    if (state === undefined) return undefined;
    const cached = this.files.get(path);
    if (cached && cached.state === state) return cached.text;
    const raw = this.codebase.readFile(path);
    if (raw === undefined) return undefined;
    const text = analyse(raw.replace(/\r\n?/g, '\n'));
    if (this.files.size >= FILE_CACHE_MAX) this.files.delete(this.files.keys().next().value!);
    this.files.set(path, { state, text });
    return text;
  }

  /**
   * Fingerprints what the citations point at now. Refused when a file is missing, the lines are
   * outside it or blank: a citation must point at code that exists when it is written.
   */
  anchor(citations: CitationInput[], field = 'citations'): StoredCitation[] {
    const commit = this.codebase.headCommit();
    return citations.map((c, i) => {
      const where = `${field}[${i}]`;
      const f = this.file(c.path);
      if (!f)
        throw new ValidationError(
          where,
          `${c.path} does not exist in the workspace (${this.codebase.root}); cite a file that exists, relative to the workspace root`,
        );
      let first = 0;
      let last = f.lineCount - 1;
      if (c.startLine !== undefined) {
        const end = c.endLine ?? c.startLine;
        if (end > f.lineCount) {
          throw new ValidationError(where, `${citationLabel(c)} is past the end of the file: ${c.path} has ${f.lineCount} lines`);
        }
        first = c.startLine - 1;
        last = end - 1;
      }
      const cited = f.stripped.slice(first, last + 1);
      const text = cited.join('');
      if (!text) throw new ValidationError(where, `${citationLabel(c)} holds only blank lines; cite the lines that matter`);
      const nonBlank = cited.filter(Boolean);
      return {
        path: c.path,
        ...(c.startLine !== undefined ? { startLine: c.startLine, endLine: c.endLine ?? c.startLine } : {}),
        fingerprint: sha256Hex(text),
        size: text.length,
        ...(nonBlank.length <= LINE_HASHES_MAX ? { lines: nonBlank.map(lineHash) } : {}),
        ...(commit ? { commit } : {}),
      };
    });
  }

  /**
   * The citations of a memory being edited, anchored again to the code as it is now: a passage that
   * moved is followed, a changed one is taken as it reads now (the person editing has seen it).
   * A citation whose text or file is gone is refused: the edit must cite the code anew or drop it.
   */
  reanchor(citations: readonly StoredCitation[]): StoredCitation[] {
    const inputs = citations.map((c, i) => {
      const found = this.locate(c);
      if (found.status === 'moved') return { path: c.path, startLine: found.now!.startLine, endLine: found.now!.endLine };
      if (found.status === 'deleted' || found.status === 'removed') {
        throw new ValidationError(
          `citations[${i}]`,
          `${citationLabel(c)} ${found.status === 'deleted' ? 'no longer exists' : 'no longer holds the cited text'}; give citations to cite the code as it is now, or an empty list to drop them`,
        );
      }
      if (c.startLine === undefined) return { path: c.path };
      const lineCount = this.file(c.path)!.lineCount;
      const end = Math.min(c.endLine ?? c.startLine, lineCount);
      return { path: c.path, startLine: Math.min(c.startLine, end), endLine: end };
    });
    return this.anchor(inputs);
  }

  /** Where a stored citation's text is in the file now, or why it is not. */
  private locate(c: StoredCitation): { status: CitationStatus; now?: { startLine: number; endLine: number }; kept?: number } {
    const f = this.file(c.path);
    if (!f) return { status: 'deleted' };
    if (c.startLine === undefined) {
      return sha256Hex(f.all) === c.fingerprint ? { status: 'fresh' } : this.whatIsLeft(c, f);
    }
    const first = c.startLine - 1;
    const last = (c.endLine ?? c.startLine) - 1;
    if (last < f.lineCount && this.matchesAt(f, first, c) === last) return { status: 'fresh' };
    // Moved: the same text starting at another line. Lines whose hash is the first cited line's are tried
    // first; a passage re-wrapped over other lines has no such line, so then every line start is tried.
    const likely = c.lines?.length ? (f.byHash.get(c.lines[0]!) ?? []) : [];
    for (const starts of [likely, f.stripped.keys()]) {
      for (const start of starts) {
        const end = this.matchesAt(f, start, c);
        if (end === undefined) continue;
        return start === first && end === last ? { status: 'fresh' } : { status: 'moved', now: { startLine: start + 1, endLine: end + 1 } };
      }
    }
    return this.whatIsLeft(c, f);
  }

  /** The last line of a passage starting at line `start` whose text is the citation's, or undefined. */
  private matchesAt(f: FileText, start: number, c: StoredCitation): number | undefined {
    if (start >= f.lineCount || !f.stripped[start]) return undefined;
    const from = f.offsets[start]!;
    if (f.all.length - from < c.size) return undefined;
    if (sha256Hex(f.all.slice(from, from + c.size)) !== c.fingerprint) return undefined;
    // The passage must end at the end of a line: the last line whose text starts before from + size.
    let end = start;
    while (end + 1 < f.lineCount && f.offsets[end + 1]! < from + c.size) end++;
    if (f.offsets[end]! + f.stripped[end]!.length !== from + c.size) return undefined;
    return end;
  }

  private whatIsLeft(c: StoredCitation, f: FileText): { status: CitationStatus; kept?: number } {
    if (!c.lines) return { status: 'changed' };
    const kept = c.lines.filter((h) => f.byHash.has(h)).length;
    return kept === 0 ? { status: 'removed', kept } : { status: 'changed', kept };
  }

  private history(path: string, commit: string | undefined): Promise<{ commits: string[]; renamedTo?: string }> {
    const key = `${path}\u0000${commit ?? ''}`;
    const hit = this.histories.get(key);
    if (hit && Date.now() - hit.at < HISTORY_TTL_MS) return hit.value;
    const value = this.codebase.fileHistory(path, commit).catch(() => ({ commits: [] }));
    this.histories.set(key, { at: Date.now(), value });
    return value;
  }

  /** The citations of one memory as they stand in the codebase now. */
  async check(citations: readonly StoredCitation[]): Promise<{ freshness: Freshness; citations: CitationView[] }> {
    const views = await Promise.all(citations.map((c) => this.view(c)));
    const stale = views.some((v) => !FRESH.has(v.status));
    return { freshness: stale ? 'stale' : 'fresh', citations: views };
  }

  /** Only whether the memory is stale: no git, for lists and search results. */
  isStale(citations: readonly StoredCitation[]): boolean {
    return citations.some((c) => !FRESH.has(this.locate(c).status));
  }

  private async view(c: StoredCitation): Promise<CitationView> {
    const base = {
      path: c.path,
      ...(c.startLine !== undefined ? { startLine: c.startLine, endLine: c.endLine ?? c.startLine } : {}),
      ...(c.commit ? { commit: c.commit } : {}),
    };
    const found = this.locate(c);
    const label = citationLabel(c);
    if (found.status === 'fresh') return { ...base, status: 'fresh', detail: `${label}: unchanged since it was cited` };
    if (found.status === 'moved') {
      return {
        ...base,
        status: 'moved',
        now: found.now,
        detail: `${label}: unchanged, now at lines ${found.now!.startLine}-${found.now!.endLine}`,
      };
    }
    const git = await this.history(c.path, c.commit);
    const commits = git.commits.length ? { commits: git.commits } : {};
    const by = git.commits.length ? ` (${git.commits.length === 1 ? 'commit' : 'commits'} ${git.commits.join('; ')})` : '';
    if (found.status === 'deleted') {
      if (git.renamedTo)
        return {
          ...base,
          status: 'renamed',
          renamedTo: git.renamedTo,
          ...commits,
          detail: `${c.path} was renamed to ${git.renamedTo}${by}`,
        };
      return { ...base, status: 'deleted', ...commits, detail: `${c.path} no longer exists${by}` };
    }
    if (found.status === 'removed')
      return { ...base, status: 'removed', ...commits, detail: `${label}: the cited text is no longer in the file${by}` };
    const left = found.kept !== undefined && c.lines ? ` (${found.kept} of ${c.lines.length} cited lines are still in the file)` : '';
    return { ...base, status: 'changed', ...commits, detail: `${label}: the cited text has changed${left}${by}` };
  }
}

const FRESH = new Set<CitationStatus>(['fresh', 'moved']);

/** For clients without a workspace: the citations as stored, unchecked. */
export function uncheckedViews(citations: readonly StoredCitation[]): CitationView[] {
  return citations.map((c) => ({
    path: c.path,
    ...(c.startLine !== undefined ? { startLine: c.startLine, endLine: c.endLine ?? c.startLine } : {}),
    ...(c.commit ? { commit: c.commit } : {}),
    status: 'unchecked' as const,
    detail: `${citationLabel(c)}: not checked (no workspace is open here)`,
  }));
}

/** What a model is told about a stale memory, wherever it reads one. */
export const STALE_NOTE =
  'This memory cites code that has changed since it was written (see citations). Verify it against the code before relying on it, then correct it with agent-memory_edit (editing re-anchors its citations).';

/** Whether two citation lists point at different code (the commit they were taken at aside). */
export function citationsDiffer(a: readonly StoredCitation[], b: readonly StoredCitation[]): boolean {
  const key = (c: StoredCitation) => JSON.stringify([c.path, c.startLine, c.endLine, c.fingerprint]);
  return a.length !== b.length || a.some((c, i) => key(c) !== key(b[i]!));
}
