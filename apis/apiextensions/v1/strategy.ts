import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatus, validateCustomResourceDefinitionUpdate } from '../../../runtime/apiextensions/validation/crd.js';
import type { CustomResourceDefinition } from './types.js';

/** Adds the storage version to status.storedVersions unless it is there (storage migrations remove versions, never this strategy). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions?.find((v) => v.storage)?.name;
  if (storage === undefined) return;
  const stored = crd.status?.storedVersions ?? [];
  if (!stored.includes(storage)) crd.status = { ...crd.status, storedVersions: [...stored, storage] };
}

/**
 * The CustomResourceDefinition strategy of apiextensions-apiserver: status belongs to the
 * controllers (reset on create, kept on update) except status.storedVersions, which records
 * every version ever marked storage; writes are validated as kube validates CRDs (structural
 * schemas, CEL rules compiled, one storage version, names, conversion webhooks); updates must
 * carry a resourceVersion.
 */
export const CustomResourceDefinitionStrategy = {
  allowUnconditionalUpdate: false,
  prepareForCreate(obj: CustomResourceDefinition): void {
    // Reset to the Go zero status kube writes: conditions and acceptedNames' plural and kind have
    // no omitempty, so a new CRD answers `conditions: null` and empty accepted names until the
    // controllers fill them (and the first condition's manager then owns the entries, not the list).
    obj.status = { conditions: null, acceptedNames: { plural: '', kind: '' } };
    recordStorageVersion(obj);
  },
  prepareForUpdate(obj: CustomResourceDefinition, old: CustomResourceDefinition): void {
    obj.status = structuredClone(old.status ?? {});
    recordStorageVersion(obj);
  },
  validate: validateCustomResourceDefinition,
  // kube serves CRDs with its default table convertor: Name, and the creation time as an RFC 3339
  // UTC string, which kubectl prints as is, not as an age.
  tablePrinter: { kind: 'default' },
  validateUpdate: validateCustomResourceDefinitionUpdate,
  status: {
    validateUpdate: validateCustomResourceDefinitionStatus,
    // kube's CRD status strategy reports metadata as reset too (besides spec).
    resetFields: ['metadata'],
  },
} satisfies RESTStrategy<CustomResourceDefinition>;
