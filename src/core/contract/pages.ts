import * as z from 'zod';

/* Fields of the playbook tiers' listings (episodes, facts): their contracts use zod's classic API. */

/** A record id: a UUID the store's domain made. */
export const RecordId = (what: string) =>
  z.uuid({ error: `must be ${what} id (a UUID returned when it was recorded or listed)` }).transform((s) => s.toLowerCase());

/** `limit` of a paged listing: 1–max, with the default stated for the model. */
export const PageLimit = (max: number, dflt: number) =>
  z
    .number()
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit is at least 1' })
    .max(max, { error: `limit is at most ${max}` })
    .optional()
    .describe(`How many to return, 1–${max} (default ${dflt}).`);

/** A page's nextCursor; null (as a last page returns it) means from the start. */
export const Cursor = z
  .string()
  .min(1)
  .max(500)
  .nullable()
  .optional()
  .transform((c) => c ?? undefined)
  .describe('nextCursor of the previous page, to read the next one.');
