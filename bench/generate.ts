import type { StoredVersion } from '../src/core/ports/store';
import { codeName, TAGS, TERMS } from './vocabulary';

/** mulberry32: a small, fast, seeded PRNG; the same seed gives the same data set everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws indexes 0..n-1 with probability proportional to 1 / (rank + 1)^s. */
export class Zipf {
  private readonly cdf: Float64Array;
  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) this.cdf[i] = sum += 1 / Math.pow(i + 1, s);
    for (let i = 0; i < n; i++) this.cdf[i]! /= sum;
  }
  sample(rnd: () => number): number {
    const u = rnd();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const termZipf = new Zipf(TERMS.length, 1.0);
const tagZipf = new Zipf(TAGS.length, 1.1);
const VERBS = [
  'Fixed',
  'Investigated',
  'Documented',
  'Worked around',
  'Decided on',
  'Reproduced',
  'Replaced',
  'Explained',
  'Sped up',
  'Removed',
];
const GLUE = ['the', 'when', 'after', 'with', 'in', 'for', 'because', 'on', 'during', 'so'];
const AUTHORS = Array.from({ length: 8 }, (_, i) => `dev${i + 1}@example.com`);

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const between = (rnd: () => number, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

/** A random v4 UUID drawn from `rnd` (valid for the contract's uuid check). */
export function uuid(rnd: () => number): string {
  const b = Array.from({ length: 16 }, () => Math.floor(rnd() * 256));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Writes synthetic but plausible memories; `codeNames` is the pool size of rare project names. */
export class MemoryWriter {
  constructor(
    private readonly rnd: () => number,
    private readonly codeNames: number,
  ) {}

  private phrase(words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      out.push(TERMS[termZipf.sample(this.rnd)]!);
      if (i < words - 1 && this.rnd() < 0.3) out.push(pick(this.rnd, GLUE));
    }
    return out.join(' ');
  }

  description(): string {
    const sentences = between(this.rnd, 1, 2);
    const parts: string[] = [];
    for (let s = 0; s < sentences; s++) {
      let text = `${pick(this.rnd, VERBS)} ${this.phrase(between(this.rnd, 5, 12))}`;
      // About 30% of memories name a rare project (a code name): the selective queries look for these.
      if (s === 0 && this.rnd() < 0.3) text += ` in ${codeName(Math.floor(this.rnd() * this.codeNames))}`;
      parts.push(`${text}.`);
    }
    return parts.join(' ').slice(0, 500);
  }

  tags(): string[] {
    const want = between(this.rnd, 2, 5);
    const tags = new Set<string>();
    while (tags.size < want) tags.add(TAGS[tagZipf.sample(this.rnd)]!);
    return [...tags];
  }

  content(): string {
    const target = between(this.rnd, 300, 1500);
    let text = '';
    while (text.length < target) {
      const r = this.rnd();
      if (r < 0.1) text += `Run \`npm run ${pick(this.rnd, TERMS)}\` to check it.\n`;
      else if (r < 0.2) text += `See src/${pick(this.rnd, TERMS)}/${pick(this.rnd, TERMS)}.ts for the ${pick(this.rnd, TERMS)}.\n`;
      else {
        const s = this.phrase(between(this.rnd, 6, 16));
        text += `${s[0]!.toUpperCase()}${s.slice(1)}.${this.rnd() < 0.2 ? '\n\n' : ' '}`;
      }
    }
    return text.slice(0, target).trimEnd();
  }

  memory(): { description: string; tags: string[]; content: string } {
    return { description: this.description(), tags: this.tags(), content: this.content() };
  }
}

export interface Dataset {
  n: number;
  /** Every version row, oldest change first, as importVersions takes them. */
  rows: StoredVersion[];
  /** Ids of current, non-deleted memories. */
  live: string[];
  /** Rare code names and tags: a few hits each. */
  selective: string[][];
  /** Common terms and tags: thousands of hits at 10k. */
  broad: string[][];
}

const BASE = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

/** `n` memories with history: ~30% edited 1–3 times, ~5% deleted; deterministic for a seed. */
export function generate(n: number, seed = 42): Dataset {
  const rnd = prng(seed ^ n);
  const writer = new MemoryWriter(rnd, Math.max(50, Math.floor(n / 4)));
  const rows: StoredVersion[] = [];
  const currents: StoredVersion[] = [];
  const span = 700 * DAY;
  for (let i = 0; i < n; i++) {
    const id = uuid(rnd);
    let t = BASE + Math.floor((i / n) * span) + Math.floor(rnd() * 60_000);
    const author = pick(rnd, AUTHORS);
    let cur: StoredVersion = {
      rowId: uuid(rnd),
      id,
      version: 1,
      op: 'create',
      ...writer.memory(),
      changedAt: new Date(t).toISOString(),
      deletedAt: null,
      author,
      restoredFrom: null,
    };
    rows.push(cur);
    const edits = rnd() < 0.3 ? between(rnd, 1, 3) : 0;
    for (let e = 0; e < edits; e++) {
      t += 1 + Math.floor(rnd() * 30 * DAY);
      const what = rnd();
      const next = {
        ...cur,
        rowId: uuid(rnd),
        version: cur.version + 1,
        op: 'edit' as const,
        changedAt: new Date(t).toISOString(),
        author: pick(rnd, AUTHORS),
      };
      if (what < 0.3) next.description = writer.description();
      else if (what < 0.5)
        next.tags = [
          ...cur.tags.slice(1),
          ...writer
            .tags()
            .filter((x) => !cur.tags.includes(x))
            .slice(0, 1),
        ];
      else next.content = `${cur.content}\n\n${writer.content().slice(0, 300)}`.slice(0, 4000);
      rows.push((cur = next));
    }
    if (rnd() < 0.05) {
      t += 1 + Math.floor(rnd() * 30 * DAY);
      const at = new Date(t).toISOString();
      rows.push(
        (cur = {
          ...cur,
          rowId: uuid(rnd),
          version: cur.version + 1,
          op: 'delete',
          changedAt: at,
          deletedAt: at,
          author: pick(rnd, AUTHORS),
        }),
      );
    }
    currents.push(cur);
  }
  rows.sort((a, b) => (a.changedAt < b.changedAt ? -1 : a.changedAt > b.changedAt ? 1 : 0));
  const liveRows = currents.filter((r) => !r.deletedAt);
  return { n, rows, live: liveRows.map((r) => r.id), ...chooseQueries(liveRows, prng(seed + 1)) };
}

/** Picks queries by their real document frequency in the current, live memories. */
function chooseQueries(live: StoredVersion[], rnd: () => number): { selective: string[][]; broad: string[][] } {
  const termDf = new Map<string, number>();
  const tagDf = new Map<string, number>();
  for (const r of live) {
    for (const w of new Set(r.description.toLowerCase().split(/[^a-z0-9]+/))) if (w) termDf.set(w, (termDf.get(w) ?? 0) + 1);
    for (const t of r.tags) tagDf.set(t, (tagDf.get(t) ?? 0) + 1);
  }
  const vocab = new Set(TERMS);
  const names = [...termDf]
    .filter(([w, df]) => !vocab.has(w) && df >= 1 && df <= 5 && w.length >= 8)
    .map(([w]) => w)
    .sort();
  const rareTags = [...tagDf]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([t]) => t);
  const selective: string[][] = [];
  for (let i = 0; i < 10 && names.length; i++) selective.push([names[Math.floor(rnd() * names.length)]!]);
  for (const t of rareTags) selective.push([t]);

  const commonTerms = [...termDf]
    .filter(([w]) => vocab.has(w))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([w]) => w);
  const commonTags = [...tagDf]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([t]) => t);
  const c = (i: number) => commonTerms[i % commonTerms.length]!;
  const broad = [
    [c(0)],
    [c(1)],
    [c(2), c(3)],
    [c(4), c(5), c(6)],
    [commonTags[0]!],
    [commonTags[1]!, c(7)],
    [c(8), c(9)],
    [commonTags[2]!],
    [c(10), commonTags[3]!],
    [c(11)],
  ];
  return { selective, broad };
}
