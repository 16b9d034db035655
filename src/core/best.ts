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
  // Shifted by hand: splice is a call into the runtime, and this runs for many terms of every note.
  let i = best.length < limit ? best.length : limit - 1;
  for (; i > lo; i--) best[i] = best[i - 1]!;
  best[lo] = item;
}
