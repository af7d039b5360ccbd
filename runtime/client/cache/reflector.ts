import type { ListWatch, WatchErrorHandler } from '../cache.js';
import type { DeepReadonly, ListOptions } from '../types.js';
import { type BackoffOptions, ExponentialBackoff } from './backoff.js';
import { type Clock, realClock } from './clock.js';
import type { ReflectorStore } from './delta-fifo.js';
import { isExpiredError, isProbableEOF, isTooLargeResourceVersionError, isTooManyRequests, isWatchErrorRetriable } from './errors.js';
import { deepFreeze } from './freeze.js';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys.js';
import { type Logger, stderrLogger } from './log.js';
import { DEFAULT_PAGE_SIZE, listInPages } from './pager.js';
import { handleWatch, type OpenWatch, openWatch } from './watch-handler.js';

/** Knobs with client-go's defaults; tests shrink them and inject time. */
export interface ReflectorTuning {
  readonly clock?: Clock;
  /** Source of randomness for jitter and watch timeouts. */
  readonly random?: () => number;
  readonly backoff?: BackoffOptions;
  /** Each watch asks the server to end it after this times a random factor in [1, 2); 5 min by default. */
  readonly minWatchTimeoutMs?: number;
  /** Page size of lists (WatchListPageSize); 0 picks client-go's choice (500, or none when listing at a known resourceVersion). */
  readonly pageSize?: number;
  /** Start with a watch-list (sendInitialEvents) instead of a list; falls back to list when it fails. Off by default. */
  readonly useWatchList?: boolean;
  readonly logger?: Logger;
}

export interface ReflectorOptions<T> extends ReflectorTuning {
  /** For logs and the watch error handler: usually the resource (`apiservices.v1.apiregistration.k8s.io`). */
  readonly name: string;
  readonly listWatch: ListWatch<T>;
  readonly store: ReflectorStore<T>;
  /** How often to consult shouldResync; 0 never resyncs. */
  readonly resyncPeriodMs?: number;
  /** Asked at each resync tick; the store is resynced when it returns true (always when absent). */
  readonly shouldResync?: () => boolean;
  readonly watchErrorHandler?: WatchErrorHandler;
}

/** Logs the failure: expiries are routine (informational), everything else an error (DefaultWatchErrorHandler). */
export function defaultWatchErrorHandler(logger: Logger): WatchErrorHandler {
  return (name, err) => {
    if (isExpiredError(err)) logger.info('watch closed', { reflector: name, err });
    else logger.error('failed to list or watch', { reflector: name, err });
  };
}

/**
 * client-go's Reflector: keeps a store equal to the server's state of one
 * resource. It lists (resourceVersion "0" first, served from the watch cache),
 * then watches from the list's resourceVersion with bookmarks, resuming from
 * the last resourceVersion seen after a clean close or a dropped connection,
 * and relisting when that resourceVersion has expired. Every failure goes to
 * the watch error handler and is retried after an exponential backoff; the
 * loop ends only when its signal aborts.
 */
export class Reflector<T> {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: ExponentialBackoff;
  private readonly logger: Logger;
  private readonly errorHandler: WatchErrorHandler;
  private lastSyncRV = '';
  private lastSyncRVUnavailable = false;
  private paginatedResult = false;

  constructor(private readonly opts: ReflectorOptions<T>) {
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.backoff = new ExponentialBackoff(opts.backoff ?? {}, this.clock, this.random);
    this.logger = opts.logger ?? stderrLogger;
    this.errorHandler = opts.watchErrorHandler ?? defaultWatchErrorHandler(this.logger);
  }

  get name(): string {
    return this.opts.name;
  }

