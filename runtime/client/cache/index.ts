// client-go's tools/cache: reflector, DeltaFIFO, indexer, shared informers and their factory.
export { type BackoffOptions, defaultBackoff, ExponentialBackoff } from './backoff.js';
export { type Clock, realClock } from './clock.js';
export { type Delta, DeltaFIFO, type DeltaFIFOOptions, type Deltas, type DeltaType, type ReflectorStore } from './delta-fifo.js';
export { errorFromWatchStatus, isConnectionRefused, isExpiredError, isProbableEOF, isTooLargeResourceVersionError, isTooManyRequests, isWatchErrorRetriable, VeryShortWatchError } from './errors.js';
export { informerKey, newSharedInformerFactoryCore, type SharedInformerFactoryCoreOptions } from './factory.js';
export { deepFreeze } from './freeze.js';
export { type KnownObjects, newIndexer, StoreIndexer } from './indexer.js';
export { type CachedMeta, deletionHandlingMetaNamespaceKeyFunc, KeyError, type KeyFunc, metaNamespaceIndexFunc, metaNamespaceKeyFunc, metaOf, NAMESPACE_INDEX, splitMetaNamespaceKey } from './keys.js';
export { type Logger, silentLogger, stderrLogger } from './log.js';
export { DEFAULT_PAGE_SIZE, listInPages, type PagedList } from './pager.js';
export { defaultWatchErrorHandler, ListError, Reflector, type ReflectorOptions, type ReflectorTuning } from './reflector.js';
export { MINIMUM_RESYNC_PERIOD_MS, newSharedIndexInformer, SharedIndexInformerImpl, type SharedIndexInformerOptions } from './shared-informer.js';
export { SYNCED_POLL_PERIOD_MS, waitForCacheSync } from './wait.js';
export { INITIAL_EVENTS_ANNOTATION } from './watch-handler.js';
