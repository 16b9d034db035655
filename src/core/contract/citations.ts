import * as z from 'zod/mini';

export const CITATIONS_MAX = 10;
/** Longest cited range, in lines: a citation points at a passage, not a module. */
export const CITED_LINES_MAX = 2000;

const LineNumber = z
  .number({ error: 'must be a line number' })
  .check(z.int({ error: 'must be a whole line number' }), z.gte(1, { error: 'line numbers start at 1' }));

/** A workspace-relative path: forward slashes, no leading slash or drive, no `..` segments. */
export const CitedPath = z
  .pipe(
    z
      .string({ error: 'path must be a string' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'path is empty; give a file path relative to the workspace root, e.g. src/http/client.ts' }),
        z.maxLength(500, { error: 'path is longer than 500 characters' }),
      ),
    z.transform((p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '')),
  )
  .check(
    z.refine((p) => !/^([a-zA-Z]:)?\//.test(p), { error: 'path must be relative to the workspace root, e.g. src/http/client.ts' }),
    z.refine((p) => !p.split('/').includes('..'), { error: 'path must stay inside the workspace (no ".." segments)' }),
    z.refine((p) => !p.split('/').includes('.git'), { error: 'path must not point into .git' }),
  );

/** A citation as a client gives it: a file, and optionally the lines that matter. */
export const CitationInput = z
  .strictObject({
    path: CitedPath.check(z.describe('File path relative to the workspace root, e.g. src/http/client.ts.')),
    startLine: z.optional(LineNumber).check(z.describe('First cited line (1-based). Omit both lines to cite the whole file.')),
    endLine: z.optional(LineNumber).check(z.describe('Last cited line (inclusive); defaults to startLine.')),
  })
  .check(
    z.superRefine((c, ctx) => {
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
    }),
  );
export type CitationInput = z.output<typeof CitationInput>;

export const Citations = z
  .array(CitationInput, { error: 'citations must be a list of {path, startLine?, endLine?}' })
  .check(
    z.maxLength(CITATIONS_MAX, { error: `at most ${CITATIONS_MAX} citations per memory` }),
    z.describe(
      `Code this memory is about, at most ${CITATIONS_MAX}: files (and line ranges) relative to the workspace root. Each is re-checked whenever the memory is read, so a reader learns when the code has changed since.`,
    ),
  );

/**
 * A citation as stored with a memory version: the range, a fingerprint of the cited text with all
 * whitespace removed (so re-indentation and re-wrapping change nothing), and the commit it was taken at.
 */
export const StoredCitation = z.strictObject({
  path: CitedPath,
  startLine: z.optional(LineNumber),
  endLine: z.optional(LineNumber),
  /** sha256 (hex) of the cited text without whitespace. */
  fingerprint: z.string().check(z.regex(/^[0-9a-f]{64}$/, { error: 'must be a sha256 in hex' })),
  /** Characters of the cited text without whitespace: where to look when the text moved. */
  size: z.number().check(z.int(), z.gte(0)),
  /** Short hashes of the cited non-blank lines (for up to 200 lines): what is left of a changed passage. */
  lines: z.optional(z.array(z.string().check(z.regex(/^[0-9a-f]{8}$/))).check(z.maxLength(200))),
  commit: z.optional(z.string().check(z.regex(/^[0-9a-f]{7,64}$/))),
});
export type StoredCitation = z.output<typeof StoredCitation>;

export const CITATION_STATUSES = ['fresh', 'moved', 'changed', 'removed', 'deleted', 'renamed', 'unchecked'] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];

/** One citation of a memory as read: where it points and what the code says about it now. */
export const CitationView = z.object({
  path: z.string(),
  startLine: z.optional(z.number().check(z.int())),
  endLine: z.optional(z.number().check(z.int())),
  commit: z.optional(z.string()),
  /**
   * fresh: the cited text is where it was, maybe re-indented; moved: it is in the same file at other
   * lines (`now`); changed / removed: some / none of it is left in the file; deleted / renamed: the file
   * is gone (`renamedTo` when git knows the new path); unchecked: this client has no workspace to check.
   */
  status: z.enum(CITATION_STATUSES),
  now: z.optional(z.object({ startLine: z.number().check(z.int()), endLine: z.number().check(z.int()) })),
  renamedTo: z.optional(z.string()),
  /** The commits that touched the file since the citation was taken, newest first, when git knows them. */
  commits: z.optional(z.array(z.string())),
  detail: z.string(),
});
export type CitationView = z.output<typeof CitationView>;

/** fresh: every citation holds; stale: at least one does not; unchecked: no workspace to check against. */
export const Freshness = z.enum(['fresh', 'stale', 'unchecked']);
export type Freshness = z.output<typeof Freshness>;
