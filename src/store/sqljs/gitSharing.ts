import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicFile';

/**
 * Git's built-in union merge driver keeps the lines both sides added, so two clones that
 * both appended to the journal merge without a conflict. `-text` keeps git from converting
 * line endings (core.autocrlf): the journal's bytes are what the store hashes and reads.
 */
export const GITATTRIBUTES_LINES: readonly string[] = ['journal.jsonl merge=union -text'];

/** Only the record is shared; the snapshot, search index, lock and set-aside files are per-clone caches or damage. */
const IGNORE_ALL = '*';
/** The team's lifecycle policy and ontology are shared too (src/platform/playbookConfig.ts). */
const SHARED = ['!journal.jsonl', '!.gitignore', '!.gitattributes', '!policy.yaml', '!ontology.yaml'];
const IGNORE_COMMENT =
  '# Agent Memory: commit the journal, the policy and the ontology; everything else here is rebuilt from the journal (agent-memory init).';
const ATTRIBUTES_COMMENT = "# Agent Memory: merge the journal by keeping both sides' lines (agent-memory init).";

/** What writing one git file did. */
export interface GitFileResult {
  file: string;
  /** Lines appended (empty: the file already said all of it). */
  added: string[];
  created: boolean;
}

/** Lines of a git file, without surrounding blanks; a missing file has none. */
function readLines(file: string): string[] | undefined {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The .gitignore lines missing from `lines`. In a .gitignore the last matching pattern
 * wins, so each exception must come after the last `*`: an exception that only appears
 * before it is added again.
 */
function missingIgnoreLines(lines: string[]): string[] {
  const star = lines.lastIndexOf(IGNORE_ALL);
  const add = star === -1 ? [IGNORE_ALL] : [];
  const after = star === -1 ? Number.POSITIVE_INFINITY : star;
  for (const line of SHARED) if (!(lines.lastIndexOf(line) > after)) add.push(line);
  return add;
}

/** Appends `add` to `file` (with `comment` first when the file lacks it), keeping every line already there. */
function mergeInto(file: string, existing: string[] | undefined, add: string[], comment: string): GitFileResult {
  if (add.length === 0) return { file, added: [], created: false };
  const before = existing === undefined ? '' : fs.readFileSync(file, 'utf8');
  const lines = existing?.includes(comment) ? add : [comment, ...add];
  const separator = before === '' || before.endsWith('\n') ? '' : '\n';
  writeFileAtomic(file, `${before}${separator}${lines.join('\n')}\n`);
  return { file, added: add, created: existing === undefined };
}

/**
 * Makes the store folder `dir` ready to be committed: `.gitattributes` gives the journal
 * the union merge driver, `.gitignore` ignores everything but the journal and these two
 * files. Idempotent: lines already present are left alone, lines a person added are
 * kept, only what is missing is appended. Creates `dir` if needed.
 */
export function writeGitFiles(dir: string): GitFileResult[] {
  fs.mkdirSync(dir, { recursive: true });
  const attributesFile = path.join(dir, '.gitattributes');
  const attributes = readLines(attributesFile);
  const ignoreFile = path.join(dir, '.gitignore');
  const ignore = readLines(ignoreFile);
  return [
    mergeInto(
      attributesFile,
      attributes,
      GITATTRIBUTES_LINES.filter((l) => !attributes?.includes(l)),
      ATTRIBUTES_COMMENT,
    ),
    mergeInto(ignoreFile, ignore, missingIgnoreLines(ignore ?? []), IGNORE_COMMENT),
  ];
}
