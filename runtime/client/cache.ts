import type { Selector } from '../apimachinery/labels/index.js';
import type { DeepReadonly, List, ListOptions, ResourceDescriptor, Watch } from './types.js';

/**
 * Contracts of the informer machinery (client-go's tools/cache) that the
 * generated informers and listers are written against.
 */

/** What a reflector lists and watches: usually a typed client's list and watch. */
export interface ListWatch<T> {
  list(options: ListOptions): Promise<List<T>>;
  watch(options: ListOptions): Promise<Watch<T>>;
}

/** Maps an object to the keys it is indexed under. */
export type IndexFunc<T> = (obj: DeepReadonly<T>) => readonly string[];

/** The thread-safe store of an informer, with named indexes (`namespace` by default). */
export interface Indexer<T> {
  /** Objects under `namespace/name` keys (`name` for cluster-scoped). */
  getByKey(key: string): DeepReadonly<T> | undefined;
  list(): readonly DeepReadonly<T>[];
  byIndex(indexName: string, indexedValue: string): readonly DeepReadonly<T>[];
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void;
}

/** A deletion the informer did not observe directly (missed while relisting). */
export interface DeletedFinalStateUnknown<T> {
  readonly key: string;
  readonly obj: DeepReadonly<T>;
}

export interface ResourceEventHandler<T> {
  onAdd?(obj: DeepReadonly<T>, isInInitialList: boolean): void;
  onUpdate?(oldObj: DeepReadonly<T>, newObj: DeepReadonly<T>): void;
  onDelete?(obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void;
}

/** Returned by addEventHandler: removes the handler and reports whether it saw the initial list. */
export interface ResourceEventHandlerRegistration {
  hasSynced(): boolean;
  remove(): void;
}

export interface SharedIndexInformer<T> {
  addEventHandler(handler: ResourceEventHandler<T>, options?: { readonly resyncPeriodMs?: number }): ResourceEventHandlerRegistration;
  getIndexer(): Indexer<T>;
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void;
  /** True once the initial list has been delivered to the store. */
  hasSynced(): boolean;
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
  informerFor<T>(resource: ResourceDescriptor, listWatch: (namespace: string | undefined) => ListWatch<T>): SharedIndexInformer<T>;
  readonly options: SharedInformerFactoryOptions;
  start(): void;
  /** Resolves when every started informer has synced; rejects when `signal` aborts first. */
  waitForCacheSync(signal?: AbortSignal): Promise<ReadonlyMap<string, boolean>>;
  shutdown(): Promise<void>;
}

export type { Selector };
