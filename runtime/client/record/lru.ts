/**
 * A bounded least-recently-used cache (k8s.io/utils/lru): `get` and `add` make an entry the
 * newest; adding past `maxEntries` evicts the oldest. Keys are data (a Map), so hostile keys such
 * as `__proto__` are ordinary entries.
 */
export class LRUCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly maxEntries: number) {
    if (!(maxEntries > 0)) throw new RangeError(`an LRU cache needs maxEntries > 0, got ${maxEntries}`);
  }

  get(key: string): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  add(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
