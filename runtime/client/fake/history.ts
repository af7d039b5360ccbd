import type { KubeObject } from '../../registry/rest.js';

/** One change of the tracker, kept for watches from an older resourceVersion and for consistent list pages. */
export interface HistoryEvent {
  readonly rv: number;
  /** gvrString of the resource. */
  readonly resource: string;
  /** The object's key within its resource (`namespace/name` or `name`). */
  readonly key: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The new state; for DELETED the last state, carrying the deletion's resourceVersion. Frozen. */
  readonly object: KubeObject;
  /** The state before the change; undefined for ADDED. Frozen. */
  readonly prev: KubeObject | undefined;
}

/**
 * A bounded log of changes, as a watch cache's ring or etcd before
 * compaction. `floor` is the oldest resourceVersion a reader may start
 * from: every change after it is still in the log.
 */
export class History {
  #events: HistoryEvent[] = [];
  #floor = 0;

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`fake: historyLimit must be at least 1, got ${limit}`);
  }

  get floor(): number {
    return this.#floor;
  }

  append(ev: HistoryEvent): void {
    this.#events.push(ev);
    if (this.#events.length > this.limit) {
      const dropped = this.#events.length - this.limit;
      this.#floor = (this.#events[dropped - 1] as HistoryEvent).rv;
      this.#events = this.#events.slice(dropped);
    }
  }

  /** Drops every change up to rv, as a compaction: readers from before rv get 410. */
  compact(rv: number): void {
    this.#events = this.#events.filter((e) => e.rv > rv);
    this.#floor = Math.max(this.#floor, rv);
  }

  /** Changes of one resource after rv, oldest first; undefined when rv is older than the floor. */
  after(resource: string, rv: number): HistoryEvent[] | undefined {
    if (rv < this.#floor) return undefined;
    return this.#events.filter((e) => e.rv > rv && e.resource === resource);
  }

  /**
   * The objects of one resource as they were at rv, rebuilt from `current`
   * by undoing the later changes; undefined when rv is older than the floor.
   */
  stateAt(resource: string, rv: number, current: ReadonlyMap<string, KubeObject>): Map<string, KubeObject> | undefined {
    const later = this.after(resource, rv);
    if (later === undefined) return undefined;
    const state = new Map(current);
    for (const ev of later.reverse()) {
      if (ev.prev === undefined) state.delete(ev.key);
      else state.set(ev.key, ev.prev);
    }
    return state;
  }
}
