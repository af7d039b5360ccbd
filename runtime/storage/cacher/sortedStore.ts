/**
 * SortedStore keeps the current objects of a watch cache by key, in key order, so lists can
 * serve a key range and resume after a continue key without sorting. Inserting a new key is
 * a binary search plus an array splice; updates of existing keys are O(1).
 */
export class SortedStore<V> {
  private readonly byKey = new Map<string, V>();
  private keys: string[] = [];

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): V | undefined {
    return this.byKey.get(key);
  }

  set(key: string, value: V): void {
    if (!this.byKey.has(key)) this.keys.splice(this.lowerBound(key), 0, key);
    this.byKey.set(key, value);
  }

  delete(key: string): void {
    if (!this.byKey.delete(key)) return;
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  clear(): void {
    this.byKey.clear();
    this.keys = [];
  }

  /** Replaces the whole content (after a relist). */
  replace(entries: Iterable<[string, V]>): void {
    this.byKey.clear();
    for (const [k, v] of entries) this.byKey.set(k, v);
    this.keys = [...this.byKey.keys()].sort(compare);
  }

  /** Index of the first key ≥ key. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  keyAt(i: number): string | undefined {
    return this.keys[i];
  }

  /** Values with keys in [start, end), in key order. */
  *range(start: string, end: string): Generator<[string, V]> {
    for (let i = this.lowerBound(start); i < this.keys.length; i++) {
      const k = this.keys[i] as string;
      if (k >= end) return;
      yield [k, this.byKey.get(k) as V];
    }
  }

  /** Number of keys in [start, end). */
  count(start: string, end: string): number {
    return this.lowerBound(end) - this.lowerBound(start);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
