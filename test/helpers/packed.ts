import { PackReader, PackWriter } from '../../src/core/packed';
import type { SavedPostings } from '../../src/core/search/postings';
import { readIndex, type SavedIndex, writeIndex } from '../../src/core/search/savedIndex';

/** The bytes a PackWriter's chunks make, as the file holds them. */
export function fileOf(w: PackWriter): Uint8Array {
  return Buffer.concat(w.chunks());
}

/** A saved index written to a packed file's bytes and read back, as a store's next open reads it. */
export function throughFile(saved: SavedIndex): SavedIndex {
  const w = new PackWriter();
  writeIndex(w, saved);
  const r = new PackReader(fileOf(w));
  const back = readIndex(r);
  r.end();
  return back;
}

/** Saved postings as [term, gaps] per term: the LEB128 lists decoded here, independently of postings.ts. */
export function postingLists(saved: SavedPostings): Array<[string, number[]]> {
  let at = 0;
  return saved.terms.all().map((term, i) => {
    const end = at + saved.sizes[i]!;
    const gaps: number[] = [];
    while (at < end) {
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        const b = saved.lists[at++]!;
        value += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      gaps.push(value);
    }
    if (gaps.length !== saved.counts[i]) throw new Error(`${term}: ${gaps.length} gaps, counted ${saved.counts[i]}`);
    return [term, gaps];
  });
}
