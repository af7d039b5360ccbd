// The generic REST store (k8s.io/apiserver/pkg/registry/generic/registry) and its helpers.
export { createResourceStorage, type ResourceStorageOptions } from './factory.js';
export { Store, type StoreOptions, type TTLFunc } from './store.js';
export { ScaleStore, scaleFromObject } from './scale.js';
export { buildPredicate, supportedFieldLabels, selectableFieldName, type SelectableFieldsStrategy } from './predicate.js';
export { storagePrefix, newKeyFuncs, type KeyFuncs } from './keys.js';
export { generateName, cryptoRandomInt, type RandomIntFunc } from './names.js';
export { HubWatcher } from './watch.js';
export { formatTime } from './context.js';
export { checkDeletePreconditions } from './delete.js';
export { resetFieldNames } from './resetfields.js';
