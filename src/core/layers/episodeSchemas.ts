/**
 * Inputs of the episode operations. An episode is a summary with pointers: the schema refuses
 * what looks like a pasted conversation (agents tend to dump the chat into "resolution" or
 * "source"), with a message that says what to write instead.
 */
import { z } from 'zod';
import { Tag, Timestamp } from '../contract/fields';
import { Cursor, PageLimit, RecordId } from './recordRows';

export const EPISODE_LIMITS = {
  taskMax: 500,
  toolsMax: 30,
  toolNameMax: 100,
  errorsMax: 20,
  errorMax: 500,
  resolutionMax: 2000,
  refMax: 500,
  tagsMax: 12,
  executorMax: 200,
  skillNameMax: 100,
  /** A summary longer than this many lines is a transcript, not a summary. */
  linesMax: 30,
  /** This many lines that start with a speaker ("User:", "Assistant:") make a pasted conversation. */
  speakerLinesMax: 1,
  listDefault: 20,
  listMax: 100,
} as const;

const SOURCE_TYPES = ['commit', 'issue', 'pull-request', 'chat', 'url', 'file', 'other'] as const;

/** A line that starts like a turn of a chat log: `User:`, `**Assistant:**`, `> Human:`. */
const SPEAKER_LINE = /^\s*(?:>\s*)?(?:\*\*|__)?(?:user|assistant|human|ai|system|copilot|model|agent|bot|me|you)(?:\*\*|__)?\s*:/i;

/** Why `text` looks like a pasted transcript rather than a summary, or undefined. */
export function transcriptProblem(text: string): string | undefined {
  const lines = text.split('\n');
  const speakers = lines.filter((l) => SPEAKER_LINE.test(l)).length;
  if (speakers > EPISODE_LIMITS.speakerLinesMax) {
    return `looks like a pasted conversation (${speakers} lines start with a speaker such as "User:"); write a short summary and put a pointer to the conversation in source.ref`;
  }
  if (lines.length > EPISODE_LIMITS.linesMax) {
    return `has ${lines.length} lines; an episode keeps a summary of at most ${EPISODE_LIMITS.linesMax} lines and points at the full text through source.ref`;
  }
  return undefined;
}

const length = (what: string, max: number) => ({ error: (iss: { input?: unknown }) => `${what} is ${String(iss.input ?? '').length} characters; the limit is ${max}` });

/** A summary text: trimmed, at most `max` characters, and not a transcript. */
const Summary = (what: string, max: number, min = 1) =>
  z.string({ error: `${what} must be a string` }).trim()
    .min(min, { error: `${what} is empty` })
    .max(max, length(what, max))
    .superRefine((s, ctx) => {
      const problem = transcriptProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
    });

export const EpisodeSource = z
  .object({
    type: z.enum(SOURCE_TYPES, { error: `source.type is one of ${SOURCE_TYPES.join(', ')}` }),
    ref: z.string({ error: 'source.ref must be a string' }).trim()
      .min(1, { error: 'source.ref is empty; give the commit, issue number, URL or chat id this episode comes from' })
      .max(EPISODE_LIMITS.refMax, length('source.ref', EPISODE_LIMITS.refMax))
      .refine((s) => !s.includes('\n'), {
        error: 'source.ref is a pointer (a commit, an issue, a URL, a chat id) on one line, never the transcript itself',
      }),
  })
  .strict()
  .describe('Where the episode can be looked up: a pointer, never a transcript.');

export const RecordEpisodeInput = z
  .object({
    task: Summary('task', EPISODE_LIMITS.taskMax).describe(`What the task was, in one or two sentences (at most ${EPISODE_LIMITS.taskMax} characters).`),
    outcome: z.enum(['success', 'failure', 'partial'], { error: 'outcome is one of success, failure, partial' }),
    tools: z
      .array(z.string().trim().min(1, { error: 'a tool name is empty' }).max(EPISODE_LIMITS.toolNameMax, length('a tool name', EPISODE_LIMITS.toolNameMax)))
      .max(EPISODE_LIMITS.toolsMax, { error: (iss) => `${(iss.input as unknown[]).length} tools given; the limit is ${EPISODE_LIMITS.toolsMax}` })
      .default([])
      .describe('Names of the tools used, as they were called.'),
    errors: z
      .array(Summary('an error', EPISODE_LIMITS.errorMax))
      .max(EPISODE_LIMITS.errorsMax, { error: (iss) => `${(iss.input as unknown[]).length} errors given; the limit is ${EPISODE_LIMITS.errorsMax}` })
      .default([])
      .describe(`Errors met on the way, each shortened to at most ${EPISODE_LIMITS.errorMax} characters.`),
    resolution: Summary('resolution', EPISODE_LIMITS.resolutionMax, 0).default('')
      .describe(`How it was resolved, a summary (at most ${EPISODE_LIMITS.resolutionMax} characters).`),
    tags: z
      .array(Tag)
      .max(EPISODE_LIMITS.tagsMax, { error: (iss) => `${(iss.input as unknown[]).length} tags given; the limit is ${EPISODE_LIMITS.tagsMax}` })
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
    executor: z.string().trim().min(1).max(EPISODE_LIMITS.executorMax, length('executor', EPISODE_LIMITS.executorMax)).optional()
      .describe('Who ran it (an agent name); defaults to the author.'),
    timestamp: Timestamp.optional().describe('When it happened (ISO-8601 UTC with milliseconds); defaults to now.'),
  })
  .strict();
export type RecordEpisodeInput = z.output<typeof RecordEpisodeInput>;

export const ListEpisodesInput = z
  .object({
    outcome: z.enum(['success', 'failure', 'partial']).optional(),
    skill: z.string().trim().min(1).max(EPISODE_LIMITS.skillNameMax).optional().describe('Only episodes that followed this skill.'),
    limit: PageLimit(EPISODE_LIMITS.listMax, EPISODE_LIMITS.listDefault),
    cursor: Cursor,
  })
  .strict();

export const ShowEpisodeInput = z.object({ id: RecordId('an episode') }).strict();
