/**
 * Inputs of the episode operations. An episode is a summary with pointers: the schema refuses
 * what looks like a pasted conversation (agents tend to dump the chat into "resolution" or
 * "source", or spread it over "errors"), with a message that says what to write instead.
 */
import * as z from 'zod';
import { Tag, Timestamp } from './fields';
import { Cursor, PageLimit, RecordId } from './pages';
import { SOURCE_TYPES } from './sourceTypes';
import { linesProblem, transcriptProblem } from './transcripts';

export { SOURCE_TYPES };

export const OUTCOMES = ['success', 'failure', 'partial'] as const;

export const EPISODE_LIMITS = {
  taskMax: 500,
  toolsMax: 30,
  toolNameMax: 100,
  errorsMax: 20,
  errorMax: 500,
  inputsMax: 20,
  inputMax: 300,
  resolutionMax: 2000,
  refMax: 500,
  tagsMax: 12,
  executorMax: 200,
  skillNameMax: 100,
  /** A summary longer than this many lines is a transcript, not a summary. */
  linesMax: 30,
  /** More speaker markers ("User:", "Assistant:") than this, across an episode's fields, make a pasted conversation. */
  speakerMarkersMax: 2,
  listDefault: 20,
  listMax: 100,
  findDefault: 10,
  findMax: 50,
  queryMax: 1000,
} as const;

const length = (what: string, max: number) => ({
  error: (iss: { input?: unknown }) => `${what} is ${String(iss.input ?? '').length} characters; the limit is ${max}`,
});

/** A summary text: trimmed, at most `max` characters and linesMax lines (speaker markers are checked across fields). */
const Summary = (what: string, max: number, min = 1) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(min, { error: `${what} is empty` })
    .max(max, length(what, max))
    .superRefine((s, ctx) => {
      const problem = linesProblem(s, EPISODE_LIMITS.linesMax);
      if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
    });

const SourceObject = z
  .object({
    type: z.enum(SOURCE_TYPES, { error: `source.type is one of ${SOURCE_TYPES.join(', ')}` }),
    ref: z
      .string({ error: 'source.ref must be a string' })
      .trim()
      .min(1, { error: 'source.ref is empty; give the commit, issue number, URL or chat id this episode comes from' })
      .max(EPISODE_LIMITS.refMax, length('source.ref', EPISODE_LIMITS.refMax))
      .refine((s) => !s.includes('\n'), {
        error: 'source.ref is a pointer (a commit, an issue, a URL, a chat id) on one line, never the transcript itself',
      }),
  })
  .strict();

/** Other names of source types, as people and the playbook write them (`conversation:abc`). */
const SOURCE_ALIASES: Readonly<Record<string, (typeof SOURCE_TYPES)[number]>> = {
  conversation: 'chat',
  session: 'chat',
  pr: 'pull-request',
  pull_request: 'pull-request',
  mr: 'pull-request',
  link: 'url',
  path: 'file',
};

