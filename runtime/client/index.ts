export * from './types.js';
export * from './verbs.js';
export * from './cache.js';
export { ResourceClient, groupVersionPath, resourcePath } from './resource-client.js';
export { ClusterLister, NamespacedLister, NamespaceLister, ListerNotFoundError, metaNamespaceKey } from './lister.js';
// REST client over HTTP(S) and kubeconfig / in-cluster configuration (client-go's rest and clientcmd).
export { HTTPRESTClient, restClientForConfig, RESTConfigError, TransportError, DecodeError, warningLogger, noWarnings } from './rest/index.js';
export type { RESTConfig, RESTClientOptions, TLSClientConfig, Warning, WarningHandler } from './rest/index.js';
export { restClientFromKubeconfig, loadClientConfig, inClusterConfig, isInCluster, KubeconfigError, NotInClusterError } from './kubeconfig/index.js';
export type { ClientConfig, KubeconfigClient, KubeconfigOptions } from './kubeconfig/index.js';
// client-go credential plugins (a kubeconfig user's `exec`), run by the REST client.
export { ExecPluginError, ExecCredentialError } from './exec/index.js';
export type { ExecConfig, ExecEnvVar, ExecInteractiveMode, ExecPluginOptions } from './exec/index.js';
// Informers (client-go's tools/cache): reflector, DeltaFIFO, indexer, shared informers and their factory.
// Clock, Logger and backoff options stay under './cache/index.js' (the REST client has its own).
export {
  newSharedInformerFactoryCore,
  newSharedIndexInformer,
  SharedIndexInformerImpl,
  Reflector,
  DeltaFIFO,
  StoreIndexer,
  newIndexer,
  waitForCacheSync,
  deepFreeze,
  informerKey,
  metaNamespaceKeyFunc,
  deletionHandlingMetaNamespaceKeyFunc,
  metaNamespaceIndexFunc,
  splitMetaNamespaceKey,
  NAMESPACE_INDEX,
  KeyError,
  ListError,
  VeryShortWatchError,
  defaultWatchErrorHandler,
} from './cache/index.js';
export type { SharedInformerFactoryCoreOptions, SharedIndexInformerOptions, ReflectorOptions, ReflectorTuning, ReflectorStore, Delta, Deltas, DeltaType } from './cache/index.js';
// Work queues and the reconcile loop (client-go's util/workqueue). The queue's Clock and FakeClock stay under './workqueue/index.js';
// the fake clientset runtime is './fake/index.js' (it carries the registry's write semantics, so plain clients do not load it).
export {
  Queue,
  DelayingQueue,
  RateLimitingQueue,
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  TokenBucket,
  defaultControllerRateLimiter,
  runController,
} from './workqueue/index.js';
export type {
  WorkQueue,
  GetResult,
  DelayingWorkQueue,
  DelayingQueueOptions,
  RateLimitingWorkQueue,
  RateLimitingQueueOptions,
  RateLimiter,
  ControllerOptions,
  ReconcileResult,
} from './workqueue/index.js';
// What controller code needs beside clients and informers: a mutable copy of a cached object, retries
// of conflicting writes (client-go's util/retry), the error predicates of apimachinery/pkg/api/errors,
// and the label and field selector parsers (`labels.parse('app=web,tier!=db')`, `fields.parseSelector(…)`).
export { deepCopy, type DeepMutable } from './deepcopy.js';
export { retryOnConflict, retryOnError, defaultRetry, defaultRetryBackoff, type RetryBackoff, type RetryOptions } from './retry.js';
export {
  StatusError,
  isStatusError,
  reasonForError,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isBadRequest,
  isUnauthorized,
  isForbidden,
  isMethodNotSupported,
  isTooManyRequests,
  isServiceUnavailable,
  isTimeout,
  isServerTimeout,
  isGone,
  isResourceExpired,
  isNotAcceptable,
  isUnsupportedMediaType,
  isRequestEntityTooLargeError,
  isInternalError,
  isStoreReadError,
  isUnexpectedServerError,
  suggestsClientDelay,
} from '../apimachinery/errors/index.js';
export type { StatusReason, FailureStatus } from '../apimachinery/errors/index.js';
export * as labels from '../apimachinery/labels/index.js';
export * as fields from '../apimachinery/fields/index.js';
// Go's time.ParseDuration (metav1.Duration): what kube's duration flags take, as client commands parse them too.
export { parseGoDuration } from '../apimachinery/goduration.js';
// Server-side apply: the meta/v1 apply configurations generated ones embed, and extract<Kind>'s engine.
export type {
  ObjectMetaApplyConfiguration,
  RootObjectMetaApplyConfiguration,
  OwnerReferenceApplyConfiguration,
  LabelSelectorApplyConfiguration,
  LabelSelectorRequirementApplyConfiguration,
  ConditionApplyConfiguration,
} from './applyconfigurations.js';
export { extractApplyConfiguration, schemaFromJSON, type ExtractTarget } from './extract.js';
// The tools of client-go a controller needs beside its typed clients, each under its own name
// (their Clock, GroupVersionKind and Event types would collide if flattened):
// tools/leaderelection, tools/record, dynamic, discovery (with kubectl's disk cache) and restmapper.
export * as leaderelection from './leaderelection/index.js';
export * as record from './record/index.js';
export * as dynamic from './dynamic/index.js';
export * as discovery from './discovery/index.js';
export * as restmapper from './restmapper/index.js';
