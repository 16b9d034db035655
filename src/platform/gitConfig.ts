import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/*
 * `git config user.email` read from git's own files, without starting git: a one-shot CLI
 * write asked git for its author, and starting any child process from Node costs about 25 ms
 * (more than git itself takes), a tenth of the whole call. Only the plain case is read here:
 * Linux, with git's files where distributions put them (/etc/gitconfig, the XDG and home
 * files, the repository's), no GIT_CONFIG* or GIT_DIR variables, no includes, no worktree
 * configuration, a repository of this user, and a value written plainly. Anything else is
 * git's to answer (ASK_GIT).
 */

/** Only git can tell: run it. */
export const ASK_GIT = Symbol('ask git');

/** Variables that change which files git reads, or add values of their own. */
const GIT_VARIABLES = /^GIT_(CONFIG|DIR$|COMMON_DIR$|CEILING_DIRECTORIES$|DISCOVERY_ACROSS_FILESYSTEM$|WORK_TREE$)/;

/** user.email as git would give it for `cwd` ('' when none is set), or ASK_GIT. */
export function gitUserEmail(cwd: string, env: NodeJS.ProcessEnv = process.env): string | typeof ASK_GIT {
  if (process.platform !== 'linux') return ASK_GIT;
  if (Object.keys(env).some((k) => GIT_VARIABLES.test(k))) return ASK_GIT;
  const home = env.HOME || os.homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = ['/etc/gitconfig', path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
  const repo = gitDir(cwd);
  if (repo === ASK_GIT) return ASK_GIT;
  if (repo !== undefined) files.push(path.join(repo, 'config'));
  let email = '';
  for (const file of files) {
    const found = emailIn(file);
    if (found === ASK_GIT) return ASK_GIT;
    if (found !== undefined) email = found;
  }
  return email;
}

/** The `.git` folder of the repository holding `cwd`, undefined outside one; ASK_GIT when git decides more (a worktree, another owner). */
function gitDir(cwd: string): string | undefined | typeof ASK_GIT {
  for (let dir = path.resolve(cwd); ;) {
    const candidate = path.join(dir, '.git');
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(candidate);
    } catch {
      st = undefined;
    }
    if (st) {
      // A `.git` file (worktree, submodule), or a repository of another user (safe.directory): git's rules.
      if (!st.isDirectory()) return ASK_GIT;
      if (typeof process.getuid === 'function' && fs.statSync(dir).uid !== process.getuid()) return ASK_GIT;
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The last `email` of the `[user]` section of one config file; undefined when it sets none. */
function emailIn(file: string): string | undefined | typeof ASK_GIT {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : ASK_GIT;
  }
  let section = '';
  let email: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    // A continued value could hold anything on its next line.
    if (line.endsWith('\\')) return ASK_GIT;
    if (line.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"\\]*")?\s*\]\s*(?:[#;].*)?$/.exec(line);
      if (!header) return ASK_GIT;
      // `[user "x"]` and `[user.x]` are other sections than `[user]`.
      section = line.includes('"') ? `${header[1]!.toLowerCase()} "` : header[1]!.toLowerCase();
      if (section.startsWith('include') || section === 'extensions') return ASK_GIT;
      continue;
    }
    if (section !== 'user') continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry) return ASK_GIT;
    if (entry[1]!.toLowerCase() !== 'email') continue;
    const value = entry[2];
    if (value === undefined || /["\\]/.test(value)) return ASK_GIT;
    email = value.replace(/[#;].*$/, '').trim();
    // git turns each whitespace character inside a plain value into a space: leave that to git.
    if (/\s/.test(email)) return ASK_GIT;
  }
  return email;
}
