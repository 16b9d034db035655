import * as z from 'zod';
import { findSecret } from '../secrets';
import { invisibleCharacterProblem } from '../invisibleText';
import { normalizeTag, tagProblem, TAG_RULE } from '../tags';

/** Limits a model can read in every schema and every error message. */
export const LIMITS = {
  descriptionMax: 500,
  contentMax: 32_000,
  tagsMin: 1,
  tagsMax: 12,
  keywordsMax: 20,
  keywordMax: 200,
  searchLimitDefault: 10,
  searchLimitMax: 50,
  listLimitDefault: 100,
  listLimitMax: 1000,
} as const;

/** Refuses text with an invisible or control character (core/screening.ts), naming it and where it is. */
const visible =
  (what: string) =>
  (text: string, ctx: z.RefinementCtx): void => {
    const problem = invisibleCharacterProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
  };

const lengthError = (what: string) => (iss: { input?: unknown; maximum?: unknown }) =>
  `${what} is ${String(iss.input ?? '').length} characters; the limit is ${String(iss.maximum)}`;

/** A memory id: a UUID made by the store, never by the model. */
export const MemoryId = z
  .uuid({ error: 'must be a memory id (a UUID returned by search or create); search first to find one' })
  .transform((s) => s.toLowerCase())
  .describe('Memory id, a UUID returned by agent-memory_search or agent-memory_create.');

export const Description = z
  .string({ error: 'description must be a string' })
  .trim()
  .min(1, { error: 'description is empty; write one sentence that tells an agent whether to read this memory' })
  .max(LIMITS.descriptionMax, { error: lengthError('description') })
  .superRefine(visible('description'))
  .describe(
    `One or two sentences (at most ${LIMITS.descriptionMax} characters) that let an agent decide whether to read the memory: the problem, the context, the outcome.`,
  );

export const Content = z
  .string({ error: 'content must be a string' })
  .refine((s) => s.trim().length > 0, { error: 'content is empty; record what was done and why' })
  .pipe(z.string().max(LIMITS.contentMax, { error: lengthError('content') }))
  .superRefine(visible('content'))
  .describe(
    `The memory itself in Markdown (at most ${LIMITS.contentMax} characters): what was found or decided, why, how it was verified, and what to watch out for.`,
  );

/** One tag: normalised (trimmed, lower case, spaces to `-`) and then checked against the safe set. */
export const Tag = z
  .string({ error: 'a tag must be a string' })
  .transform((raw, ctx) => {
    // Checked before lower-casing (key formats are case-sensitive), and reported by kind only.
    const secret = findSecret(raw);
    if (secret) {
      ctx.addIssue({ code: 'custom', message: `tag contains what looks like ${secret.kind}; secrets must not be stored in memories` });
      return z.NEVER;
    }
    const invisible = invisibleCharacterProblem(raw);
    if (invisible) {
      ctx.addIssue({ code: 'custom', message: `tag ${invisible}` });
      return z.NEVER;
    }
    const tag = normalizeTag(raw);
    const problem = tagProblem(tag);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `tag ${problem}` });
      return z.NEVER;
    }
    return tag;
  })
  .describe(TAG_RULE);

/** 1–12 tags, normalised and de-duplicated. */
export const Tags = z
  .array(Tag, { error: 'tags must be a list of strings' })
  .min(LIMITS.tagsMin, { error: `give at least ${LIMITS.tagsMin} tag; reuse existing tags (agent-memory_tags) where they fit` })
  .max(LIMITS.tagsMax, { error: (iss) => `${(iss.input as unknown[]).length} tags given; the limit is ${LIMITS.tagsMax}` })
  .transform((tags) => [...new Set(tags)])
  .describe(`${LIMITS.tagsMin}–${LIMITS.tagsMax} tags. ${TAG_RULE}. Prefer tags that already exist.`);

/** A tags filter: same rules as tags, but may be empty. */
export const TagFilter = z
  .array(Tag)
  .max(LIMITS.tagsMax)
  .transform((tags) => [...new Set(tags)])
  .describe('Only return memories that carry every one of these tags.');

export const Version = z
  .number({ error: 'version must be a number' })
  .int({ error: 'version must be a whole number' })
  .min(1, { error: 'versions start at 1' })
  .describe('A version number of the memory, as returned by read or history.');

export const Keyword = z
  .string()
  .trim()
  .min(1, { error: 'a keyword is empty' })
  .max(LIMITS.keywordMax, { error: lengthError('a keyword') });

/** The stored form of a time: ISO-8601, UTC, milliseconds (`2026-01-01T00:00:00.000Z`). */
const CanonicalTimestamp = z.iso.datetime({ offset: false, precision: 3, error: 'must fall within the years 0000–9999 in UTC' });

/**
 * An ISO-8601 time with or without fractional seconds, with `Z` or an offset, normalised to the
 * stored form, so stored values compare as strings (version order, due times) whatever was typed.
 * Fractions finer than milliseconds are cut, not rounded, so a time never moves into the next second.
 * As an input schema it is the accepting form; as an output schema, the stored one.
 */
export const Timestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO-8601 time with a zone, e.g. 2026-01-01T00:00:00Z or 2026-01-01T09:30:00+02:00' })
  .transform(canonicalTime)
  .pipe(CanonicalTimestamp);

/** `2026-01-01T02:00:00.5+02:00` → `2026-01-01T00:00:00.500Z`, for a string the datetime check accepted. */
function canonicalTime(iso: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:Z|([+-])(\d\d):(\d\d))$/.exec(iso);
  if (!m) return iso; // not reached: the check above accepts only this shape; the pipe would refuse it
  const [, y, mo, d, h, mi, sec, frac = '', sign, oh = '0', om = '0'] = m;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(sec), Number(frac.slice(0, 3).padEnd(3, '0')));
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return new Date(date.getTime() - offsetMinutes * 60_000).toISOString();
}

export const Author = z.string().trim().min(1).max(200);

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
