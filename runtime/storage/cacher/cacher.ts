import { encodeContinue } from '../continue.js';
import { ExpiredError, KeyNotFoundError, TooManyRequestsError } from '../errors.js';
import type { CreateOptions, DeleteOptions, GetOptions, GuaranteedUpdateOptions, Interface, ListOptions, ListResult, Stats, WatchOptions, Watcher } from '../interfaces.js';
import { prefixRangeEnd, prepareKey } from '../keys.js';
import type { StoredObject } from '../../apimachinery/object.js';
import { everything, predicateEmpty, predicateMatches, type SelectionPredicate } from '../selectionPredicate.js';
import { WatchQueue } from '../watchQueue.js';
import { CacheWatcher } from './cacheWatcher.js';
import { WatchCache } from './watchCache.js';

export interface CacherConfig<T extends StoredObject> {
  /** The backend store every write, and every read the cache cannot serve, goes to. */
  storage: Interface<T>;
  /** The resource's key prefix, e.g. `/pods/` (as the backend store was built with). */
  resourcePrefix: string;
  /** The REST key of an object the backend returned (Store.restKeyOf). */
  keyOf: (obj: T) => string | undefined;
  /** Events kept for watches that resume from a past revision (default 10 000). */
  historyCapacity?: number;
  /** Buffered events above which a non-reading watcher is closed (default 1 000). */
  watcherCapacity?: number;
  /** Bookmarks are sent to watchers that allow them at least this often (default 60 s). */
  bookmarkFrequencyMs?: number;
  /** How long a read waits for the cache to reach a requested revision (default 3 s). */
  freshnessTimeoutMs?: number;
  /**
   * Serve consistent lists and gets from the cache, after asking the backend for watch progress.
   * Only safe when the backend orders progress reports with events (Store.supportsRequestWatchProgress);
   * otherwise consistent lists go to the backend, as kube does. Default true.
   */
  consistentReadsFromCache?: boolean;
}

/** The shortest time between two progress requests of one cacher (the waiters' poll period). */
const PROGRESS_REQUEST_INTERVAL_MS = 100;

/**
 * Cacher is kube's watch cache in front of a backend store: one upstream watch per resource
 * feeds a WatchCache; watches are always served from it (fan-out in process, events shared
 * between watchers), lists at RV=0, NotOlderThan and consistent lists (and gets, when
 * consistentReadsFromCache) are served from it once it has caught up with the backend, and
 * everything else (writes, exact-revision and continued lists) goes to the backend.
 */
export class Cacher<T extends StoredObject = StoredObject> implements Interface<T> {
  readonly versioner;
  private readonly storage: Interface<T>;
  private readonly cache: WatchCache<T>;
  private readonly watchers = new Set<CacheWatcher<T>>();
  private ready = false;
  private readyWaiters: Array<() => void> = [];
  private stopped = false;
  private upstream: Watcher<T> | undefined;
  private readonly bookmarkTimer: NodeJS.Timeout;
  private notReadySince = Date.now();
  private readonly cfg: Required<Omit<CacherConfig<T>, 'storage' | 'keyOf' | 'resourcePrefix'>> & CacherConfig<T>;

  constructor(config: CacherConfig<T>) {
    this.cfg = { historyCapacity: 10_000, watcherCapacity: 1000, bookmarkFrequencyMs: 60_000, freshnessTimeoutMs: 3000, consistentReadsFromCache: true, ...config };
    this.storage = config.storage;
    this.versioner = config.storage.versioner;
    this.cache = new WatchCache<T>(this.cfg.historyCapacity);
    this.bookmarkTimer = setInterval(() => this.dispatchBookmarks(), 250 + Math.floor(Math.random() * 100));
    this.bookmarkTimer.unref();
    void this.run();
  }

