import * as fs from 'node:fs';
import * as path from 'node:path';
import { holderGone, OWNER_FILE, readOwner, selfIdentity, writeOwner } from './lockOwner';
import { randomUUID } from '../core/nodeCrypto';

/** What a waiter knows of a lock directory it could not make. */
export type LockState =
  /** Gone meanwhile: try again at once. */
  | 'free'
  /** Held by a live process, or by one that cannot be probed and refreshed it lately. */
  | 'busy'
  /** Its holder's process is gone (same machine): take it over at once. */
  | 'dead'
  /** Not refreshed for the stale time (a holder elsewhere, or one that wrote no owner): take it over. */
  | 'stale';

const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException).code === code;
/** Windows refuses to rename a folder while a file in it is open (a waiter reading the owner): try again later. */
const isBusy = (err: unknown) => ['EPERM', 'EBUSY', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * Removes a lock directory moved out of the way: its owner file, then itself (a recursive
 * removal first looks at what the path is and lists it: three more calls on every write);
 * anything else in it (an owner file's leftover temporary) is left to the recursive removal.
 */
function removeLockDir(dir: string): void {
  try {
    fs.unlinkSync(path.join(dir, OWNER_FILE));
    fs.rmdirSync(dir);
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Locks this process holds, released if it exits while holding them. */
const held = new Set<LockDir>();
let exitHookSet = false;

/**
 * Released locks' directories, moved out of the way and not removed yet: removed after the
 * writer's turn of the event loop (two calls that cost about a quarter of a write here, and the
 * lock is free from the rename on), or at exit if the process ends first. A process killed
 * before either leaves its tombstone behind, as one killed between the rename and the removal
 * always could: `write.lock.released-…`, ignored by git, holding nothing.
 */
const tombs = new Set<string>();
let sweep: NodeJS.Immediate | undefined;

function removeTombs(): void {
  sweep = undefined;
  for (const tomb of tombs) {
    try {
      removeLockDir(tomb);
    } catch {
      // A tombstone that cannot be removed is left behind: the lock is free all the same.
    }
  }
  tombs.clear();
}

function removeLater(tomb: string): void {
  tombs.add(tomb);
  // Unref'd: a process with nothing else to do exits at once, and its exit hook removes them.
  sweep ??= setImmediate(removeTombs).unref();
}

/**
 * A cross-process lock: a directory made with mkdir (atomic on every file system we
 * support), with an owner file naming its holder, refreshed (mtime) while held.
 *
 * A waiter takes over a lock whose holder is known dead (lockOwner.holderGone) at once,
 * and any other after `staleMs` without a refresh (a holder on another machine of a shared
 * folder, or an older release's lock, which has no owner file). A directory without an owner
 * file is a holder between mkdir and writing it: not dead, only ever stale.
 *
 * Taking over is a rename of the directory to a unique tombstone, done only under a second,
 * short-lived directory (`<path>.reap`) and after looking again under it: two waiters that
 * both saw a dead holder cannot both remove a lock, nor remove the one the first of them
 * has just made.
 */
export class LockDir {
  private holding: { token: string; timer: NodeJS.Timeout; lost: boolean } | undefined;

  constructor(
    readonly path: string,
    private readonly staleMs: number,
    private readonly onLost: (message: string) => void = () => undefined,
  ) {}

  get reapPath(): string {
    return `${this.path}.reap`;
  }

  /** Makes the directory if no one holds it; true when this process holds the lock now. */
  tryTake(): boolean {
    if (this.holding) throw new Error(`${this.path} is already held by this process`);
    try {
      fs.mkdirSync(this.path);
    } catch (err) {
      if (isCode(err, 'EEXIST')) return false;
      throw err;
    }
    const token = randomUUID();
    try {
      writeOwner(this.path, { ...selfIdentity(), token });
    } catch (err) {
      fs.rmSync(this.path, { recursive: true, force: true });
      throw err;
    }
    const timer = setInterval(() => this.refresh(), Math.max(500, Math.floor(this.staleMs / 2)));
    timer.unref(); // a held lock never keeps the process alive; the exit hook releases it
    this.holding = { token, timer, lost: false };
    held.add(this);
    if (!exitHookSet) {
      exitHookSet = true;
      process.on('exit', () => {
        for (const lock of held) {
          try {
            lock.release();
          } catch {
            // exiting: a lock left behind is taken over as dead by the next writer here
          }
        }
        removeTombs();
      });
    }
    return true;
  }

  /** Keeps the lock fresh; notices when someone took it over (this process stalled past the stale time). */
  private refresh(): void {
    const h = this.holding;
    if (!h || h.lost) return;
    if (readOwner(this.path)?.token !== h.token) {
      h.lost = true;
      this.onLost(`another process took it over (${this.path})`);
      return;
    }
    const now = new Date();
    fs.utimes(this.path, now, now, (err) => {
      if (err && this.holding === h && !h.lost) this.onLost(`refreshing ${this.path} failed: ${err.message}`);
    });
  }

  /** Releases the lock (a rename away, so it is free at once, then removal after this turn of the event loop), unless it was taken over. */
  release(): void {
    const h = this.holding;
    if (!h) return;
    this.holding = undefined;
    clearInterval(h.timer);
    held.delete(this);
    if (h.lost || readOwner(this.path)?.token !== h.token) return; // someone else's now: not ours to remove
    const tomb = `${this.path}.released-${h.token}`;
    try {
      fs.renameSync(this.path, tomb);
    } catch (err) {
      if (!isBusy(err)) throw err;
      // Remove it in place instead (retried while busy): waiters see it ownerless, then gone.
      fs.rmSync(this.path, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
      return;
    }
    removeLater(tomb);
  }

  /** Why the lock could not be taken: is it worth taking over? */
  inspect(): LockState {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(this.path).mtimeMs;
    } catch (err) {
      if (isCode(err, 'ENOENT')) return 'free';
      throw err;
    }
    const owner = readOwner(this.path);
    if (owner && holderGone(owner)) return 'dead';
    return Date.now() - mtimeMs > this.staleMs ? 'stale' : 'busy';
  }

  /**
   * Removes a dead or stale lock, under the reap guard, after looking again there. True when
   * the lock may be free now (try at once); false when it is still held or another process
   * is taking it over (wait a little).
   */
  reap(): boolean {
    const guard = this.reapPath;
    try {
      fs.mkdirSync(guard);
    } catch (err) {
      if (!isCode(err, 'EEXIST')) throw err;
      // Reaping takes microseconds: a guard this old is a process's that died while reaping.
      try {
        if (Date.now() - fs.statSync(guard).mtimeMs > this.staleMs) fs.rmdirSync(guard);
      } catch {
        // removed by someone else meanwhile
      }
      return false;
    }
    try {
      // Under the guard only the holder itself can remove the lock, and a dead or stale one
      // does not: what is seen now stays so until the rename.
      const state = this.inspect();
      if (state === 'free') return true;
      if (state === 'busy') return false;
      const tomb = `${this.path}.dead-${randomUUID()}`;
      try {
        fs.renameSync(this.path, tomb);
      } catch (err) {
        if (isCode(err, 'ENOENT')) return true;
        if (isBusy(err)) return false;
        throw err;
      }
      removeLockDir(tomb);
      return true;
    } finally {
      fs.rmSync(guard, { recursive: true, force: true });
    }
  }
}
