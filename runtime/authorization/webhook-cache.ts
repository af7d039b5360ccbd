/**
 * cache.LRUExpireCache: at most `maxSize` entries, each expiring at its own deadline, the least
 * recently used dropped first when full. Time comes from `now` (ms) so tests can move it.
 */
export class LRUExpireCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(
    private readonly maxSize: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (this.now() >= entry.expiresAt) return undefined;
    // A Map iterates in insertion order: re-inserting makes the entry the most recently used.
    this.entries.set(key, entry);
    return entry.value;
  }

  add(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size <= this.maxSize) return;
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.entries.delete(oldest.value);
  }

  get size(): number {
    return this.entries.size;
  }
}
