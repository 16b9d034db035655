import * as YAML from 'yaml';
import { ValidationError } from './errors';

/**
 * A memory as a document a person edits: YAML front matter holding the description and tags,
 * then the content as Markdown. The editor in VS Code (and anything else that wants a
 * file-shaped memory) renders with `formatMemoryDocument` and reads a save back with
 * `parseMemoryDocument`; the contract's schemas still validate what is saved.
 *
 *     ---
 *     # version 3 · 2026-11-29T10:00:00.000Z · alice@example.com
 *     description: Fixed the flaky build cache
 *     tags: [build, cache]
 *     citations:                 # optional: the code it is about, path[:start-end]
 *       - src/build/cache.ts:40-58
 *     ---
 *
 *     Cleared the cache key.
 */

/** What a document says: the fields a person can edit. */
export interface MemoryFields {
  description: string;
  tags: string[];
  content: string;
  /** `path[:start[-end]]` per cited passage; undefined when the front matter has no citations field. */
  citations?: string[];
}

const FENCE = '---';
const EDITABLE = ['description', 'tags', 'citations'];

/** Renders fields as a document; `comment` lines (provenance, hints) go at the top of the front matter. */
export function formatMemoryDocument(fields: MemoryFields, comment: string[] = []): string {
  const doc = new YAML.Document({
    description: fields.description,
    tags: fields.tags,
    ...(fields.citations?.length ? { citations: fields.citations } : {}),
  });
  const tags = doc.get('tags', true) as YAML.YAMLSeq;
  tags.flow = true;
  if (comment.length) (doc.contents as YAML.YAMLMap).commentBefore = comment.map((line) => ` ${line}`).join('\n');
  const front = doc.toString({ lineWidth: 0 });
  return `${FENCE}\n${front}${FENCE}\n\n${fields.content.trimEnd()}\n`;
}

/**
 * Reads a document back. Refuses, with the line and the reason, anything that is not
 * front matter with a description and a list of tags. Values are returned as written:
 * the contract (limits, tag rules, secrets) is checked by the service that saves them.
 */
export function parseMemoryDocument(text: string): MemoryFields {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (lines[0]?.trim() !== FENCE) {
    throw new ValidationError('document', `line 1 must be "${FENCE}", the start of the front matter with description and tags`);
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === FENCE);
  if (end < 0) throw new ValidationError('document', `the front matter is not closed: add a line "${FENCE}" after the tags`);

  const yaml = YAML.parseDocument(lines.slice(1, end).join('\n'), { uniqueKeys: true });
  const bad = yaml.errors[0];
  if (bad) {
    // linePos is 1-based within the front matter; the opening fence is line 1 of the document.
    const line = (bad.linePos?.[0]?.line ?? 0) + 1;
    throw new ValidationError(
      'document',
      `front matter, line ${line}: ${bad.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const data: unknown = yaml.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError('document', 'the front matter must be a mapping with description and tags');
  }
  const record = data as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !EDITABLE.includes(k));
  if (unknown.length) {
    throw new ValidationError(
      'document',
      `unknown front matter field ${unknown.map((k) => `"${k}"`).join(', ')}; only description, tags and citations can be set`,
    );
  }
  if (typeof record.description !== 'string') throw new ValidationError('description', 'must be text in the front matter: description: …');
  const tags = record.tags;
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string' && typeof t !== 'number')) {
    throw new ValidationError('tags', 'must be a list in the front matter, e.g. tags: [build, cache]');
  }
  const citations = record.citations;
  if (citations !== undefined && citations !== null && (!Array.isArray(citations) || citations.some((c) => typeof c !== 'string'))) {
    throw new ValidationError(
      'citations',
      'must be a list in the front matter, one path[:start-end] per line, e.g. - src/http/client.ts:40-58',
    );
  }
  // One blank line separates the front matter from the content; trailing blank lines are the editor's.
  const body = lines.slice(end + 1);
  if (body[0]?.trim() === '') body.shift();
  return {
    description: record.description,
    tags: tags.map(String),
    content: body.join('\n').trimEnd(),
    ...(citations !== undefined ? { citations: (citations ?? []) as string[] } : {}),
  };
}