/** `TYPE:REF` (`conversation:abc`, `commit:1a2b3c4`), or a bare http(s) URL, as { type, ref }. */
function sourceFromText(text: string): { type: string; ref: string } {
  const t = text.trim();
  if (/^https?:\/\//i.test(t)) return { type: 'url', ref: t };
  const colon = t.indexOf(':');
  if (colon <= 0) return { type: '', ref: t };
  const type = t.slice(0, colon).trim().toLowerCase();
  return { type: SOURCE_ALIASES[type] ?? type, ref: t.slice(colon + 1).trim() };
}

/** { type, ref }; also "TYPE:REF" or a bare URL (read into the object first, so a wrong type is named as before). */
export const EpisodeSource = z
  .preprocess((v) => (typeof v === 'string' ? sourceFromText(v) : v), SourceObject)
  .describe('Where the episode can be looked up: a pointer, never a transcript.');

export const RecordEpisodeInput = z
  .object({
    task: Summary('task', EPISODE_LIMITS.taskMax).describe(
      `What the task was, in one or two sentences (at most ${EPISODE_LIMITS.taskMax} characters).`,
    ),
    outcome: z.enum(OUTCOMES, { error: 'outcome is one of success, failure, partial' }),
    tools: z
      .array(
        z
          .string()
          .trim()
          .min(1, { error: 'a tool name is empty' })
          .max(EPISODE_LIMITS.toolNameMax, length('a tool name', EPISODE_LIMITS.toolNameMax)),
      )
      .max(EPISODE_LIMITS.toolsMax, {
        error: (iss) => `${(iss.input as unknown[]).length} tools given; the limit is ${EPISODE_LIMITS.toolsMax}`,
      })
      .default([])
      .describe('Names of the tools used, as they were called.'),
    inputs: z
      .array(Summary('an input', EPISODE_LIMITS.inputMax))
      .max(EPISODE_LIMITS.inputsMax, {
        error: (iss) => `${(iss.input as unknown[]).length} inputs given; the limit is ${EPISODE_LIMITS.inputsMax}`,
      })
      .default([])
      .describe(
        `The key inputs given to those tools (a command line, a file, a flag, a parameter), each at most ${EPISODE_LIMITS.inputMax} characters; what a teammate needs to repeat it.`,
      ),
    errors: z
      .array(Summary('an error', EPISODE_LIMITS.errorMax))
      .max(EPISODE_LIMITS.errorsMax, {
        error: (iss) => `${(iss.input as unknown[]).length} errors given; the limit is ${EPISODE_LIMITS.errorsMax}`,
      })
      .default([])
      .describe(`Errors met on the way, each shortened to at most ${EPISODE_LIMITS.errorMax} characters.`),
    resolution: Summary('resolution', EPISODE_LIMITS.resolutionMax, 0)
      .default('')
      .describe(`How it was resolved, a summary (at most ${EPISODE_LIMITS.resolutionMax} characters).`),
    tags: z
      .array(Tag)
      .max(EPISODE_LIMITS.tagsMax, {
        error: (iss) => `${(iss.input as unknown[]).length} tags given; the limit is ${EPISODE_LIMITS.tagsMax}`,
      })
      .default([])
      .transform((tags) => [...new Set(tags)]),
    source: EpisodeSource,
    skill: z
      .object({
        name: z.string().trim().min(1).max(EPISODE_LIMITS.skillNameMax, length('skill.name', EPISODE_LIMITS.skillNameMax)),
        version: z.number().int({ error: 'skill.version must be a whole number' }).min(1, { error: 'skill versions start at 1' }),
      })
      .strict()
      .nullable()
      .optional()
      .describe('The skill that was followed (name and version), if any.'),
    executor: z
      .string()
      .trim()
      .min(1)
      .max(EPISODE_LIMITS.executorMax, length('executor', EPISODE_LIMITS.executorMax))
      .optional()
      .describe('Who ran it (an agent name); defaults to the author.'),
    timestamp: z.optional(Timestamp).describe('When it happened (ISO-8601 UTC with milliseconds); defaults to now.'),
  })
  .strict()
  .superRefine((e, ctx) => {
    // Across every text field together: a chat spread over 20 errors is still a chat.
    const problem = transcriptProblem(
      [
        [['task'], e.task],
        ...e.tools.map((t, i) => [['tools', i], t] as const),
        ...e.inputs.map((t, i) => [['inputs', i], t] as const),
        ...e.errors.map((t, i) => [['errors', i], t] as const),
        [['resolution'], e.resolution],
        [['source', 'ref'], e.source.ref],
        [['executor'], e.executor ?? ''],
        [['skill', 'name'], e.skill?.name ?? ''],
      ],
      EPISODE_LIMITS.speakerMarkersMax,
    );
    if (problem) ctx.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
  });
export type RecordEpisodeInput = z.output<typeof RecordEpisodeInput>;

export const ListEpisodesInput = z
  .object({
    outcome: z.enum(OUTCOMES, { error: 'outcome is one of success, failure, partial' }).optional(),
    skill: z.string().trim().min(1).max(EPISODE_LIMITS.skillNameMax).optional().describe('Only episodes that followed this skill.'),
    limit: PageLimit(EPISODE_LIMITS.listMax, EPISODE_LIMITS.listDefault),
    cursor: Cursor,
  })
  .strict();

/** The id of an episode line in the playbook seed's shape (`evt_20260915_001`). */
export const SeedEpisodeId = z.strictObject({
  id: z
    .string({ error: (iss) => (iss.input === undefined ? 'is missing — an episode line needs its id' : 'must be text') })
    .trim()
    .min(1, { error: 'is empty — an episode line needs its id' })
    .max(200, { error: 'is longer than 200 characters' }),
});

export const ShowEpisodeInput = z.object({ id: RecordId('an episode') }).strict();

export const RecordEpisodeOutput = z.object({ id: z.string() });

const SkillFilter = z
  .string({ error: 'skill must be a skill name' })
  .trim()
  .min(1, { error: 'skill is empty; give a skill name (agent-memory_findSkills lists them) or leave it out' })
  .max(EPISODE_LIMITS.skillNameMax, length('skill', EPISODE_LIMITS.skillNameMax));

export const FindEpisodesInput = z
  .object({
    query: z
      .string({ error: 'query must be text: words of the task, an error message' })
      .trim()
      .min(1, { error: 'query is empty; give words of the task or of the error, or leave it out to list the newest episodes' })
      .max(EPISODE_LIMITS.queryMax, length('query', EPISODE_LIMITS.queryMax))
      .optional()
      .describe(
        "Words of the task or of an error message, matched (stemmed) against each episode's task and tags, and more weakly its errors and resolution. Without it, the newest episodes come first.",
      ),
    tags: z
      .array(Tag, { error: 'tags must be a list of tags' })
      .max(EPISODE_LIMITS.tagsMax, {
        error: (iss) => `${(iss.input as unknown[]).length} tags given; the limit is ${EPISODE_LIMITS.tagsMax}`,
      })
      .transform((tags) => [...new Set(tags)])
      .optional()
      .describe('Only episodes that carry every one of these tags.'),
    outcome: z
      .enum(OUTCOMES, { error: 'outcome is one of success, failure, partial' })
      .optional()
      .describe('Only episodes that ended this way.'),
    skill: SkillFilter.optional().describe('Only episodes that followed this skill (by name).'),
    since: z.optional(Timestamp).describe('Only episodes that happened at or after this ISO-8601 time, e.g. 2026-01-01T00:00:00Z.'),
    until: z.optional(Timestamp).describe('Only episodes that happened before this ISO-8601 time.'),
    limit: PageLimit(EPISODE_LIMITS.findMax, EPISODE_LIMITS.findDefault),
    cursor: Cursor,
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.since !== undefined && f.until !== undefined && f.since >= f.until)
      ctx.addIssue({ code: 'custom', path: ['until'], message: `is not after since (${f.since}); give a window where since comes first` });
  });
export type FindEpisodesInput = z.output<typeof FindEpisodesInput>;

/** One episode as find returns it: the whole record, and its score when a query ranked it. */
export const FoundEpisode = z.object({
  id: z.string(),
  task: z.string(),
  outcome: z.enum(OUTCOMES),
  /** When it happened. */
  timestamp: z.string(),
  /** When it was recorded. */
  recordedAt: z.string(),
  skill: z.object({ name: z.string(), version: z.number() }).nullable(),
  tags: z.array(z.string()),
  executor: z.string(),
  author: z.string(),
  tools: z.array(z.string()),
  inputs: z.array(z.string()),
  errors: z.array(z.string()),
  resolution: z.string(),
  source: z.object({ type: z.string(), ref: z.string() }),
  /** How well the query matched, 0–1 (absent without a query). */
  score: z.number().optional(),
});

export const FindEpisodesOutput = z.object({
  items: z.array(FoundEpisode),
  nextCursor: z.string().nullable(),
  /**
   * False when a query was matched against only the newest episodes of the window (the bound
   * is stated in `note`): older ones were not searched; narrow with since, until, outcome or skill.
   */
  searchedAll: z.boolean(),
  note: z.string().optional(),
});
