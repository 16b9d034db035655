import { ValidationError } from './errors';
import { type Channel, originOf, type VersionOrigin } from './ports/origin';

/** Who writes and by which clock: what every service that appends versions is given. */
export interface WriterOptions {
  /** Recorded on every version the service writes; a function is called once, at the first write. */
  author: string | (() => string);
  /** Injected for tests; defaults to the system clock. */
  now?: () => Date;
  /** The client the writes come through (set once by each entry point); absent: not recorded. */
  channel?: Channel;
  /** For a service writing what a person approved: who proposed it (the author is the approver). */
  proposedBy?: string;
}

/** How far ahead of the clock a time a caller gives may be (clocks of teammates differ a little). */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** The author and the clock of a service: the one place both are resolved. */
export class Writer {
  private resolved: string | undefined;
  readonly now: () => Date;

  constructor(private readonly options: WriterOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** The origin fields every version this writer builds carries. */
  get origin(): VersionOrigin {
    return originOf(this.options);
  }

  get author(): string {
    const a = this.options.author;
    return (this.resolved ??= typeof a === 'function' ? a() : a);
  }

  /**
   * Refuses a time a caller gave (when something happened) that lies ahead of this clock by
   * more than teammates' clocks differ (CLOCK_SKEW_MS); `hint` says what to give instead.
   */
  checkNotFuture(field: string, iso: string | undefined, hint: string, now = this.now()): void {
    if (iso !== undefined && Date.parse(iso) > now.getTime() + CLOCK_SKEW_MS)
      throw new ValidationError(field, `is in the future (${iso}); ${hint}, or leave it out for now`);
  }

  /** A changedAt later than `previous` even when the clock has not moved (or went back). */
  stamp(previous?: string): string {
    const floor = previous ? Date.parse(previous) + 1 : 0;
    return new Date(Math.max(this.now().getTime(), floor)).toISOString();
  }
}
