import type { ValueTransformer } from '../transformer.js';
import type { RecordingKV } from './recorder.js';
import type { PodStore, PrefixTransformer } from './utils.js';

/**
 * What a backend hands the conformance suite: a store for `/pods` plus the hooks the Go suite
 * takes as parameters (Compaction, IncreaseRVFunc, KeyValidation, transformer overrides,
 * the KV recorder).
 */
export interface StoreUnderTest {
  store: PodStore;
  /** The backend key prefix, e.g. `/registry/`; physical keys are pathPrefix + key without its leading '/'. */
  pathPrefix: string;
  /** Compacts the backend at rv and waits until the store has observed it. */
  compact(rv: string): Promise<void>;
  /** Bumps the global revision with a write outside `/pods`; returns the new revision. */
  increaseRV(): Promise<number>;
  /** Reads the raw stored value of a REST key and checks the storage invariants (no resourceVersion, no selfLink). */
  keyValidation(key: string): Promise<void>;
  /** UpdateTransformer: replaces the store's transformer with modify(current); returns the revert. */
  updateTransformer(modify: (t: ValueTransformer) => ValueTransformer): () => void;
  /** UpdatePrefixTransformer: modify receives a copy of the installed PrefixTransformer. */
  updatePrefixTransformer(modify: (t: PrefixTransformer) => ValueTransformer): () => void;
  /** The installed prefix transformer (reads are counted for CallsValidation). */
  prefixTransformer: PrefixTransformer;
  /** A watch cache serves consistent lists itself (false: they go to the backend). */
  consistentReadsFromCache?: boolean;
  /** The recording KV under the store (reads and list requests). */
  recorder: RecordingKV;
  close(): Promise<void>;
}

export interface NewStoreOptions {
  /** kube's AllowUnsafeMalformedObjectDeletion feature. */
  corruptObjectHandling?: boolean;
  /** Store pods without namespaces (cluster-scoped key function for the cache). */
  clusterScoped?: boolean;
  /** The test reads history from the first revisions (a watch from RV=1): the backend must not have been compacted. */
  uncompactedHistory?: boolean;
  /** Field indexes for the watch cache (spec.nodeName). */
  indexedFields?: string[];
}

export interface BackendUnderTest {
  name: string;
  /** The store is a watch cache in front of a backend. */
  cached: boolean;
  /** The backend has consistent reads from cache / supports RequestWatchProgress. */
  newStore(opts?: NewStoreOptions): Promise<StoreUnderTest>;
  /** Tests that cannot apply to this backend, with the one-line reason. */
  notApplicable?: Readonly<Record<string, string>>;
}