  /** Resolves once the cache has completed its first list. */
  waitReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  /** Stops the upstream watch and ends every client watch. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.bookmarkTimer);
    this.upstream?.stop();
    this.terminateWatchers();
  }

  // Writes pass through: the cache learns about them from the upstream watch. As in kube, the
  // cached object is offered as the suggestion, saving a backend read when it is current (the
  // store re-reads and retries when it is not).
  create(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.storage.create(key, obj, opts);
  }
  delete(key: string, opts: DeleteOptions<T> = {}): Promise<T | undefined> {
    if (opts.cachedExistingObject || opts.expectTransformOrDecodeError) return this.storage.delete(key, opts);
    return this.storage.delete(key, { ...opts, cachedExistingObject: this.cached(key) });
  }
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions<T>): Promise<T> {
    if (opts.cachedExistingObject) return this.storage.guaranteedUpdate(key, opts);
    return this.storage.guaranteedUpdate(key, { ...opts, cachedExistingObject: this.cached(key) });
  }

  private cached(key: string): T | undefined {
    if (!this.ready) return undefined;
    try {
      return this.cache.store.get(prepareKey(this.cfg.resourcePrefix, key, false))?.obj;
    } catch {
      return undefined; // the backend reports invalid keys
    }
  }
  stats(): Promise<Stats> {
    return this.storage.stats();
  }
  requestWatchProgress(): Promise<void> {
    return this.storage.requestWatchProgress();
  }
  getCurrentResourceVersion(): Promise<number> {
    return this.storage.getCurrentResourceVersion();
  }
  compactRevision(): number {
    return this.storage.compactRevision();
  }

  async readinessCheck(): Promise<void> {
    if (!this.ready) throw new TooManyRequestsError('storage is (re)initializing', this.retryAfterSeconds());
  }

  /**
   * While a request waits for the cache to reach a resourceVersion, asks the backend for watch
   * progress (kube's conditional progress requester, which runs while anyone waits for freshness):
   * a resourceVersion written to other resources (another process's Lease, say) reaches this
   * cache only through progress, not through events of its own. Undefined where progress reports
   * cannot be trusted.
   */
  private progressPoke(): (() => void) | undefined {
    return this.cfg.consistentReadsFromCache ? this.requestProgressShared : undefined;
  }

  /**
   * One progress request per cacher per PROGRESS_REQUEST_INTERVAL_MS however many requests wait
   * (kube runs one ticker per cacher): waiters that each asked on their own timer would let a
   * client multiply backend traffic by sending many requests with a future resourceVersion.
   */
  private readonly requestProgressShared = (): void => {
    const now = performance.now();
    if (now - this.lastProgressRequest < PROGRESS_REQUEST_INTERVAL_MS) return;
    this.lastProgressRequest = now;
    this.storage.requestWatchProgress().catch(() => undefined);
  };
  private lastProgressRequest = -Infinity;

  /**
   * Before a consistent read from the cache: waits until the cache has caught up with the
   * backend's current revision (a local read on SQLite), asking for watch progress meanwhile.
   * False when it does not in time; the read then goes to the backend.
   */
  private async catchUpForConsistentRead(): Promise<boolean> {
    const current = await this.storage.getCurrentResourceVersion();
    try {
      await this.cache.waitUntilFresh(current, this.cfg.freshnessTimeoutMs, this.requestProgressShared);
      return true;
    } catch {
      return false;
    }
  }

  async get(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    const pk = prepareKey(this.cfg.resourcePrefix, key, false);
    if (!this.ready) return this.storage.get(key, opts);
    if (!opts.resourceVersion) {
      // A consistent get goes to the backend, as kube's does, unless consistent reads may come
      // from the cache: then the answer is the cached object, already decoded. From the
      // backend, the cached object still is the answer when the backend has it at the same
      // revision (the same bytes): a GET of an unchanged object decodes and encodes nothing.
      if (!this.cfg.consistentReadsFromCache || !(await this.catchUpForConsistentRead())) return this.storage.get(key, { ...opts, heldAt: (rev) => this.cachedAt(pk, rev) });
    } else {
      await this.cache.waitUntilFresh(this.versioner.parseResourceVersion(opts.resourceVersion), this.cfg.freshnessTimeoutMs, this.progressPoke());
    }
    const entry = this.cache.store.get(pk);
    if (entry) return entry.obj;
    if (opts.ignoreNotFound) return undefined;
    throw new KeyNotFoundError(pk, this.cache.resourceVersion);
  }

  /** The cached object of a key if the cache has it at revision `rev`. */
  private cachedAt(pk: string, rev: number): T | undefined {
    const entry = this.cache.store.get(pk);
    return entry !== undefined && entry.rv === rev ? entry.obj : undefined;
  }

