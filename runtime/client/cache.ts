import type { Selector } from '../apimachinery/labels/index.js';
import type { DeepReadonly, List, ListOptions, ResourceDescriptor, Watch } from './types.js';

/**
 * Contracts of the informer machinery (client-go's tools/cache) that the
 * generated informers and listers are written against. The implementation is
 * in ./cache/.
 */

/**
 * What a reflector lists and watches: usually a typed client's list and watch.
 * The objects it returns become the informer's (frozen in place): hand over
 * objects nobody else keeps, as a decoded response is.
 */
export interface ListWatch<T> {
  list(options: ListOptions): Promise<List<T>>;
  watch(options: ListOptions): Promise<Watch<T>>;
}

/** Maps an object to the values it is indexed under. */
export type IndexFunc<T> = (obj: DeepReadonly<T>) => readonly string[];

/** The store of an informer, with named indexes (`namespace` by default). Read-only to its users. */
export interface Indexer<T> {
  /** The object under `namespace/name` (`name` when cluster-scoped); undefined when absent. */
  getByKey(key: string): DeepReadonly<T> | undefined;
  list(): readonly DeepReadonly<T>[];
  listKeys(): readonly string[];
  /** Objects whose index function `indexName` yields `indexedValue`; throws when no such index exists. */
  byIndex(indexName: string, indexedValue: string): readonly DeepReadonly<T>[];
  /** Keys of the objects byIndex would return; throws when no such index exists. */
  indexKeys(indexName: string, indexedValue: string): readonly string[];
  /** Every value index `indexName` currently holds; throws when no such index exists. */
  listIndexFuncValues(indexName: string): readonly string[];
  /** Adds indexes, built at once over the objects already stored; throws on a name already taken. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void;
}

/**
 * A deletion the informer did not observe directly: the object vanished while
 * the informer relisted, so `obj` is the last state it knew, possibly stale.
 */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: DeepReadonly<T>,
  ) {
    Object.freeze(this);
  }
}

export function isDeletedFinalStateUnknown<T>(o: DeepReadonly<T> | DeletedFinalStateUnknown<T>): o is DeletedFinalStateUnknown<T> {
  return o instanceof DeletedFinalStateUnknown;
}

/**
 * Callbacks of one consumer. Each handler sees notifications one at a time in
 * order; a handler returning a promise gets the next one after it settles,
 * without holding up other handlers or the informer. Objects are frozen.
 */
export interface ResourceEventHandler<T> {
  /** `isInInitialList`: part of the state the handler started from (initial list, or the cache when added late). */
  onAdd?(obj: DeepReadonly<T>, isInInitialList: boolean): void | Promise<void>;
  /** Also called on resync with the same object twice (same resourceVersion). */
  onUpdate?(oldObj: DeepReadonly<T>, newObj: DeepReadonly<T>): void | Promise<void>;
  onDelete?(obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void | Promise<void>;
}

/** Returned by addEventHandler. */
export interface ResourceEventHandlerRegistration {
  /** True once the informer synced and this handler has processed every initial-list add. */
  hasSynced(): boolean;
  /** Stops notifications to this handler; pending ones are dropped. */
  remove(): void;
}

/** Called when a list or watch fails; the reflector retries after a backoff whatever it does. */
export type WatchErrorHandler = (reflectorName: string, err: unknown) => void;

export interface SharedIndexInformer<T> {
  /**
   * Adds a handler, also after start (it then receives the cache's objects as
   * initial adds). `resyncPeriodMs` below the informer's check period is
   * raised to it once started. Throws once the informer has stopped.
   */
  addEventHandler(handler: ResourceEventHandler<T>, options?: { readonly resyncPeriodMs?: number }): ResourceEventHandlerRegistration;
  getIndexer(): Indexer<T>;
  /** Allowed before and after start; throws once stopped or on a name already taken. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void;
  /** Replaces the default (logging) handler; only before start. */
  setWatchErrorHandler(handler: WatchErrorHandler): void;
  /**
   * Lists, watches and notifies until `signal` aborts; resolves once every loop
   * has ended. A second call does nothing. Factories call it for you.
   */
  run(signal: AbortSignal): Promise<void>;
  /** True once the initial list has been delivered to the store. */
  hasSynced(): boolean;
  isStopped(): boolean;
  /** The resourceVersion of the last list or watch event seen; '' before the first list. */
  lastSyncResourceVersion(): string;
}

export interface SharedInformerFactoryOptions {
  /** Resync period for handlers that give none; 0 disables resync. */
  readonly defaultResyncMs?: number;
  /** Restricts every informer to one namespace. */
  readonly namespace?: string;
  /** Adjusts list and watch options (label or field selectors). */
  readonly tweakListOptions?: (options: ListOptions) => ListOptions;
}

/**
 * The generic half of a shared informer factory: one informer per resource
 * however many consumers ask, started together. Generated factories wrap it
 * with typed accessors.
 */
export interface SharedInformerFactoryCore {
  /** The one informer of `resource`, created on first ask; running at once when the factory has started. */
  informerFor<T>(resource: ResourceDescriptor, listWatch: (namespace: string | undefined) => ListWatch<T>): SharedIndexInformer<T>;
  readonly options: SharedInformerFactoryOptions;
  /**
   * Starts the informers asked for so far; once started, the factory starts
   * every informer asked for later at once (client-go's needs a second Start).
   * A second call does nothing.
   */
  start(): void;
  /**
   * Waits for every started informer to sync (those asked for after an
   * earlier wait included), or for `signal` to abort; the map says which
   * synced (false for those still syncing when it aborted).
   */
  waitForCacheSync(signal?: AbortSignal): Promise<ReadonlyMap<string, boolean>>;
  /** Stops every informer and resolves when all their loops have ended. */
  shutdown(): Promise<void>;
}

export type { Selector };
