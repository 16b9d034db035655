/**
 * FNV-1a, 32 bits: the hash of the tables that find words by their characters (wordScan.ts,
 * which hashes each code unit as its scan takes it: h = Math.imul(h ^ unit, FNV_PRIME) from
 * FNV_OFFSET) and strings by their bytes (packed.ts).
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 16777619;

/** FNV-1a of bytes[start, end). */
export function fnv1aBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h;
}
