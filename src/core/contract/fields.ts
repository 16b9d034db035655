import en from 'zod/v4/locales/en.js';
import * as z from 'zod/mini';
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

/*
 * The memory tier's schemas are built with zod/mini: the same checks, issues and JSON Schema as
 * zod's classic API (they share its core), for less than half the cost of starting them, which
 * every one-shot CLI call pays (a search 4 ms faster of about 85, measured interleaved; the
 * playbook's contract, loaded only by its commands, stays classic). zod/mini brings no messages
 * of its own: the English ones, which validate.ts turns into plain rules, as classic zod has them.
 */
z.config(en());

/** Refuses text with an invisible or control character (core/screening.ts), naming it and where it is. */
const visible =
  (what: string) =>
  (text: string, ctx: z.core.$RefinementCtx<string>): void => {
    const problem = invisibleCharacterProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
  };

const lengthError = (what: string) => (iss: { input?: unknown; maximum?: unknown }) =>
  `${what} is ${String(iss.input ?? '').length} characters; the limit is ${String(iss.maximum)}`;

/** A memory id: a UUID made by the store, never by the model. */
export const MemoryId = z
  .pipe(
    z.uuid({ error: 'must be a memory id (a UUID returned by search or create); search first to find one' }),
    z.transform((s: string) => s.toLowerCase()),
  )
  .check(z.describe('Memory id, a UUID returned by agent-memory_search or agent-memory_create.'));

export const Description = z
  .string({ error: 'description must be a string' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'description is empty; write one sentence that tells an agent whether to read this memory' }),
    z.maxLength(LIMITS.descriptionMax, { error: lengthError('description') }),
    z.superRefine(visible('description')),
    z.describe(
      `One or two sentences (at most ${LIMITS.descriptionMax} characters) that let an agent decide whether to read the memory: the problem, the context, the outcome.`,
    ),
  );

export const Content = z
  .pipe(
    z
      .string({ error: 'content must be a string' })
      .check(z.refine((s) => s.trim().length > 0, { error: 'content is empty; record what was done and why' })),
    z.string().check(z.maxLength(LIMITS.contentMax, { error: lengthError('content') })),
  )
  .check(
    z.superRefine(visible('content')),
    z.describe(
      `The memory itself in Markdown (at most ${LIMITS.contentMax} characters): what was found or decided, why, how it was verified, and what to watch out for.`,
    ),
  );

/** Why `raw` cannot be a tag, or undefined: checked before lower-casing (key formats are case-sensitive), a secret named by its kind only. */
function tagInputProblem(raw: string): string | undefined {
  const secret = findSecret(raw);
  if (secret) return `tag contains what looks like ${secret.kind}; secrets must not be stored in memories`;
  const invisible = invisibleCharacterProblem(raw);
  if (invisible) return `tag ${invisible}`;
  const problem = tagProblem(normalizeTag(raw));
  return problem ? `tag ${problem}` : undefined;
}

/** One tag: normalised (trimmed, lower case, spaces to `-`) and then checked against the safe set. */
export const Tag = z
  .pipe(
    z.string({ error: 'a tag must be a string' }).check(
      z.superRefine((raw, ctx) => {
        const problem = tagInputProblem(raw);
        // Ends the checks, as a refused tag always has: a list holding it is not also measured.
        if (problem) ctx.addIssue({ code: 'custom', message: problem, continue: false });
      }),
    ),
    z.transform(normalizeTag),
  )
  .check(z.describe(TAG_RULE));

/** 1–12 tags, normalised and de-duplicated. */
export const Tags = z
  .pipe(
    z.array(Tag, { error: 'tags must be a list of strings' }).check(
      z.minLength(LIMITS.tagsMin, {
        error: `give at least ${LIMITS.tagsMin} tag; reuse existing tags (agent-memory_tags) where they fit`,
      }),
      z.maxLength(LIMITS.tagsMax, { error: (iss) => `${(iss.input as unknown[]).length} tags given; the limit is ${LIMITS.tagsMax}` }),
    ),
    z.transform((tags: string[]) => [...new Set(tags)]),
  )
  .check(z.describe(`${LIMITS.tagsMin}–${LIMITS.tagsMax} tags. ${TAG_RULE}. Prefer tags that already exist.`));

/** A tags filter: same rules as tags, but may be empty. */
export const TagFilter = z
  .pipe(
    z.array(Tag).check(z.maxLength(LIMITS.tagsMax)),
    z.transform((tags: string[]) => [...new Set(tags)]),
  )
  .check(z.describe('Only return memories that carry every one of these tags.'));

export const Version = z
  .number({ error: 'version must be a number' })
  .check(
    z.int({ error: 'version must be a whole number' }),
    z.gte(1, { error: 'versions start at 1' }),
    z.describe('A version number of the memory, as returned by read or history.'),
  );

export const Keyword = z
  .string()
  .check(z.trim(), z.minLength(1, { error: 'a keyword is empty' }), z.maxLength(LIMITS.keywordMax, { error: lengthError('a keyword') }));

/** The stored form of a time: ISO-8601, UTC, milliseconds (`2026-01-01T00:00:00.000Z`). */
const CanonicalTimestamp = z.iso.datetime({ offset: false, precision: 3, error: 'must fall within the years 0000–9999 in UTC' });

/**
 * An ISO-8601 time with or without fractional seconds, with `Z` or an offset, normalised to the
 * stored form, so stored values compare as strings (version order, due times) whatever was typed.
 * Fractions finer than milliseconds are cut, not rounded, so a time never moves into the next second.
 * As an input schema it is the accepting form; as an output schema, the stored one.
 */
export const Timestamp = z.pipe(
  z.pipe(
    z.iso.datetime({ offset: true, error: 'must be an ISO-8601 time with a zone, e.g. 2026-01-01T00:00:00Z or 2026-01-01T09:30:00+02:00' }),
    z.transform(canonicalTime),
  ),
  CanonicalTimestamp,
);

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

export const Author = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
