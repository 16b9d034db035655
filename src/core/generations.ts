/**
 * A memo of values by key in two generations: when the young one is full the old one is dropped,
 * so a key set larger than the cache keeps its frequent keys without thrashing (a looked-up old
 * key moves to the young generation).
 */
export class Generations<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();

  constructor(private readonly size: number) {}

  /** The value of `key`, computed by `make` when not kept; kept only when `keep`. */
  get(key: string, make: (key: string) => V, keep = true): V {
    let v = this.young.get(key);
    if (v !== undefined) return v;
    v = this.old.get(key) ?? make(key);
    if (!keep) return v;
    if (this.young.size >= this.size) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, v);
    return v;
  }
}
