import { DeletedFinalStateUnknown } from '../cache.js';
import type { DeepReadonly } from '../types.js';
import type { KnownObjects } from './indexer.js';
import type { KeyFunc } from './keys.js';

export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/** One change to one object; `object` is its state after the change (the last known state for Deleted). */
export interface Delta<T> {
  readonly type: DeltaType;
  readonly object: DeepReadonly<T> | DeletedFinalStateUnknown<T>;
}

/** The changes of one object not yet processed, oldest first. */
export type Deltas<T> = readonly Delta<T>[];

/** What a reflector writes into. */
export interface ReflectorStore<T> {
  add(obj: DeepReadonly<T>): void;
  update(obj: DeepReadonly<T>): void;
  delete(obj: DeepReadonly<T>): void;
  /** The complete state at `resourceVersion`, as a list or watch-list returned it. */
  replace(objs: readonly DeepReadonly<T>[], resourceVersion: string): void;
  /** Queues a Sync of every known object without pending changes. */
  resync(): void;
}

export interface DeltaFIFOOptions<T> {
  readonly keyFunc: KeyFunc;
  /** The informer's store: deletions missed during a relist are detected against it. */
  readonly knownObjects: KnownObjects<T>;
  /** Called whenever hasSynced() may have turned true. */
  readonly onSynced?: () => void;
}

/**
 * client-go's DeltaFIFO: a queue of keys, each with the accumulated deltas of
 * its object, so a consumer that falls behind processes every change of an
 * object in order but each object once per pop. Replace emits Replaced
 * deltas for the listed objects and DeletedFinalStateUnknown tombstones for
 * objects that vanished while the reflector was not watching.
 */
export class DeltaFIFO<T> implements ReflectorStore<T> {
  private readonly items = new Map<string, Delta<T>[]>();
  private queue: string[] = [];
  private head = 0;
  private populated = false;
  private initialPopulationCount = 0;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(private readonly opts: DeltaFIFOOptions<T>) {}

  add(obj: DeepReadonly<T>): void {
    this.populated = true;
    this.queueAction('Added', obj);
  }

  update(obj: DeepReadonly<T>): void {
    this.populated = true;
    this.queueAction('Updated', obj);
  }

  /** Queues a Deleted delta unless the object is unknown both to the queue and to the store. */
  delete(obj: DeepReadonly<T>): void {
    const key = this.opts.keyFunc(obj);
    this.populated = true;
    if (this.opts.knownObjects.getByKey(key) === undefined && !this.items.has(key)) return;
    this.queueAction('Deleted', obj);
  }

  replace(objs: readonly DeepReadonly<T>[], _resourceVersion: string): void {
    // Keyed up front, so an object without a name fails the replace before anything is queued.
    const keyed = objs.map((obj) => [this.opts.keyFunc(obj), obj] as const);
    const keys = new Set(keyed.map(([key]) => key));
    for (const [key, obj] of keyed) this.queueKeyed(key, 'Replaced', obj);
    let queuedDeletions = 0;
    // Objects with pending deltas but absent from the list: their newest state is the best we know.
    for (const [key, deltas] of this.items) {
      if (keys.has(key)) continue;
      const newest = deltas[deltas.length - 1]?.object;
      if (newest === undefined) continue;
      const last = newest instanceof DeletedFinalStateUnknown ? newest.obj : newest;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown<T>(key, last));
    }
    // Objects in the store with nothing pending: the store holds their last state.
    for (const key of this.opts.knownObjects.listKeys()) {
      if (keys.has(key) || (this.items.get(key)?.length ?? 0) > 0) continue;
      const last = this.opts.knownObjects.getByKey(key);
      if (last === undefined) continue;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown<T>(key, last));
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = keys.size + queuedDeletions;
    }
    this.notifyIfSynced();
  }

  resync(): void {
    for (const key of this.opts.knownObjects.listKeys()) {
      if ((this.items.get(key)?.length ?? 0) > 0) continue;
      const obj = this.opts.knownObjects.getByKey(key);
      if (obj !== undefined) this.queueAction('Sync', obj);
    }
  }

  /**
   * Waits for an object with pending deltas, hands them to `process` (which
   * runs before anyone can observe the queue again) and removes them.
   * Resolves false once the queue is closed, true otherwise. An exception of
   * `process` propagates after the deltas were removed, as client-go drops them
   * unless asked to requeue.
   */
  async pop(process: (deltas: Deltas<T>, isInInitialList: boolean) => void): Promise<boolean> {
    while (this.head >= this.queue.length) {
      if (this.closed) return false;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    if (this.closed) return false;
    const isInInitialList = !this.hasSynced();
    const key = this.queue[this.head++] as string;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const deltas = this.items.get(key) ?? [];
    this.items.delete(key);
    try {
      process(deltas, isInInitialList);
    } finally {
      if (this.initialPopulationCount > 0) {
        this.initialPopulationCount--;
        this.notifyIfSynced();
      }
    }
    return true;
  }

  /** True once the first Replace (or any add/update/delete before it) has been popped completely. */
  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  /** Keys with pending deltas, in queue order. */
  listKeys(): readonly string[] {
    return this.queue.slice(this.head);
  }

  /** Pending deltas of `key` (a copy), for tests and diagnostics. */
  pending(key: string): Deltas<T> {
    return [...(this.items.get(key) ?? [])];
  }

  /** Ends pop(): a pending call resolves false and later ones return false at once. */
  close(): void {
    this.closed = true;
    this.wakeUp();
  }

  isClosed(): boolean {
    return this.closed;
  }

  private queueAction(type: DeltaType, object: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    this.queueKeyed(this.opts.keyFunc(object), type, object);
  }

  private queueKeyed(key: string, type: DeltaType, object: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    const existing = this.items.get(key);
    const deltas = dedupDeltas([...(existing ?? []), { type, object }]);
    if (existing === undefined) this.queue.push(key);
    this.items.set(key, deltas);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private notifyIfSynced(): void {
    if (this.hasSynced()) this.opts.onSynced?.();
  }
}

/**
 * Two deletions in a row collapse into one: the second carries no news. The
 * one kept is the observed deletion rather than a tombstone, which may hold a
 * staler object.
 */
function dedupDeltas<T>(deltas: Delta<T>[]): Delta<T>[] {
  const n = deltas.length;
  if (n < 2) return deltas;
  const a = deltas[n - 2] as Delta<T>;
  const b = deltas[n - 1] as Delta<T>;
  if (a.type !== 'Deleted' || b.type !== 'Deleted') return deltas;
  const kept = b.object instanceof DeletedFinalStateUnknown ? a : b;
  return [...deltas.slice(0, n - 2), kept];
}
