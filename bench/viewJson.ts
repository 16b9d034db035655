/**
 * The baseline for the saved view's format (issue 17: "measure whatever you choose against
 * JSON"): the same content as the packed search-index.bin, written as JSON the way releases
 * before view format 6 wrote it (records, and posting lists as arrays of gaps), and the time a
 * fresh process takes to read and parse it, building nothing from it. The packed file's figure
 * is the whole open and first search.
 */
import * as fs from 'node:fs';
import { PackReader, type StringColumn } from '../src/core/packed';
import { readIndex } from '../src/core/search/savedIndex';
import { Postings, type SavedPostings } from '../src/core/search/postings';

function gapLists(p: SavedPostings): Array<[string, number[]]> {
  const slots = new Map<string, number[]>();
  Postings.restore(p).forEach((term, slot) => {
    const list = slots.get(term);
    if (list) list.push(slot);
    else slots.set(term, [slot]);
  });
  return [...slots].map(([term, list]) => [term, list.map((slot, i) => (i === 0 ? slot : slot - list[i - 1]!))]);
}

/** Writes `json` with the content of the packed view `bin`. */
export function writeViewAsJson(bin: string, json: string): void {
  const r = new PackReader(fs.readFileSync(bin));
  const meta = r.json<Record<string, unknown>>();
  const cols = (c: StringColumn) => c.all();
  const [slots, slotVersions, slotRowIds] = [r.u32(), r.f64(), cols(r.strings())];
  const [ids, changedAt, versions, rowIds, deleted] = [cols(r.strings()), cols(r.strings()), r.f64(), cols(r.strings()), r.bytes()];
  const keys = new TextDecoder().decode(r.bytes());
  const index = readIndex(r);
  const [indexIds, indexTimes] = [index.ids.all(), index.changedAt.all()];
  const heads = [
    ...[...slots].map((slot, i) => [indexIds[slot], indexTimes[slot], slotVersions[i], slotRowIds[i], 0]),
    ...ids.map((id, i) => [id, changedAt[i], versions[i], rowIds[i], deleted[i]]),
  ];
  const tagNames = index.tags.terms.all();
  const [docIds, descriptions, docChangedAt] = [index.ids.all(), index.descriptions.all(), index.changedAt.all()];
  let ref = 0;
  const docs = [...index.live].map((live, slot) => {
    const tags = Array.from({ length: index.tagStarts[slot + 1]! - index.tagStarts[slot]! }, () => tagNames[index.tagRefs[ref++]!]!);
    return live ? [docIds[slot], descriptions[slot], tags, docChangedAt[slot]] : null;
  });
  const saved = {
    ...meta,
    lines: { ...(meta.lines as object), keys },
    heads,
    index: {
      docs,
      terms: gapLists(index.terms),
      tags: gapLists(index.tags),
      tagStems: gapLists(index.tagStems),
      content: gapLists(index.content),
    },
  };
  fs.writeFileSync(json, JSON.stringify(saved));
}

/** In a fresh process: read and parse the JSON file (nothing built from it). */
export function parseViewJson(json: string): { parseMs: number; rssMb: number } {
  const t = performance.now();
  const value: unknown = JSON.parse(fs.readFileSync(json, 'utf8'));
  const parseMs = performance.now() - t;
  if (typeof value !== 'object' || value === null) throw new Error('not the saved view');
  return { parseMs, rssMb: process.memoryUsage().rss / (1 << 20) };
}
