import {
  DeletedFinalStateUnknown,
  type IndexFunc,
  type Indexer,
  type ListWatch,
  type ResourceEventHandler,
  type ResourceEventHandlerRegistration,
  type SharedIndexInformer,
  type WatchErrorHandler,
} from '../cache.js';
import type { DeepReadonly } from '../types.js';
import { type Clock, realClock } from './clock.js';
import { DeltaFIFO, type Deltas } from './delta-fifo.js';
import { newIndexer, type StoreIndexer } from './indexer.js';
import { deletionHandlingMetaNamespaceKeyFunc, metaOf } from './keys.js';
import { type Logger, stderrLogger } from './log.js';
import { determineResyncPeriod, ProcessorListener, SharedProcessor } from './processor.js';
import { Reflector, type ReflectorTuning } from './reflector.js';

/** Resync periods below this are raised to it (minimumResyncPeriod). */
export const MINIMUM_RESYNC_PERIOD_MS = 1000;

export interface SharedIndexInformerOptions<T> {
  readonly listWatch: ListWatch<T>;
  /** For logs and the watch error handler. */
  readonly name: string;
  /** Default resync period of handlers, and how often the informer checks for due resyncs; 0 disables. */
  readonly defaultResyncMs?: number;
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  readonly tuning?: ReflectorTuning;
}

/**
 * client-go's sharedIndexInformer: one reflector feeding a DeltaFIFO, whose
 * deltas are applied to the indexer and fanned out to every handler through
 * its own listener. Objects are frozen before they enter the cache.
 */
export class SharedIndexInformerImpl<T> implements SharedIndexInformer<T> {
  private readonly indexer: StoreIndexer<T>;
  private readonly processor = new SharedProcessor<T>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly defaultHandlerResyncMs: number;
  private resyncCheckPeriodMs: number;
  private watchErrorHandler: WatchErrorHandler | undefined;
  private fifo: DeltaFIFO<T> | undefined;
  private reflector: Reflector<T> | undefined;
  private started = false;
  private stopped = false;
  private syncWaiters: (() => void)[] = [];

  constructor(private readonly opts: SharedIndexInformerOptions<T>) {
    this.indexer = newIndexer<T>(deletionHandlingMetaNamespaceKeyFunc, opts.indexers ?? {});
    this.clock = opts.tuning?.clock ?? realClock;
    this.logger = opts.tuning?.logger ?? stderrLogger;
    this.defaultHandlerResyncMs = opts.defaultResyncMs ?? 0;
    this.resyncCheckPeriodMs = this.defaultHandlerResyncMs;
  }

  get name(): string {
    return this.opts.name;
  }

  addEventHandler(handler: ResourceEventHandler<T>, options: { readonly resyncPeriodMs?: number } = {}): ResourceEventHandlerRegistration {
    if (this.stopped) throw new Error(`${this.opts.name}: handler was not added because the informer has stopped`);
    let resync = options.resyncPeriodMs ?? this.defaultHandlerResyncMs;
    if (resync > 0) {
      resync = Math.max(resync, MINIMUM_RESYNC_PERIOD_MS);
      if (resync < this.resyncCheckPeriodMs || this.resyncCheckPeriodMs === 0) {
        if (this.started) {
          // The reflector's resync timer is already running at its period.
          this.logger.info("resync period raised to the running informer's check period", {
            informer: this.opts.name,
            requestedMs: resync,
            effectiveMs: this.resyncCheckPeriodMs,
          });
          resync = this.resyncCheckPeriodMs;
        } else {
          this.resyncCheckPeriodMs = resync;
          this.processor.resyncCheckPeriodChanged(resync);
        }
      }
    }
    const listener = new ProcessorListener<T>(
      handler,
      resync,
      determineResyncPeriod(resync, this.resyncCheckPeriodMs),
      this.clock.now(),
      () => this.hasSynced(),
      this.logger,
      (l) => this.processor.removeListener(l),
    );
    this.processor.addListener(listener);
    if (this.started) {
      // Joining late: the cache so far is this handler's initial list. Nothing
      // else can be distributed in between (single-threaded, no await here).
      for (const obj of this.indexer.list()) listener.add({ kind: 'add', obj, isInInitialList: true });
    }
    return listener;
  }

