import * as z from 'zod';

export const CITATIONS_MAX = 10;
/** Longest cited range, in lines: a citation points at a passage, not a module. */
export const CITED_LINES_MAX = 2000;

const LineNumber = z.number({ error: 'must be a line number' }).int({ error: 'must be a whole line number' }).min(1, {
  error: 'line numbers start at 1',
});

/** A workspace-relative path: forward slashes, no leading slash or drive, no `..` segments. */
export const CitedPath = z
  .string({ error: 'path must be a string' })
  .trim()
  .min(1, { error: 'path is empty; give a file path relative to the workspace root, e.g. src/http/client.ts' })
  .max(500, { error: 'path is longer than 500 characters' })
  .transform((p) => p.replace(/\\/g, '/').replace(/^\.\//, ''))
  .refine((p) => !/^([a-zA-Z]:)?\//.test(p), { error: 'path must be relative to the workspace root, e.g. src/http/client.ts' })
  .refine((p) => !p.split('/').includes('..'), { error: 'path must stay inside the workspace (no ".." segments)' })
  .refine((p) => !p.split('/').includes('.git'), { error: 'path must not point into .git' });

/** A citation as a client gives it: a file, and optionally the lines that matter. */
export const CitationInput = z
  .object({
    path: CitedPath.describe('File path relative to the workspace root, e.g. src/http/client.ts.'),
    startLine: LineNumber.optional().describe('First cited line (1-based). Omit both lines to cite the whole file.'),
    endLine: LineNumber.optional().describe('Last cited line (inclusive); defaults to startLine.'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.startLine === undefined && c.endLine !== undefined) ctx.addIssue({ code: 'custom', message: 'endLine needs a startLine' });
    const end = c.endLine ?? c.startLine;
    if (c.startLine !== undefined && end !== undefined && end < c.startLine) {
      ctx.addIssue({ code: 'custom', message: `endLine ${end} is before startLine ${c.startLine}` });
    }
    if (c.startLine !== undefined && end !== undefined && end - c.startLine + 1 > CITED_LINES_MAX) {
      ctx.addIssue({
        code: 'custom',
        message: `cites ${end - c.startLine + 1} lines; cite at most ${CITED_LINES_MAX} (the passage that matters)`,
      });
    }
  });
export type CitationInput = z.output<typeof CitationInput>;

export const Citations = z
  .array(CitationInput, { error: 'citations must be a list of {path, startLine?, endLine?}' })
  .max(CITATIONS_MAX, { error: `at most ${CITATIONS_MAX} citations per memory` })
  .describe(
    `Code this memory is about, at most ${CITATIONS_MAX}: files (and line ranges) relative to the workspace root. Each is re-checked whenever the memory is read, so a reader learns when the code has changed since.`,
  );

/**
 * A citation as stored with a memory version: the range, a fingerprint of the cited text with all
 * whitespace removed (so re-indentation and re-wrapping change nothing), and the commit it was taken at.
 */
export const StoredCitation = z
  .object({
    path: CitedPath,
    startLine: LineNumber.optional(),
    endLine: LineNumber.optional(),
    /** sha256 (hex) of the cited text without whitespace. */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a sha256 in hex' }),
    /** Characters of the cited text without whitespace: where to look when the text moved. */
    size: z.number().int().min(0),
    /** Short hashes of the cited non-blank lines (for up to 200 lines): what is left of a changed passage. */
    lines: z
      .array(z.string().regex(/^[0-9a-f]{8}$/))
      .max(200)
      .optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{7,64}$/)
      .optional(),
  })
  .strict();
export type StoredCitation = z.output<typeof StoredCitation>;

export const CITATION_STATUSES = ['fresh', 'moved', 'changed', 'removed', 'deleted', 'renamed', 'unchecked'] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];

/** One citation of a memory as read: where it points and what the code says about it now. */
export const CitationView = z.object({
  path: z.string(),
  startLine: z.number().int().optional(),
  endLine: z.number().int().optional(),
  commit: z.string().optional(),
  /**
   * fresh: the cited text is where it was, maybe re-indented; moved: it is in the same file at other
   * lines (`now`); changed / removed: some / none of it is left in the file; deleted / renamed: the file
   * is gone (`renamedTo` when git knows the new path); unchecked: this client has no workspace to check.
   */
  status: z.enum(CITATION_STATUSES),
  now: z.object({ startLine: z.number().int(), endLine: z.number().int() }).optional(),
  renamedTo: z.string().optional(),
  /** The commits that touched the file since the citation was taken, newest first, when git knows them. */
  commits: z.array(z.string()).optional(),
  detail: z.string(),
});
export type CitationView = z.output<typeof CitationView>;

/** fresh: every citation holds; stale: at least one does not; unchecked: no workspace to check against. */
export const Freshness = z.enum(['fresh', 'stale', 'unchecked']);
export type Freshness = z.output<typeof Freshness>;
