import { type Analysis, analyzeMemory, ANALYZER_VERSION, CONTENT_TERMS } from '../../core/search/analysis';
import type { StoredVersion } from '../../core/ports/store';

/*
 * A live version's journal line carries the terms the search index files it under (its
 * Analysis), so that a store opened from the journal alone (a fresh clone: the saved index is a
 * git-ignored cache) files each memory without analysing its text again: that analysis was most
 * of such an open. As the team database keeps each head's terms beside it (localIndex.ts).
 *
 * Written as one string, `ANALYZER;terms;tag stems;content terms`, each list space-separated:
 * `"terms":"2;cach build;build-system;ttl lru"`. A line written by another release's analysis
 * (another ANALYZER_VERSION), or whose terms do not read as this format, is analysed again, as
 * are lines written before lines carried terms. The terms are taken as written otherwise: they
 * are the writer's own analysis of the row beside them, and a writer that can state a memory's
 * terms could as well have written those words into its description. Their counts are bounded
 * by the row, so a damaged line cannot swell the index. `doctor` re-analyses every carried
 * line and reports those that differ (storeDoctor.ts).
 */

/** The analysis of a version as its line carries it; undefined for a deleted version (not indexed) or a term the format cannot hold. */
export function carriedTerms(row: StoredVersion): Analysis | undefined {
  if (row.deletedAt !== null) return undefined;
  const analysis = analyzeMemory(row);
  const lists = [analysis.terms, analysis.tagStems, analysis.contentTerms];
  return lists.every((l) => l.every(writable)) ? analysis : undefined;
}

/** A term the string form can hold: not empty, no separator. */
const writable = (t: string): boolean => t.length > 0 && !t.includes(' ') && !t.includes(';');

/** The string a line carries for `a`: each list sorted (the index does not depend on their order), so a reader sees at once that no term repeats. */
export function termsText(a: Analysis): string {
  const sorted = (l: readonly string[]) => [...l].sort().join(' ');
  return `${ANALYZER_VERSION};${sorted(a.terms)};${sorted(a.tagStems)};${sorted(a.contentTerms)}`;
}

/**
 * The analysis `text` states for `row` when this release can use it: made by this analysis,
 * four fields, each list in ascending order (no term twice), none longer than the row allows. Else undefined (the
 * row is analysed again).
 */
export function readTerms(text: unknown, row: StoredVersion): Analysis | undefined {
  if (typeof text !== 'string' || row.deletedAt !== null) return undefined;
  const fields = text.split(';');
  if (fields.length !== 4 || fields[0] !== String(ANALYZER_VERSION)) return undefined;
  const [terms, tagStems, contentTerms] = [list(fields[1]!), list(fields[2]!), list(fields[3]!)];
  if (!terms || !tagStems || !contentTerms) return undefined;
  // Every term is a word (or a tag's part) of the description and tags, so there are at most as many as their characters.
  let described = row.description.length;
  for (const tag of row.tags) described += tag.length;
  if (terms.length > described || tagStems.length > row.tags.length || contentTerms.length > CONTENT_TERMS) return undefined;
  return { terms, tagStems, contentTerms };
}

/** A space-separated list of terms in ascending order (so none repeats); undefined when one is out of order or empty. */
function list(field: string): string[] | undefined {
  if (field === '') return [];
  const terms = field.split(' ');
  if (terms[0] === '') return undefined;
  for (let i = 1; i < terms.length; i++) if (!(terms[i - 1]! < terms[i]!)) return undefined;
  return terms;
}

/** Whether `stated` (a line's terms, as readTerms gives them) differs from what this release's analysis makes of `row`. */
export function differsFromAnalysis(stated: Analysis, row: StoredVersion): boolean {
  const own = analyzeMemory(row);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((t, i) => t === b[i]);
  return !same(own.terms, stated.terms) || !same(own.tagStems, stated.tagStems) || !same(own.contentTerms, stated.contentTerms);
}
