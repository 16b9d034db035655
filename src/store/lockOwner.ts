import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Who holds a lock directory, written into it (`owner`) right after it is made, so a waiter
 * on the same machine can tell a crashed holder from a slow one without waiting for the
 * lock to go stale.
 */
export interface LockOwner {
  host: string;
  /** Linux: the pid namespace (`pid:[4026531836]`). A process in another container is not ours to probe. */
  pidNs?: string;
  /** Linux: this boot of the machine. A lock from an earlier boot has no living holder. */
  boot?: string;
  pid: number;
  /** Linux: the process's start time in clock ticks after boot (/proc/PID/stat field 22); a reused pid has another. */
  start?: string;
  /** Unique per holding: tells one holding of the lock from the next. */
  token: string;
}

export const OWNER_FILE = 'owner';

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Linux: a process's state letter and start time, from /proc/PID/stat; undefined elsewhere or when it is gone. */
function procStat(pid: number): { state: string; start: string } | undefined {
  const text = readText(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  // Field 2 (the command name, in parentheses) may hold spaces and ')'; the rest start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, start] = [fields[0], fields[19]];
  return state && start ? { state, start } : undefined;
}

let self: Omit<LockOwner, 'token'> | undefined;

/** This process as a lock holder (read once: the host name, namespace and boot do not change under it). */
export function selfIdentity(): Omit<LockOwner, 'token'> {
  if (self) return self;
  let pidNs: string | undefined;
  try {
    pidNs = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    // not Linux, or /proc not mounted: hostname and pid alone
  }
  const boot = readText('/proc/sys/kernel/random/boot_id')?.trim();
  const start = procStat(process.pid)?.start;
  self = { host: os.hostname(), pid: process.pid, ...(pidNs ? { pidNs } : {}), ...(boot ? { boot } : {}), ...(start ? { start } : {}) };
  return self;
}

/** Writes the owner file into a lock directory just made: a temp file renamed in, so a reader never sees half of it. */
export function writeOwner(lockDir: string, owner: LockOwner): void {
  const tmp = path.join(lockDir, `${OWNER_FILE}.${owner.token}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(owner));
  fs.renameSync(tmp, path.join(lockDir, OWNER_FILE));
}

const optionalString = (x: unknown) => x === undefined || typeof x === 'string';

/** The owner recorded in a lock directory; undefined when there is none (not written yet, or an older release's lock) or it is unreadable. */
export function readOwner(lockDir: string): LockOwner | undefined {
  const text = readText(path.join(lockDir, OWNER_FILE));
  if (text === undefined) return undefined;
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    // A pid of 0 or below would make kill() signal a process group: only a plain pid is probed.
    const valid =
      typeof o.host === 'string' &&
      typeof o.token === 'string' &&
      Number.isSafeInteger(o.pid) &&
      o.pid! > 0 &&
      optionalString(o.pidNs) &&
      optionalString(o.boot) &&
      optionalString(o.start);
    return valid ? (o as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder is certainly gone: it ran on this machine, in this pid namespace, and
 * its process no longer exists (or the pid now belongs to a process started later, or the
 * machine has rebooted since). A holder on another machine or in another container cannot be
 * probed: false, and the caller falls back to the lock's staleness.
 */
export function holderGone(owner: LockOwner, me: Omit<LockOwner, 'token'> = selfIdentity()): boolean {
  if (owner.host !== me.host || owner.pidNs !== me.pidNs) return false;
  if (owner.boot && me.boot && owner.boot !== me.boot) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: a process of another user has that pid, so it exists.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = procStat(owner.pid);
  if (!now) return false;
  // A killed process stays a zombie until its parent reaps it; it holds nothing any more.
  if (now.state === 'Z' || now.state === 'X') return true;
  return owner.start !== undefined && now.start !== owner.start;
}
