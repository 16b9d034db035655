/**
 * Adds `item` to `best`, a list kept in order (`before(a, b)`: a comes first) of at most `limit`
 * items, when it ranks among them: the best few of many without sorting them all.
 */
export function keepBest<T>(best: T[], item: T, limit: number, before: (a: T, b: T) => boolean): void {
  if (best.length >= limit && !before(item, best[limit - 1]!)) return;
  let lo = 0;
  let hi = best.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(best[mid]!, item)) lo = mid + 1;
    else hi = mid;
  }
  best.splice(lo, 0, item);
  if (best.length > limit) best.pop();
}