  getIndexer(): Indexer<T> {
    return this.indexer;
  }

  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    if (this.stopped) throw new Error(`${this.opts.name}: indexer was not added because the informer has stopped`);
    this.indexer.addIndexers(indexers);
  }

  setWatchErrorHandler(handler: WatchErrorHandler): void {
    if (this.started) throw new Error(`${this.opts.name}: informer has already started`);
    this.watchErrorHandler = handler;
  }

  hasSynced(): boolean {
    return this.fifo?.hasSynced() ?? false;
  }

  isStopped(): boolean {
    return this.stopped;
  }

  hasStarted(): boolean {
    return this.started;
  }

  lastSyncResourceVersion(): string {
    return this.reflector?.lastSyncResourceVersion() ?? '';
  }

  /** Resolves true once synced, false if the informer stops or `signal` aborts first. */
  whenSynced(signal?: AbortSignal): Promise<boolean> {
    if (this.hasSynced()) return Promise.resolve(true);
    if (this.stopped || signal?.aborted === true) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.hasSynced());
      });
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    if (this.started) {
      this.logger.info('the shared informer has started; running it more than once is not allowed', { informer: this.opts.name });
      return;
    }
    this.started = true;
    const fifo = new DeltaFIFO<T>({
      keyFunc: deletionHandlingMetaNamespaceKeyFunc,
      knownObjects: this.indexer,
      onSynced: () => this.notifySynced(),
    });
    this.fifo = fifo;
    this.reflector = new Reflector<T>({
      ...this.opts.tuning,
      name: this.opts.name,
      listWatch: this.opts.listWatch,
      store: fifo,
      resyncPeriodMs: this.resyncCheckPeriodMs,
      shouldResync: () => this.processor.shouldResync(this.clock.now()),
      watchErrorHandler: this.watchErrorHandler,
    });
    this.processor.run();
    const closeFifo = (): void => fifo.close();
    signal.addEventListener('abort', closeFifo, { once: true });
    if (signal.aborted) fifo.close();
    try {
      await Promise.all([this.reflector.run(signal), this.processLoop(fifo)]);
    } finally {
      signal.removeEventListener('abort', closeFifo);
      fifo.close();
      this.stopped = true;
      this.notifySynced();
      await this.processor.stop();
    }
  }

  private async processLoop(fifo: DeltaFIFO<T>): Promise<void> {
    for (;;) {
      try {
        if (!(await fifo.pop((deltas, isInInitialList) => this.handleDeltas(deltas, isInInitialList)))) return;
      } catch (err) {
        this.logger.error('unable to process deltas', { informer: this.opts.name, err });
      }
    }
  }

  /** Applies one object's deltas to the indexer and tells the handlers (processDeltas). */
  private handleDeltas(deltas: Deltas<T>, isInInitialList: boolean): void {
    for (const d of deltas) {
      const obj = d.object;
      if (d.type === 'Deleted') {
        this.indexer.delete(obj);
        this.processor.distribute({ kind: 'delete', obj }, false);
        continue;
      }
      if (obj instanceof DeletedFinalStateUnknown) continue; // only Deleted deltas carry tombstones
      const old = this.indexer.get(obj);
      if (old !== undefined) {
        this.indexer.update(obj);
        // Same resourceVersion: a resync or an unchanged relist, only for handlers that asked to resync.
        const isSync = metaOf(old).resourceVersion === metaOf(obj).resourceVersion;
        this.processor.distribute({ kind: 'update', oldObj: old, newObj: obj }, isSync);
      } else {
        this.indexer.add(obj);
        this.processor.distribute({ kind: 'add', obj: obj as DeepReadonly<T>, isInInitialList }, false);
      }
    }
  }

  private notifySynced(): void {
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w();
  }
}

/** A standalone shared informer; run it with run(signal), or let a factory do it. */
export function newSharedIndexInformer<T>(options: SharedIndexInformerOptions<T>): SharedIndexInformerImpl<T> {
  return new SharedIndexInformerImpl<T>(options);
}
