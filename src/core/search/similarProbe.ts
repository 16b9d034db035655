/**
 * Which memories to read to find every one holding at least `need` of a set of terms (the
 * likely-duplicate check: a memory at least `min` alike holds termsNeeded of them), as a
 * condition an inverted index answers, so that a store does not read every memory a common
 * term reaches.
 *
 * The rule: drop the `d` most common terms (a memory holds at most `d` of them, so at least
 * `need - d` of the rest), and split the rest into `g` groups with `g × (t - 1) < need - d`:
 * a memory holding at most `t - 1` of each group would hold fewer than `need - d` of the rest,
 * so every memory alike enough holds at least `t` terms of some group (pigeonhole). With `t = 1`
 * this is prefix filtering (any `n - need + 1` of the terms); with `t = 2` or 3 the memories
 * read are those holding two or three terms of one small group, far fewer when every term is
 * common. Any such choice finds the same memories; the choice only changes how many are read,
 * so it is made on estimates: each term's share of the memories holding it, and what an index
 * pays per AND-clause (a walk of its rarest term's list, skipping through the others').
 */

/** The condition: a memory holding at least `atLeast` terms of one of `groups` may be alike enough. */
export interface Probe {
  atLeast: number;
  groups: string[][];
}

/** Most AND-clauses a probe may expand to (each group's `atLeast`-subsets). */
const MAX_CLAUSES = 64;
/** What walking one posting costs beside reading one memory, for comparing probes. */
const POSTING_COST = 0.01;

/**
 * The probe expected to cost least for terms with these shares (0–1, estimates) of which a
 * memory must hold `need` (1 ≤ need ≤ terms.length); `clauseCost` is what one AND-clause costs
 * the index beside its postings, as a share of the memories (a fixed cost over their number).
 */
export function probeFor(terms: ReadonlyArray<{ term: string; share: number }>, need: number, clauseCost = 0): Probe {
  // Rarest first; equal shares keep the given order (a stable sort).
  const sorted = [...terms].sort((a, b) => a.share - b.share);
  const n = sorted.length;
  const prefix = sorted.slice(0, n - need + 1);
  let best: Probe = { atLeast: 1, groups: [prefix.map((x) => x.term)] };
  let bestCost = cost([prefix], 1, clauseCost);
  for (const t of [2, 3]) {
    for (let d = 0; need - d >= t && n - d >= t; d++) {
      const kept = sorted.slice(0, n - d);
      const g = Math.min(Math.floor((need - d - 1) / (t - 1)), Math.floor(kept.length / t));
      if (g < 1) continue;
      const groups = spread(kept, g);
      if (groups.reduce((a, group) => a + choose(group.length, t), 0) > MAX_CLAUSES) continue;
      const c = cost(groups, t, clauseCost);
      if (c < bestCost) [best, bestCost] = [{ atLeast: t, groups: groups.map((group) => group.map((x) => x.term)) }, c];
    }
  }
  return best;
}

/** The `atLeast`-subsets of each group: the AND-clauses whose OR is the probe. */
export function probeClauses(probe: Probe): string[][] {
  return probe.groups.flatMap((group) => subsetsOf(group, probe.atLeast));
}

/** Every `size`-subset of `items`, in order. */
function subsetsOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const pick = (from: number, picked: T[]): void => {
    if (picked.length === size) out.push(picked);
    else for (let i = from; i <= items.length - (size - picked.length); i++) pick(i + 1, [...picked, items[i]!]);
  };
  pick(0, []);
  return out;
}

/**
 * Spreads terms sorted rarest first over `g` groups back and forth (0, 1, …, g-1, g-1, …, 0, …),
 * so each group has a rare and a common term and the groups differ in size by one at most.
 */
function spread<T>(sorted: T[], g: number): T[][] {
  const groups = Array.from({ length: g }, () => [] as T[]);
  sorted.forEach((x, i) => {
    const r = i % (2 * g);
    groups[r < g ? r : 2 * g - 1 - r]!.push(x);
  });
  return groups;
}

/**
 * Expected cost: the memories read (each group's chance of `t` of its terms held together, as if
 * independent), each AND-clause's walk of its rarest term's postings, and the clauses' own cost.
 */
function cost(groups: ReadonlyArray<ReadonlyArray<{ share: number }>>, t: number, clauseCost: number): number {
  let total = 0;
  for (const group of groups) {
    total += elementary(
      group.map((x) => x.share),
      t,
    );
    for (const clause of subsetsOf(group, t)) total += POSTING_COST * Math.min(...clause.map((x) => x.share)) + clauseCost;
  }
  return total;
}

/** The sum over every `t`-subset of the product of its values. */
function elementary(values: number[], t: number): number {
  const e = [1, ...new Array<number>(t).fill(0)];
  for (const v of values) for (let k = t; k >= 1; k--) e[k]! += e[k - 1]! * v;
  return e[t]!;
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
}
