/**
 * Typed errors of the domain. Every adapter (CLI, LM tools, MCP) maps them to its own
 * surface; the messages are written so a model can correct its call from them alone.
 */

/** Base class: `code` is stable and machine-readable, `message` is for the reader. */
export abstract class MemoryError extends Error {
  abstract readonly code: 'validation' | 'not_found' | 'conflict' | 'secret' | 'storage';
  /** True when the caller's input was refused (as opposed to the store failing). */
  get refused(): boolean {
    return this.code !== 'storage';
  }
}

/** An input broke a rule of the contract. `field` names the input path, e.g. `tags[2]`. */
export class ValidationError extends MemoryError {
  readonly code = 'validation' as const;
  /** `message` defaults to "field: rule"; give it when several fields are reported at once. */
  constructor(
    readonly field: string,
    readonly rule: string,
    message?: string,
  ) {
    super(message ?? (field ? `${field}: ${rule}` : rule));
    this.name = 'ValidationError';
  }
}

/** The id does not name a memory (or a version of it). */
export class NotFoundError extends MemoryError {
  readonly code = 'not_found' as const;
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The memory changed since the caller read it, or is in a state that forbids the change. */
export class ConflictError extends MemoryError {
  readonly code = 'conflict' as const;
  constructor(
    message: string,
    readonly currentVersion?: number,
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The input contains something that looks like a credential. The secret is never echoed. */
export class SecretError extends MemoryError {
  readonly code = 'secret' as const;
  constructor(
    readonly field: string,
    readonly kind: string,
    readonly line: number,
  ) {
    super(
      `${field}: line ${line} contains what looks like ${kind}. Secrets must not be stored in memories; ` +
        `remove it or replace it with a placeholder such as <REDACTED>.`,
    );
    this.name = 'SecretError';
  }
}

/**
 * `err` with `where` (a row, a line of a file) named first when it is a refusal of the input, so
 * a bad row of many says which it is; anything else unchanged. Used as `catch (err) { throw refusalAt(where, err); }`.
 */
export function refusalAt(where: string, err: unknown): unknown {
  if (err instanceof ValidationError) return new ValidationError(where, err.message, `${where}: ${err.message}`);
  if (err instanceof SecretError) return new SecretError(`${where} ${err.field}`, err.kind, err.line);
  return err;
}

/** The store could not be read or written. Nothing was changed by the failed operation. */
export class StorageError extends MemoryError {
  readonly code = 'storage' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}
