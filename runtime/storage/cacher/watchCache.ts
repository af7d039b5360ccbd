import { TooLargeResourceVersionError } from '../errors.js';
import { deepFreeze, type StoredObject } from '../../apimachinery/object.js';
import { SortedStore } from './sortedStore.js';

export interface CachedObject<T> {
  key: string;
  obj: T;
  rv: number;
}

/** One change as the cache saw it: the object after (or, for deletes, at deletion) and before. */
export interface CacheEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  obj: T;
  prevObj: T | undefined;
  rv: number;
}

/**
 * watchCache (kube's watch_cache.go): the current objects in key order plus a ring buffer of
 * recent events. Everything stored is frozen and shared by all readers. `historyFloor` is the
 * revision after which every event is still in the buffer; watches from older revisions get 410.
 */
/** The history a cache starts with (kube's defaultLowerBoundCapacity); it doubles up to its capacity as events come. */
const INITIAL_HISTORY = 100;

export class WatchCache<T extends StoredObject> {
  readonly store = new SortedStore<CachedObject<T>>();
  /** The event history: a ring that grows to `capacity`, so an idle resource holds a small one. */
  private ring: Array<CacheEvent<T> | undefined>;
  private start = 0;
  private length = 0;
  /** Latest revision the cache has caught up to (events and progress). */
  resourceVersion = 0;
  /** Watches must start at or after this revision. */
  historyFloor = 0;
  /** Revision of the newest event applied (progress notifications do not move it). */
  private lastEventRV = 0;
  private waiters: Array<{ rv: number; resolve: () => void }> = [];

  constructor(private readonly capacity: number) {
    this.ring = new Array<CacheEvent<T> | undefined>(Math.min(capacity, INITIAL_HISTORY));
  }

  /** Replaces the state after a (re)list at revision rv; history restarts there. */
  replace(items: Array<{ key: string; obj: T }>, rv: number): void {
    this.store.replace(items.map(({ key, obj }) => [key, { key, obj: deepFreeze(obj), rv: Number(obj.metadata?.resourceVersion ?? 0) }]));
    this.start = 0;
    this.length = 0;
    this.ring.fill(undefined);
    this.historyFloor = rv;
    this.lastEventRV = rv;
    this.resourceVersion = 0;
    this.setResourceVersion(rv);
  }

  /** Applies one upstream event; returns the cache event to dispatch (undefined if redundant). */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', key: string, obj: T, rv: number): CacheEvent<T> | undefined {
    // Duplicates are judged against events, not progress: a progress notification that overtook
    // events (etcd before 3.4.31) must never make the cache drop them.
    if (rv <= this.lastEventRV) return undefined;
    this.lastEventRV = rv;
    deepFreeze(obj);
    const prev = this.store.get(key);
    if (type === 'DELETED') this.store.delete(key);
    else this.store.set(key, { key, obj, rv });
    const ev: CacheEvent<T> = { type, key, obj, prevObj: prev?.obj, rv };
    this.push(ev);
    this.setResourceVersion(rv);
    return ev;
  }

  setResourceVersion(rv: number): void {
    if (rv <= this.resourceVersion) return;
    this.resourceVersion = rv;
    const ready = this.waiters.filter((w) => w.rv <= rv);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.rv > rv);
    for (const w of ready) w.resolve();
  }

  /** Drops history up to rv (the backend compacted it). */
  compactTo(rv: number): void {
    while (this.length > 0 && (this.ring[this.start] as CacheEvent<T>).rv <= rv) {
      this.ring[this.start] = undefined;
      this.start = (this.start + 1) % this.ring.length;
      this.length--;
    }
    this.historyFloor = Math.max(this.historyFloor, rv);
  }

  /** Events after rv in order; undefined if some were dropped (the caller answers 410). */
  eventsAfter(rv: number): CacheEvent<T>[] | undefined {
    if (rv < this.historyFloor) return undefined;
    const out: CacheEvent<T>[] = [];
    for (let i = 0; i < this.length; i++) {
      const ev = this.ring[(this.start + i) % this.ring.length] as CacheEvent<T>;
      if (ev.rv > rv) out.push(ev);
    }
    return out;
  }

  /** Resolves once the cache has reached rv; TooLargeResourceVersionError after timeoutMs. */
  async waitUntilFresh(rv: number, timeoutMs: number, onWait?: () => void): Promise<void> {
    if (this.resourceVersion >= rv) return;
    let timer: NodeJS.Timeout | undefined;
    let poke: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const waiter = { rv, resolve };
        this.waiters.push(waiter);
        timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new TooLargeResourceVersionError(rv, this.resourceVersion, 1));
        }, timeoutMs);
        if (onWait) {
          onWait();
          poke = setInterval(onWait, 100);
        }
      });
    } finally {
      clearTimeout(timer);
      clearInterval(poke);
    }
  }

  private push(ev: CacheEvent<T>): void {
    if (this.length === this.ring.length && this.ring.length < this.capacity) this.grow();
    if (this.length === this.ring.length) {
      const dropped = this.ring[this.start] as CacheEvent<T>;
      this.historyFloor = Math.max(this.historyFloor, dropped.rv);
      this.start = (this.start + 1) % this.ring.length;
      this.length--;
    }
    this.ring[(this.start + this.length) % this.ring.length] = ev;
    this.length++;
  }

  /** Twice the ring (at most the capacity), its events in order from index 0. */
  private grow(): void {
    const next = new Array<CacheEvent<T> | undefined>(Math.min(this.capacity, this.ring.length * 2));
    for (let i = 0; i < this.length; i++) next[i] = this.ring[(this.start + i) % this.ring.length];
    this.ring = next;
    this.start = 0;
  }
}
