/**
 * FNV-1a, 32 bits: the hash of the tables that find words by their characters (wordScan.ts) and
 * strings by their bytes (packed.ts). One loop a call: the callers' hot loops call once a word.
 */
const OFFSET = 0x811c9dc5 | 0;
const PRIME = 16777619;

/** FNV-1a of the code units text[start, end). */
export function fnv1aChars(text: string, start: number, end: number): number {
  let h = OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), PRIME);
  return h;
}

/** FNV-1a of bytes[start, end). */
export function fnv1aBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, PRIME);
  return h;
}
