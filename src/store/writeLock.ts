import * as fs from 'node:fs';
import * as lockfile from 'proper-lockfile';
import { StorageError } from '../core/errors';

export interface WriteLockOptions {
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  staleMs?: number;
  /** How long to wait for another process before giving up. */
  timeoutMs?: number;
  onWarning?: (message: string) => void;
}

/**
 * The file operations proper-lockfile uses, and nothing else. Its synchronous API copies
 * the `fs` it is given on every call, and its default (graceful-fs, the whole module) took
 * a tenth of a millisecond per write to copy. These are the same Node functions that
 * graceful-fs hands through for these operations (it patches only stat, for old Node's
 * negative uids).
 */
const LOCK_FS = {
  mkdir: fs.mkdir,
  mkdirSync: fs.mkdirSync,
  realpath: fs.realpath,
  realpathSync: fs.realpathSync,
  stat: fs.stat,
  statSync: fs.statSync,
  rmdir: fs.rmdir,
  rmdirSync: fs.rmdirSync,
  utimes: fs.utimes,
  utimesSync: fs.utimesSync,
};

/**
 * Serialises writers: first within this process (a promise queue, since proper-lockfile
 * refuses a second lock from its own holder), then across processes (a lock directory
 * that proper-lockfile refreshes while held and treats as stale once its owner dies).
 */
export class WriteLock {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly staleMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly dir: string,
    private readonly lockPath: string,
    private readonly options: WriteLockOptions = {},
  ) {
    this.staleMs = Math.max(2000, options.staleMs ?? 10_000);
    this.timeoutMs = options.timeoutMs ?? this.staleMs * 3;
  }

  /** Resolves when every write queued in this process so far has finished. */
  drain(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /** Runs `fn` while holding both locks. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.holdAcrossProcesses(fn));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private lockOptions(): lockfile.LockOptions {
    return {
      lockfilePath: this.lockPath,
      realpath: false,
      fs: LOCK_FS,
      stale: this.staleMs,
      update: Math.floor(this.staleMs / 2),
      onCompromised: (err) => this.options.onWarning?.(`the store's write lock was lost: ${err.message}`),
    };
  }

  /** Uncontended: take the lock synchronously (no thread-pool round trips); else wait with retries. */
  private async acquire(): Promise<() => Promise<void> | void> {
    try {
      return lockfile.lockSync(this.dir, this.lockOptions());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    }
    const maxTimeout = 50;
    return lockfile.lock(this.dir, {
      ...this.lockOptions(),
      retries: { retries: Math.ceil(this.timeoutMs / maxTimeout) + 20, minTimeout: 1, maxTimeout, factor: 1.3, randomize: true },
    });
  }

  private async holdAcrossProcesses<T>(fn: () => T | Promise<T>): Promise<T> {
    let release: () => Promise<void> | void;
    try {
      release = await this.acquire();
    } catch (err) {
      throw new StorageError(
        (err as NodeJS.ErrnoException).code === 'ELOCKED'
          ? `the store is busy: another process has held its write lock (${this.lockPath}) for too long`
          : `cannot lock the store at ${this.lockPath}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    try {
      return await fn();
    } finally {
      try {
        await release();
      } catch (err) {
        this.options.onWarning?.(`releasing the write lock failed: ${(err as Error).message}`);
      }
    }
  }
}
