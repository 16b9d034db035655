/**
 * A file name a person can read, made from a text (a memory's description, a fact, a task): its
 * words, lower case, joined by "-", cut at a word so it fits a tab. Letters and digits of any
 * script are kept; what a path could misread (`/`, `?`, `#`, `.`) never is. Plain function, tested in Node.
 */
export function readableName(text: string, fallback: string, max = 48): string {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  let out = '';
  for (const word of words) {
    const next = out ? `${out}-${word}` : word;
    if (next.length > max) break;
    out = next;
  }
  // A first word longer than the limit is cut rather than dropped.
  if (!out && words[0]) out = [...words[0]].slice(0, max).join('');
  return out || fallback;
}
