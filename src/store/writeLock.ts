import { StorageError } from '../core/errors';
import { LockDir } from './lockDir';

export interface WriteLockOptions {
  /** A lock not refreshed for this long is taken over (its holder is on another machine, or unknown). */
  staleMs?: number;
  /** How long to wait for another process before giving up. */
  timeoutMs?: number;
  onWarning?: (message: string) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Serialises writers: first within this process (a promise queue), then across processes
 * (a lock directory, LockDir). A lock whose holder died on this machine is taken over at
 * once; one held from another machine (a shared folder) only once it is stale.
 */
export class WriteLock {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timeoutMs: number;
  private readonly dirLock: LockDir;

  /** `lockPath`: the lock directory, inside the folder it guards (whose parent must exist). */
  constructor(
    private readonly lockPath: string,
    private readonly options: WriteLockOptions = {},
  ) {
    const staleMs = Math.max(2000, options.staleMs ?? 10_000);
    this.timeoutMs = options.timeoutMs ?? staleMs * 3;
    this.dirLock = new LockDir(lockPath, staleMs, (message) => options.onWarning?.(`the store's write lock was lost: ${message}`));
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

  /**
   * Uncontended: one mkdir, synchronously (no thread-pool round trips). Else look at the
   * holder: dead or stale, take it over and try again at once; busy, wait a little (1–50 ms,
   * growing) until the timeout.
   */
  private async acquire(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let delay = 1;
    for (;;) {
      if (this.dirLock.tryTake()) return;
      const state = this.dirLock.inspect();
      if (state === 'free' || (state !== 'busy' && this.dirLock.reap())) continue;
      if (Date.now() >= deadline) throw Object.assign(new Error('the lock is held'), { code: 'ELOCKED' });
      await sleep(delay * (0.5 + Math.random()));
      delay = Math.min(50, delay * 1.3);
    }
  }

  private async holdAcrossProcesses<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      await this.acquire();
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
        this.dirLock.release();
      } catch (err) {
        this.options.onWarning?.(`releasing the write lock failed: ${(err as Error).message}`);
      }
    }
  }
}
