import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/**
 * node:crypto, loaded when first used, not when a bundle starts: loading it costs about 7 ms of
 * a one-shot CLI start (a tenth of a search), and a search uses none of it (the journal's
 * positions are checked with a SHA-1 in JavaScript: store/sqljs/journal.ts).
 */
function nodeCrypto(): typeof NodeCrypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not when the bundle starts
  return (loaded ??= require('node:crypto') as typeof NodeCrypto);
}

/** A random (version 4) UUID: a new memory's id, a version's row id, a lock holder's token. */
export function randomUUID(): string {
  return nodeCrypto().randomUUID();
}

/** SHA-256 of `parts` one after the other (a string as UTF-8), in hex. */
export function sha256Hex(...parts: Array<string | Uint8Array>): string {
  const hash = nodeCrypto().createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/**
 * node:crypto if this process has loaded it already (it made an id, say), else undefined: for
 * work that has a slower way of its own and should not load it (the journal's SHA-1).
 */
export function loadedNodeCrypto(): typeof NodeCrypto | undefined {
  return loaded;
}
