/** Typed arrays that grow: each a column of numbers indexed by a slot or a number given out in order. */
type Growable = Uint8Array | Uint16Array | Int32Array | Uint32Array;

/** `a`, or a copy of it (the new part zeros) at least twice as long, when it cannot hold index `i`. */
export function room<T extends Growable>(a: T, i: number): T {
  if (i < a.length) return a;
  const more = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, i + 1));
  more.set(a);
  return more;
}
