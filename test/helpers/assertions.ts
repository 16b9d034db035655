import { strict as assert } from 'node:assert';
import { ValidationError } from '../../src/core/errors';

/** Awaits a refusal of class `type` (from a promise, or a function that throws or rejects) whose message matches `re`; returns it. */
export async function rejects<E extends Error>(
  p: Promise<unknown> | (() => unknown),
  type: new (...a: never[]) => E,
  re?: RegExp,
): Promise<E> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
    if (re) assert.match((err as Error).message, re);
    return err as E;
  }
  return assert.fail(`expected ${type.name}`);
}

/** The ValidationError `f` throws (synchronously); fails the test when it throws nothing or something else. */
export function refusal(f: () => unknown): ValidationError {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    return err;
  }
  return assert.fail('expected a ValidationError');
}
