import { Generations } from './generations';
import { stem } from './text';

/** Limits of a tag, shared by the contract and the suggestions. */
export const TAG_MAX_LENGTH = 40;
export const TAG_PATTERN = /^[a-z0-9.#+][a-z0-9._+#-]*$/;
export const TAG_RULE = 'tags are 1–40 characters of a-z, 0-9 and - _ . + # (spaces become -, upper case is lowered)';

/** Trims, lower-cases and turns runs of whitespace into `-`: `" Build System "` → `build-system`. */
export function normalizeTag(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '-').replace(/-{2,}/g, '-');
}

/** Why a normalised tag is invalid, or undefined when it is fine. */
export function tagProblem(tag: string): string | undefined {
  if (tag.length === 0) return 'is empty';
  if (tag.length > TAG_MAX_LENGTH) return `is ${tag.length} characters; the limit is ${TAG_MAX_LENGTH}`;
  if (!TAG_PATTERN.test(tag)) {
    const bad = [...new Set(tag.replace(/[a-z0-9._+#-]/g, ''))].join('');
    // The tag itself is not quoted: what a model put in a tag may be something not to repeat.
    return bad ? `contains ${JSON.stringify(bad)}; ${TAG_RULE}` : 'must start with a letter, digit, ".", "#" or "+"';
  }
  return undefined;
}

/** Tags' parts, kept: a store's tags are a small vocabulary, and each memory filed asks for its tags' parts twice. */
const keptParts = new Generations<readonly string[]>(10_000);

/** The stemmed parts of a tag: `build-systems` → [`build`, `system`]. */
export function tagParts(tag: string): readonly string[] {
  return keptParts.get(tag, splitTag);
}

function splitTag(tag: string): readonly string[] {
  return Object.freeze(
    tag
      .split(/[-_.]+/)
      .filter(Boolean)
      .map((p) => stem(p)),
  );
}

/** Levenshtein distance, bounded: returns max+1 as soon as the distance exceeds max. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How close an existing tag is to a proposed one (higher is closer), or 0 when unrelated. */
export function tagSimilarity(proposed: string, existing: string): number {
  if (proposed === existing) return 0;
  const p = tagParts(proposed);
  const e = tagParts(existing);
  if (p.join('-') === e.join('-')) return 1; // same words, other inflection: builds / build
  const maxEdits = proposed.length >= 8 ? 2 : proposed.length >= 4 ? 1 : 0;
  if (maxEdits > 0 && editDistance(proposed, existing, maxEdits) <= maxEdits) return 0.8; // typo
  const shared = p.filter((x) => e.includes(x)).length;
  if (shared > 0) return 0.5 * (shared / Math.max(p.length, e.length)) + 0.2; // build vs build-system
  if (proposed.length >= 3 && (existing.startsWith(proposed) || proposed.startsWith(existing))) return 0.3;
  return 0;
}

/** Existing tags close to `proposed`, closest first, then most used. */
export function suggestTags(
  proposed: string,
  vocabulary: ReadonlyArray<{ tag: string; count: number }>,
  limit = 5,
): Array<{ tag: string; count: number }> {
  return vocabulary
    .map((v) => ({ ...v, score: tagSimilarity(proposed, v.tag) }))
    .filter((v) => v.score > 0)
    .sort((a, b) => b.score - a.score || b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, limit)
    .map(({ tag, count }) => ({ tag, count }));
}