  async getList(key: string, opts: ListOptions = {}): Promise<ListResult<T>> {
    const recursive = opts.recursive ?? false;
    const pred = (opts.predicate ?? everything) as SelectionPredicate<T>;
    const rv = opts.resourceVersion ?? '';
    const match = opts.resourceVersionMatch ?? '';
    const limit = pred.limit ?? 0;
    const delegate =
      !this.ready ||
      (recursive && Boolean(pred.continue)) ||
      match === 'Exact' ||
      (match !== '' && match !== 'NotOlderThan') ||
      (match === '' && rv !== '' && rv !== '0' && limit > 0) ||
      (rv === '' && !this.cfg.consistentReadsFromCache);
    if (delegate) return this.storage.getList(key, opts);
    const prefix = prepareKey(this.cfg.resourcePrefix, key, recursive);
    if (rv === '') {
      if (!(await this.catchUpForConsistentRead())) return this.storage.getList(key, opts);
    } else {
      await this.cache.waitUntilFresh(this.versioner.parseResourceVersion(rv), this.cfg.freshnessTimeoutMs, this.progressPoke());
    }
    // kube ignores limit for RV=0 (the whole list comes from memory anyway).
    return this.listFromCache(prefix, recursive, pred, rv === '0' ? 0 : limit);
  }

