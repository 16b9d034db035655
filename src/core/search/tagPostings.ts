import { Postings } from './postings';

/**
 * The postings of the tags as written (exact tag matches, required tags, the vocabulary), with
 * the vocabulary in order for the tags a keyword is the prefix of: sorted when first asked for,
 * and forgotten only when a tag comes or goes, not on every filing.
 */
export class TagPostings extends Postings {
  private sorted: string[] | undefined;

  override add(tag: string, slot: number): void {
    if (!this.has(tag)) this.sorted = undefined;
    super.add(tag, slot);
  }

  override remove(tag: string, slot: number): void {
    super.remove(tag, slot);
    if (!this.has(tag)) this.sorted = undefined;
  }

  override clear(): void {
    super.clear();
    this.sorted = undefined;
  }

  /** The tag vocabulary of current memories with counts, most used first. */
  counts(): Array<{ tag: string; count: number }> {
    return [...this.terms()].map((tag) => ({ tag, count: this.size(tag) })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  }

  /** Tags starting with `prefix`, from the sorted vocabulary. */
  withPrefix(prefix: string): string[] {
    const tags = (this.sorted ??= [...this.terms()].sort());
    let lo = 0;
    let hi = tags.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tags[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < tags.length && tags[i]!.startsWith(prefix); i++) out.push(tags[i]!);
    return out;
  }
}
