import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Codebase, FileHistory } from '../core/ports/codebase';
import { childProcess, gitOutput } from './childProcess';

/** How long the checked-out commit is reused between writes (a git process per write otherwise). */
const HEAD_TTL_MS = 1_000;
/** Commits named per stale citation. */
const COMMITS_SHOWN = 3;

/**
 * A workspace folder as the citations of memories see it: its files, and git when the folder is in
 * a repository (which commit is checked out, what touched a file, where a renamed file went).
 * Without git it still answers for the files; only the commits and renames are unknown.
 */
export class GitCodebase implements Codebase {
  private resolved: string | undefined;
  private head: { at: number; value: string | undefined } | undefined;

  /** `root` may be a function: resolved at the first use (finding it may ask git, which most commands never need). */
  constructor(private readonly given: string | (() => string)) {}

  get root(): string {
    return (this.resolved ??= path.resolve(typeof this.given === 'function' ? this.given() : this.given));
  }

  private abs(p: string): string {
    return path.join(this.root, ...p.split('/'));
  }

  fileState(p: string): string | undefined {
    const st = fs.statSync(this.abs(p), { throwIfNoEntry: false });
    if (!st?.isFile()) return undefined;
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  }

  readFile(p: string): string | undefined {
    try {
      return fs.readFileSync(this.abs(p), 'utf8');
    } catch {
      return undefined;
    }
  }

  headCommit(): string | undefined {
    if (this.head && Date.now() - this.head.at < HEAD_TTL_MS) return this.head.value;
    // Undefined: not a repository, or no commit yet.
    const value = gitOutput(['rev-parse', '--verify', '-q', 'HEAD'], this.root);
    this.head = { at: Date.now(), value };
    return this.head.value;
  }

  private async git(args: string[]): Promise<string> {
    const { stdout } = await promisify(childProcess().execFile)('git', args, {
      cwd: this.root,
      encoding: 'utf8',
      timeout: 5000,
      maxBuffer: 4 * 1024 * 1024,
    });
    return stdout;
  }

  async fileHistory(p: string, commit: string | undefined): Promise<FileHistory> {
    if (!this.headCommit()) return { commits: [] };
    let since: string | undefined;
    if (commit) {
      try {
        await this.git(['cat-file', '-e', `${commit}^{commit}`]);
        since = commit;
      } catch {
        since = undefined; // taken in another clone, or history was rewritten: name the latest commits instead
      }
    }
    const log = await this.git(['log', '--format=%h %s', `-n${COMMITS_SHOWN}`, ...(since ? [`${since}..HEAD`] : []), '--', p]);
    const commits = log.split('\n').filter(Boolean);
    const status = await this.git(['status', '--porcelain', '--', p]);
    if (status.trim()) commits.unshift('uncommitted changes in the working tree');
    // Renames since the citation's commit (or in the index): the new path, relative to this root.
    const diff = await this.git(['diff', '-M', '--name-status', '--relative', '--diff-filter=R', since ?? 'HEAD', '--']);
    let renamedTo: string | undefined;
    for (const line of diff.split('\n')) {
      const [kind, from, to] = line.split('\t');
      if (kind?.startsWith('R') && from === p && to) renamedTo = to;
    }
    return { commits, ...(renamedTo ? { renamedTo } : {}) };
  }
}
