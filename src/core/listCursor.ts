import { ValidationError } from './errors';
import type { ListCursor } from './ports/store';

// The opaque cursor `list` returns for its next page: the last row's time and id.

/** The cursor after `c`, as list returns it. */
export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.changedAt, c.id])).toString('base64url');
}

/** The position a cursor from encodeCursor names; a ValidationError for anything else. */
export function decodeCursor(s: string): ListCursor {
  try {
    const [changedAt, id] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (typeof changedAt === 'string' && typeof id === 'string') return { changedAt, id };
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError('cursor', 'is not a cursor returned by list; start without one');
}
