/**
 * The code a memory can cite: the workspace of the client that runs the services (a VS Code
 * window's folder, the CLI's or MCP server's project directory). Paths are relative to its
 * root, with forward slashes. Implemented in src/platform/gitCodebase.ts (files plus git).
 */
export interface Codebase {
  /** The root, for messages. */
  readonly root: string;
  /**
   * A cheap token that changes whenever the file's text may have changed (size, mtime, inode),
   * or undefined when there is no such file. Results are cached by it.
   */
  fileState(path: string): string | undefined;
  /** The file's text (UTF-8), or undefined when there is no such file. */
  readFile(path: string): string | undefined;
  /** The commit checked out now (git HEAD), or undefined outside a repository. */
  headCommit(): string | undefined;
  /**
   * What version control knows about a cited file since `commit` (when given): the commits that
   * touched it, newest first (a few, as "abc1234 subject"), and where it went when it was renamed.
   */
  fileHistory(path: string, commit: string | undefined): Promise<FileHistory>;
}

export interface FileHistory {
  commits: string[];
  renamedTo?: string;
}
