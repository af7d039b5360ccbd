// The storage layer's public surface (k8s.io/apiserver/pkg/storage in TypeScript).
export * from './interfaces.js';
export * from './errors.js';
export type { ObjectMeta, Status, StoredObject } from '../apimachinery/object.js';
export { apiObjectVersioner, type Versioner } from './versioner.js';
export { encodeContinue, decodeContinue } from './continue.js';
export {
  everything,
  defaultClusterScopedAttr,
  defaultNamespaceScopedAttr,
  predicateEmpty,
  predicateMatches,
  predicateMatchesSingle,
  type Attrs,
  type AttrFunc,
  type SelectionPredicate,
} from './selectionPredicate.js';
export { identityTransformer, type TransformContext, type ValueTransformer } from './transformer.js';
export { CorruptDataError } from './kvstore/codec.js';
export { serializeOnce, encodeWatchEventJSON } from './cacher/cachingObject.js';
export { complete, newStorageFactory, StorageFactory, type BackendConfig, type CompletedStorageConfig, type ResourceStorageOptions, type StorageConfig } from './factory.js';
