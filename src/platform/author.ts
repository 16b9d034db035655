import * as os from 'node:os';
import { gitOutput } from './childProcess';
import { ASK_GIT, gitUserEmail } from './gitConfig';

/**
 * Who is writing: an explicit name (setting or flag) wins, then git's user.email for the
 * folder, then the operating-system user. Resolved once per process by the caller.
 */
export function resolveAuthor(explicit: string | undefined, cwd: string): string {
  const given = explicit?.trim();
  if (given) return given;
  // git's files read directly when they are plain: starting git costs more than the rest of a CLI write.
  const configured = gitUserEmail(cwd);
  if (configured !== ASK_GIT) return configured || osUser();
  // No git, or no user.email configured: the OS user.
  return gitOutput(['config', 'user.email'], cwd) ?? osUser();
}

function osUser(): string {
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}