  async watch(key: string, opts: WatchOptions = {}): Promise<Watcher<T>> {
    const recursive = opts.recursive ?? false;
    const prefix = prepareKey(this.cfg.resourcePrefix, key, recursive);
    const pred = (opts.predicate ?? everything) as SelectionPredicate<T>;
    const watchRV = this.versioner.parseResourceVersion(opts.resourceVersion);
    if (opts.signal?.aborted) {
      const q = new WatchQueue<T>();
      q.end();
      return q;
    }
    if (!this.ready) {
      // Wait a little for a (re)list in progress, then ask the client to come back later.
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), this.cfg.freshnessTimeoutMs).unref());
      if ((await Promise.race([this.waitReady(), timeout])) === 'timeout') {
        throw new TooManyRequestsError('storage is (re)initializing', this.retryAfterSeconds());
      }
    }
    const initialEvents = opts.sendInitialEvents ?? watchRV === 0;
    if (opts.sendInitialEvents === true && !opts.resourceVersion) {
      // A consistent watch-list: the initial state must include every write before the request.
      const current = await this.storage.getCurrentResourceVersion();
      const poke = this.progressPoke();
      // Without trustworthy progress reports the cache may not prove freshness in time: it then
      // starts from the state it has (events after it still follow).
      await this.cache.waitUntilFresh(current, this.cfg.freshnessTimeoutMs, poke).catch(() => undefined);
    } else if (opts.sendInitialEvents === true && watchRV > 0) {
      await this.cache.waitUntilFresh(watchRV, this.cfg.freshnessTimeoutMs, this.progressPoke());
    } else if (watchRV > this.cache.resourceVersion) {
      await this.cache.waitUntilFresh(watchRV, this.cfg.freshnessTimeoutMs, this.progressPoke());
    }
    // History the backend compacted cannot be replayed.
    this.cache.compactTo(this.storage.compactRevision());
    const end = recursive ? prefixRangeEnd(prefix) : `${prefix}\0`;
    const deadline = opts.timeoutMs !== undefined ? Date.now() + opts.timeoutMs : undefined;
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => w.queue.stop();
    const startRV = initialEvents || watchRV === 0 ? this.cache.resourceVersion : watchRV;
    const w: CacheWatcher<T> = new CacheWatcher<T>(prefix, end, pred, startRV, {
      capacity: this.cfg.watcherCapacity,
      bookmarkFrequencyMs: this.cfg.bookmarkFrequencyMs,
      deadline,
      progressNotify: opts.progressNotify ?? false,
      watchList: opts.sendInitialEvents === true && (pred.allowWatchBookmarks ?? false),
      onClose: () => {
        this.watchers.delete(w);
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      },
    });
    if (initialEvents) {
      w.sendInitial(Array.from(this.cache.store.range(prefix, end), ([, e]) => e.obj));
      if (opts.sendInitialEvents === true && pred.allowWatchBookmarks) w.bookmark(this.cache.resourceVersion, true);
    } else if (watchRV > 0) {
      const events = this.cache.eventsAfter(watchRV);
      if (!events) {
        w.queue.fail(new ExpiredError(`too old resource version: ${watchRV} (${this.cache.historyFloor})`).toStatus());
        return w.queue;
      }
      w.sentRV = watchRV;
      w.sendHistory(events);
    }
    this.watchers.add(w);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.timeoutMs !== undefined) timer = setTimeout(() => w.queue.end(), opts.timeoutMs);
    return w.queue;
  }

  private listFromCache(prefix: string, recursive: boolean, pred: SelectionPredicate<T>, limit: number): ListResult<T> {
    const rv = this.cache.resourceVersion;
    const items: T[] = [];
    if (!recursive) {
      const e = this.cache.store.get(prefix);
      if (e && predicateMatches(pred, e.obj)) items.push(e.obj);
      return { items, resourceVersion: String(rv) };
    }
    const end = prefixRangeEnd(prefix);
    const empty = predicateEmpty(pred as SelectionPredicate<never>);
    let lastKey = '';
    let hasMore = false;
    for (const [k, e] of this.cache.store.range(prefix, end)) {
      if (limit > 0 && items.length >= limit) {
        hasMore = true;
        break;
      }
      lastKey = k;
      if (empty || predicateMatches(pred, e.obj)) items.push(e.obj);
    }
    const result: ListResult<T> = { items, resourceVersion: String(rv) };
    if (hasMore) {
      // The token names the next key and this revision; the backend serves the following pages
      // (it keeps history until compaction). Tokens hold only the key after the list prefix.
      result.continue = encodeContinue(`${lastKey}\0`, prefix, rv);
      if (empty) result.remainingItemCount = this.cache.store.count(`${lastKey}\0`, end);
    }
    return result;
  }

  /** Reflector: list, then watch from the list's revision; on failure terminate watchers and relist. */
  private async run(): Promise<void> {
    let backoff = 100;
    while (!this.stopped) {
      try {
        const list = await this.storage.getList(this.cfg.resourcePrefix, { recursive: true, resourceVersion: '' });
        const rv = Number(list.resourceVersion);
        const items = list.items.map((obj) => ({ key: this.cfg.keyOf(obj) ?? '', obj }));
        const upstream = await this.storage.watch(this.cfg.resourcePrefix, { recursive: true, resourceVersion: list.resourceVersion, progressNotify: true });
        this.upstream = upstream;
        this.cache.replace(items, rv);
        this.setReady(true);
        backoff = 100;
        for (;;) {
          const ev = await upstream.receive();
          if (!ev) break;
          if (ev.type === 'ERROR') throw new Error(`upstream watch failed: ${ev.object.message}`);
          this.onUpstreamEvent(ev.type, ev.object);
        }
      } catch (e) {
        if (this.stopped) return;
        this.lastError = e;
      }
      this.upstream?.stop();
      this.setReady(false);
      this.terminateWatchers();
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, backoff).unref());
      backoff = Math.min(backoff * 2, 1000);
    }
  }

  /** The last error that broke the upstream list/watch (for diagnostics). */
  lastError: unknown;

  private onUpstreamEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK', obj: T): void {
    const rv = Number(obj.metadata?.resourceVersion ?? 0);
    if (type === 'BOOKMARK') {
      this.cache.setResourceVersion(rv);
      for (const w of this.watchers) if (w.progressNotify) w.bookmark(rv);
      return;
    }
    const key = this.cfg.keyOf(obj);
    if (key === undefined) return;
    const ev = this.cache.apply(type, key, obj, rv);
    if (!ev) return;
    for (const w of this.watchers) w.dispatch(ev);
  }

  private dispatchBookmarks(): void {
    const now = Date.now();
    const rv = this.cache.resourceVersion;
    for (const w of this.watchers) {
      if (w.nextBookmarkAt === 0 || w.nextBookmarkAt > now) continue;
      w.bookmark(rv);
      w.nextBookmarkAt = w.nextBookmarkAfter(now);
    }
  }

  private setReady(ready: boolean): void {
    if (ready === this.ready) return;
    this.ready = ready;
    if (!ready) {
      this.notReadySince = Date.now();
      return;
    }
    const ws = this.readyWaiters;
    this.readyWaiters = [];
    for (const r of ws) r();
  }

  /** kube: Retry-After = clamp(e^(0.06 × seconds not ready), 1, 30). */
  private retryAfterSeconds(): number {
    const down = (Date.now() - this.notReadySince) / 1000;
    return Math.min(30, Math.max(1, Math.round(Math.exp(0.06 * down))));
  }

  private terminateWatchers(): void {
    for (const w of [...this.watchers]) w.queue.end();
    this.watchers.clear();
  }
}