  /** The resourceVersion of the last list or watch event applied to the store. */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** Lists and watches until `signal` aborts, backing off between attempts (wait.BackoffUntil, sliding). */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (err) {
        if (!signal.aborted) this.errorHandler(this.opts.name, err);
      }
      if (signal.aborted) break;
      await this.clock.sleep(this.backoff.next(), signal);
    }
  }

  /**
   * One list (or watch-list) followed by watches for as long as they can be
   * resumed. Resolves when a relist is needed or `signal` aborted; throws
   * when the list or a watch request failed.
   */
  async listAndWatch(signal: AbortSignal): Promise<void> {
    let w: OpenWatch<T> | undefined;
    if (this.opts.useWatchList === true) {
      try {
        w = await this.watchList(signal);
      } catch (err) {
        if (signal.aborted) return;
        this.logger.error('watch-list failed, falling back to list and watch', { reflector: this.opts.name, err });
      }
    }
    if (signal.aborted) return;
    if (w === undefined) await this.list(signal);
    if (signal.aborted) {
      w?.stop();
      return;
    }
    const resync = new AbortController();
    const stopResync = (): void => resync.abort();
    signal.addEventListener('abort', stopResync, { once: true });
    const resyncLoop = this.resyncLoop(resync.signal);
    try {
      await this.watch(w, signal);
    } finally {
      signal.removeEventListener('abort', stopResync);
      resync.abort();
      await resyncLoop;
    }
  }

  /** The resourceVersion to list at: "0" before the first sync, "" after an expiry, else the last one seen. */
  private relistResourceVersion(): string {
    if (this.lastSyncRVUnavailable) return '';
    return this.lastSyncRV === '' ? '0' : this.lastSyncRV;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const resourceVersion = this.relistResourceVersion();
    const pageSize = this.pageSizeFor(resourceVersion);
    const listFn = (o: ListOptions) => untilAborted(this.opts.listWatch.list({ ...o, signal }), signal);
    let result;
    try {
      result = await listInPages(listFn, { resourceVersion }, pageSize);
    } catch (err) {
      if (signal.aborted) return;
      if (!isExpiredError(err) && !isTooLargeResourceVersionError(err)) throw new ListError(this.opts.name, err);
      // The resourceVersion asked for is gone or not there yet: a consistent read always makes progress.
      this.lastSyncRVUnavailable = true;
      try {
        result = await listInPages(listFn, { resourceVersion: this.relistResourceVersion() }, pageSize);
      } catch (err2) {
        if (signal.aborted) return;
        throw new ListError(this.opts.name, err2);
      }
    }
    if (signal.aborted) return;
    // A paginated answer to resourceVersion "0" means no watch cache: keep paginating later relists.
    if (resourceVersion === '0' && result.paginated) this.paginatedResult = true;
    this.lastSyncRVUnavailable = false;
    this.opts.store.replace(
      result.items.map((o) => deepFreeze(o)),
      result.resourceVersion,
    );
    this.lastSyncRV = result.resourceVersion;
  }

  private pageSizeFor(resourceVersion: string): number {
    if (this.opts.pageSize !== undefined && this.opts.pageSize > 0) return this.opts.pageSize;
    if (this.paginatedResult) return DEFAULT_PAGE_SIZE;
    // A list at a known resourceVersion without a limit can be served from the watch cache.
    if (resourceVersion !== '' && resourceVersion !== '0') return 0;
    return DEFAULT_PAGE_SIZE;
  }

  private watchTimeoutSeconds(): number {
    const min = (this.opts.minWatchTimeoutMs ?? 300_000) / 1000;
    return Math.max(1, Math.floor(min * (this.random() + 1)));
  }

  /**
   * Watches from the last resourceVersion (reusing `w` when a watch-list left
   * one open) until a relist is needed or `signal` aborts.
   */
  private async watch(initial: OpenWatch<T> | undefined, signal: AbortSignal): Promise<void> {
    let w = initial;
    while (!signal.aborted) {
      const start = this.clock.now();
      if (w === undefined) {
        try {
          w = openWatch(
            await untilAborted(
              this.opts.listWatch.watch({
                resourceVersion: this.lastSyncRV,
                timeoutSeconds: this.watchTimeoutSeconds(),
                allowWatchBookmarks: true,
                signal,
              }),
              signal,
              (late) => late.stop(),
            ),
          );
        } catch (err) {
          if (signal.aborted) return;
          if (!isWatchErrorRetriable(err)) throw err;
          // Refused or throttled: the server is struggling, and what we know is still valid.
          this.logger.info('watch failed, backing off', { reflector: this.opts.name, err });
          await this.clock.sleep(this.backoff.next(), signal);
          continue;
        }
      }
      const current = w;
      w = undefined;
      try {
        const result = await handleWatch({
          reflectorName: this.opts.name,
          watch: current,
          store: this.opts.store,
          clock: this.clock,
          start,
          signal,
          setLastSyncResourceVersion: (rv) => {
            this.lastSyncRV = rv;
          },
          logger: this.logger,
          exitOnInitialEventsEnd: false,
        });
        if (result.stopped) return;
      } catch (err) {
        if (signal.aborted) return;
        if (isProbableEOF(err)) continue;
        if (isTooManyRequests(err)) {
          await this.clock.sleep(this.backoff.next(), signal);
          continue;
        }
        // Expired (the resourceVersion was compacted away) or anything else: report, then relist.
        this.errorHandler(this.opts.name, err);
        return;
      }
    }
  }

  /**
   * Streams the initial state as a watch with sendInitialEvents (KEP-3157),
   * collecting it until the initial-events-end bookmark, then replaces the
   * store with it and returns the watch, still open, to go on with.
   */
  private async watchList(signal: AbortSignal): Promise<OpenWatch<T> | undefined> {
    for (;;) {
      if (signal.aborted) return undefined;
      const collected = new Map<string, DeepReadonly<T>>();
      let resourceVersion = '';
      const start = this.clock.now();
      const temporary = collectingStore(collected);
      let w: OpenWatch<T>;
      try {
        w = openWatch(
          await untilAborted(
            this.opts.listWatch.watch({
              resourceVersion: this.lastSyncRVUnavailable ? '' : this.lastSyncRV,
              resourceVersionMatch: 'NotOlderThan',
              sendInitialEvents: true,
              allowWatchBookmarks: true,
              timeoutSeconds: this.watchTimeoutSeconds(),
              signal,
            }),
            signal,
            (late) => late.stop(),
          ),
        );
        const result = await handleWatch({
          reflectorName: this.opts.name,
          watch: w,
          store: temporary,
          clock: this.clock,
          start,
          signal,
          setLastSyncResourceVersion: (rv) => {
            resourceVersion = rv;
          },
          logger: this.logger,
          exitOnInitialEventsEnd: true,
        });
        if (result.stopped) return undefined;
        if (!result.initialEventsEnd) {
          // Closed before the initial state was complete: start over, but not in a tight loop.
          await this.clock.sleep(this.backoff.next(), signal);
          continue;
        }
      } catch (err) {
        if (signal.aborted) return undefined;
        if (isWatchErrorRetriable(err)) {
          await this.clock.sleep(this.backoff.next(), signal);
          continue;
        }
        if (isExpiredError(err) || isTooLargeResourceVersionError(err)) {
          this.lastSyncRVUnavailable = true;
          continue;
        }
        throw err;
      }
      this.lastSyncRVUnavailable = false;
      this.opts.store.replace([...collected.values()], resourceVersion);
      this.lastSyncRV = resourceVersion;
      return w;
    }
  }

  private async resyncLoop(signal: AbortSignal): Promise<void> {
    const period = this.opts.resyncPeriodMs ?? 0;
    if (period <= 0) return;
    for (;;) {
      await this.clock.sleep(period, signal);
      if (signal.aborted) return;
      if (this.opts.shouldResync === undefined || this.opts.shouldResync()) this.opts.store.resync();
    }
  }
}

