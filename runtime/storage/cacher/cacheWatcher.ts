import { initialEventsAnnotationKey, type WatchEvent } from '../interfaces.js';
import type { StoredObject } from '../../apimachinery/object.js';
import { predicateEmpty, predicateMatches, type SelectionPredicate } from '../selectionPredicate.js';
import { WatchQueue } from '../watchQueue.js';
import type { CacheEvent } from './watchCache.js';

/** A client watch served from the cache: a key range, a predicate, and a queue to the client. */
export class CacheWatcher<T extends StoredObject> {
  readonly queue: WatchQueue<T>;
  /** Highest revision sent to this watcher (events or bookmarks). */
  sentRV: number;
  /** When this watcher is next owed a bookmark (0: never). */
  nextBookmarkAt: number;
  private readonly bookmarkFrequencyMs: number;
  private readonly deadline: number | undefined;
  private readonly acceptAll: boolean;
  /** Internal clients asked for backend progress notifications as bookmarks. */
  readonly progressNotify: boolean;

  constructor(
    private readonly start: string,
    private readonly end: string,
    private readonly pred: SelectionPredicate<T>,
    startRV: number,
    opts: { capacity: number; bookmarkFrequencyMs: number; deadline?: number; progressNotify?: boolean; watchList?: boolean; onClose: () => void },
  ) {
    this.progressNotify = opts.progressNotify ?? false;
    this.acceptAll = predicateEmpty(pred as SelectionPredicate<never>);
    this.sentRV = startRV;
    this.queue = new WatchQueue<T>({ capacity: opts.capacity, onClose: opts.onClose });
    this.bookmarkFrequencyMs = opts.bookmarkFrequencyMs;
    this.deadline = opts.deadline;
    const now = Date.now();
    // A watch-list waits for a bookmark at the revision it was synced to: kube schedules one at
    // once (the next dispatch), besides the initial-events-end bookmark.
    if (!pred.allowWatchBookmarks) this.nextBookmarkAt = 0;
    else this.nextBookmarkAt = opts.watchList === true ? now : this.nextBookmarkAfter(now);
  }

  /**
   * cacheWatcher.nextBookmarkTime once no bookmark is awaited: bookmarkFrequency from `now`, but
   * 2 s before the watch's deadline if that is sooner, and none (0) when that moment has passed.
   */
  nextBookmarkAfter(now: number): number {
    let next = now + this.bookmarkFrequencyMs;
    if (this.deadline !== undefined) next = Math.min(next, this.deadline - 2000);
    return next < now ? 0 : next;
  }

  /** Whether this watcher covers key at all (before any predicate). */
  coversKey(key: string): boolean {
    return key >= this.start && key < this.end;
  }

  /** Translates a cache event for this watcher (an update leaving the selection is a DELETED). */
  dispatch(ev: CacheEvent<T>): void {
    if (ev.rv <= this.sentRV || !this.coversKey(ev.key)) return;
    const out = this.transform(ev);
    this.sentRV = ev.rv;
    if (out) this.queue.push(out);
  }

  /**
   * Sends the current state as ADDED events (initial events of RV=0 or watch-list), all of them:
   * they are filtered and handed over as the client reads (kube's cacheInterval), never counted
   * against the capacity that ends a watcher too slow for live events. `snapshot` must not change.
   */
  sendInitial(snapshot: readonly T[]): void {
    this.queue.sendInitial(this.initialEvents(snapshot));
  }

  private *initialEvents(snapshot: readonly T[]): Generator<WatchEvent<T>, void> {
    for (const obj of snapshot) if (this.matches(obj)) yield { type: 'ADDED', object: obj };
  }

  /**
   * Replays `history` (cache events after the watch's resourceVersion, in order) the same way:
   * all of them, as the client reads, before any live event (kube sends both through its cacheInterval).
   */
  sendHistory(history: readonly CacheEvent<T>[]): void {
    this.queue.sendInitial(this.historyEvents(history, this.sentRV));
    const last = history[history.length - 1];
    if (last && last.rv > this.sentRV) this.sentRV = last.rv;
  }

  private *historyEvents(history: readonly CacheEvent<T>[], after: number): Generator<WatchEvent<T>, void> {
    for (const ev of history) {
      if (ev.rv <= after || !this.coversKey(ev.key)) continue;
      const out = this.transform(ev);
      if (out) yield out;
    }
  }

  bookmark(rv: number, initialEventsEnd = false): void {
    if (rv < this.sentRV) return;
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata.annotations = { [initialEventsAnnotationKey]: 'true' };
    this.sentRV = rv;
    this.queue.push({ type: 'BOOKMARK', object: { metadata } as T });
  }

  private matches(obj: T): boolean {
    return this.acceptAll || predicateMatches(this.pred, obj);
  }

  private transform(ev: CacheEvent<T>): WatchEvent<T> | undefined {
    if (ev.type === 'ADDED') return this.matches(ev.obj) ? { type: 'ADDED', object: ev.obj } : undefined;
    if (ev.type === 'DELETED') return this.matches(ev.obj) ? { type: 'DELETED', object: ev.obj } : undefined;
    const cur = this.matches(ev.obj);
    const old = ev.prevObj !== undefined && this.matches(ev.prevObj);
    if (cur && old) return { type: 'MODIFIED', object: ev.obj };
    if (cur) return { type: 'ADDED', object: ev.obj };
    // The previous state matched: the client sees it leave, carrying the new revision.
    if (old) return { type: 'DELETED', object: withResourceVersion(ev.prevObj as T, ev.rv) };
    return undefined;
  }
}

const rvCopies = new WeakMap<object, Map<number, object>>();

/** A frozen copy of obj at another revision, shared between watchers. */
function withResourceVersion<T extends StoredObject>(obj: T, rv: number): T {
  let m = rvCopies.get(obj);
  if (!m) {
    m = new Map();
    rvCopies.set(obj, m);
  }
  let c = m.get(rv) as T | undefined;
  if (!c) {
    c = Object.freeze({ ...obj, metadata: Object.freeze({ ...(obj.metadata ?? {}), resourceVersion: String(rv) }) }) as T;
    m.set(rv, c);
  }
  return c;
}
