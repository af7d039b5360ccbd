// Server-side apply's field manager (k8s.io/apimachinery/pkg/util/managedfields): the layers
// that decode, track and encode managedFields around the structured merge.
export type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
export type { FieldManagerOptions } from './fieldmanager.js';
export { defaultMaxUpdateManagers, defaultTrackOnCreateProbability, FieldManager, newDefaultCRDFieldManager, newDefaultFieldManager } from './fieldmanager.js';
export {
  buildManagerIdentifier,
  copyManaged,
  decodeManagedFields,
  encodeManagedFields,
  encodeObjectManagedFields,
  formatManagedTime,
  newEmptyManaged,
  newManaged,
  removeObjectManagedFields,
  sortEncodedManagedFields,
} from './managedfields.js';
export { emptyFields, fieldsToSet, setToFields } from './fields.js';
export { newPathElement, pathElementString } from './pathelement.js';
export { newConflictError, printManager } from './conflict.js';
export { buildLastApplied, getLastApplied, lastAppliedConfigAnnotation, setLastApplied } from './lastapplied.js';
export { newLastAppliedManager } from './lastappliedmanager.js';
export { newLastAppliedUpdater } from './lastappliedupdater.js';
export { newBuildManagerInfoManager } from './buildmanagerinfo.js';
export { newCapManagersManager } from './capmanagers.js';
export { newManagedFieldsUpdater } from './managedfieldsupdater.js';
export { newProbabilisticSkipNonAppliedManager, newSkipNonAppliedManager } from './skipnonapplied.js';
export { newStripMetaManager } from './stripmeta.js';
export { newVersionCheckManager } from './versioncheck.js';
export { managerOrUserAgent, prefixFromUserAgent } from './useragent.js';
// The schema side (types, versions, the structured merge manager, extract, scale).
export type { GVKSchema, TypeConverter } from './typeconverter.js';
export { deducedTypeConverter, newTypeConverter, NoCorrespondingTypeError } from './typeconverter.js';
export type { ObjectConvertor } from './versionconverter.js';
export { newCRDVersionConverter, newVersionConverter, NotRegisteredError } from './versionconverter.js';
export type { ObjectDefaulter } from './structuredmerge.js';
export { newCRDStructuredMergeManager, newStructuredMergeManager } from './structuredmerge.js';
export { extract, extractInto } from './extract.js';
export type { ResourcePathMappings } from './scalehandler.js';
export { ScaleHandler } from './scalehandler.js';
export type { GroupVersion, GroupVersionKind } from './groupversion.js';
export { groupVersionKindString, groupVersionString, objectGroupVersionKind, parseGroupVersion } from './groupversion.js';
export { equalIgnoringValueAtPath, ignoreManagedFieldsTimestamps } from './equality.js';