/** Thrown in place of a request's answer once `signal` aborted. */
class StopRequested extends Error {
  override readonly name = 'StopRequested';
}

/**
 * The request's outcome, or a StopRequested rejection as soon as `signal`
 * aborts: a ListWatch that ignores its signal cannot hold up a stop. What
 * arrives late is handed to `late` (a watch to stop).
 */
function untilAborted<R>(request: Promise<R>, signal: AbortSignal, late: (r: R) => void = () => {}): Promise<R> {
  if (signal.aborted) {
    request.then(late, () => {});
    return Promise.reject(new StopRequested('stop requested'));
  }
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => reject(new StopRequested('stop requested'));
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(
      (r) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) late(r);
        else resolve(r);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** The state a watch-list streams, keyed as the informer keys it. */
function collectingStore<T>(into: Map<string, DeepReadonly<T>>): ReflectorStore<T> {
  const put = (o: DeepReadonly<T>): void => {
    into.set(deletionHandlingMetaNamespaceKeyFunc(o), o);
  };
  return {
    add: put,
    update: put,
    delete: (o) => {
      into.delete(deletionHandlingMetaNamespaceKeyFunc(o));
    },
    replace: (objs) => {
      into.clear();
      objs.forEach(put);
    },
    resync: () => {},
  };
}

/** A list that failed (with `cause`), as the watch error handler receives it. */
export class ListError extends Error {
  override readonly name = 'ListError';
  constructor(
    reflectorName: string,
    override readonly cause: unknown,
  ) {
    super(`${reflectorName}: failed to list: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
