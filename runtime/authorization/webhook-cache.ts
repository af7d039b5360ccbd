import { LRU } from '../apimachinery/util/cache/lru.js';

/**
 * cache.LRUExpireCache: at most `maxSize` entries, each expiring at its own deadline, the least
 * recently used dropped first when full. Time comes from `now` (ms) so tests can move it.
 */
export class LRUExpireCache<V> {
  private readonly entries: LRU<{ readonly value: V; readonly expiresAt: number }>;

  constructor(
    maxSize: number,
    private readonly now: () => number,
  ) {
    this.entries = new LRU(maxSize);
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() < entry.expiresAt) return entry.value;
    this.entries.remove(key);
    return undefined;
  }

  add(key: string, value: V, ttlMs: number): void {
    this.entries.add(key, { value, expiresAt: this.now() + ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
