/** Timing helpers: every figure the benchmark prints is a percentile of repeated samples. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  return {
    n: s.length,
    p50: at(0.5),
    p95: at(0.95),
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1),
  };
}

export interface Budget {
  /** Wanted number of samples. */
  iters: number;
  /** Stop early once this much time went by, but never below `minIters` samples. */
  budgetMs?: number;
  minIters?: number;
}

/** Times `fn(i)` for i = 0, 1, … within the budget; returns the samples in ms. */
export async function sample(fn: (i: number) => unknown, budget: Budget): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  const minIters = Math.min(budget.iters, budget.minIters ?? 20);
  for (let i = 0; i < budget.iters; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
    if (budget.budgetMs !== undefined && i + 1 >= minIters && performance.now() - start > budget.budgetMs) break;
  }
  return out;
}

export function median(xs: number[]): number {
  return summarize(xs).p50;
}

export const mb = (bytes: number): number => bytes / 1024 / 1024;

/** A duration for a table: two significant decimals below 10 ms, fewer above. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (x < 10) return x.toFixed(2);
  if (x < 100) return x.toFixed(1);
  return x.toFixed(0);
}

export function ratio(baseline: number, ours: number): string {
  if (!Number.isFinite(baseline) || !Number.isFinite(ours) || ours <= 0) return 'n/a';
  const r = baseline / ours;
  return `${r >= 100 ? r.toFixed(0) : r.toFixed(1)}x`;
}

export function rssMb(): number {
  return mb(process.memoryUsage().rss);
}
