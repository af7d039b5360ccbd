import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../../../apis/meta/v1/types.js';
import { deepEqualJSON } from '../serializer/jsonvalue.js';
import { quote } from '../util/strconv.js';
import { childPath, GoValue, type FieldError } from './field.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel, nameValidator, type NameValidation, type ValidateNameFunc } from './names.js';

/**
 * ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation
 * (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate): pure
 * functions over the metadata, returning field errors in kube's order with
 * kube's messages. They never mutate their arguments.
 */

export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
/** Total bytes of annotation keys and values (TotalAnnotationSizeLimitB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
export const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

export interface ObjectMetaValidationOptions {
  /** Namespaced kinds require metadata.namespace (a DNS label); cluster-scoped kinds forbid it. */
  readonly namespaced: boolean;
  /** The rule metadata.name (and generateName, as a prefix) must follow. */
  readonly nameValidation: NameValidation | ValidateNameFunc;
}

/**
 * Validates metadata on create, after name generation: generateName as a
 * prefix, name required (`name or generateName is required`) and valid,
 * namespace by scope, generation ≥ 0, labels, annotations (qualified keys,
 * ≤ 256 KiB in total), ownerReferences, finalizers and managedFields.
 */
export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaValidationOptions, path = 'metadata'): FieldError[] {
  const nameFn = typeof opts.nameValidation === 'function' ? opts.nameValidation : nameValidator(opts.nameValidation);
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) errs.push(invalid(childPath(path, 'generateName'), generateName, msg));
  }
  const name = meta.name ?? '';
  if (name === '') errs.push({ type: 'FieldValueRequired', field: childPath(path, 'name'), detail: 'name or generateName is required' });
  else for (const msg of nameFn(name, false)) errs.push(invalid(childPath(path, 'name'), name, msg));
  return errs.concat(validateCommon(meta, opts.namespaced, path));
}

function validateCommon(meta: ObjectMeta, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = meta.namespace ?? '';
  const nsPath = childPath(path, 'namespace');
  if (namespaced) {
    if (namespace === '') errs.push({ type: 'FieldValueRequired', field: nsPath, detail: '' });
    else for (const msg of nameIsDNSLabel(namespace, false)) errs.push(invalid(nsPath, namespace, msg));
  } else if (namespace !== '') {
    errs.push({ type: 'FieldValueForbidden', field: nsPath, detail: 'not allowed on this type' });
  }
  if ((meta.generation ?? 0) < 0) errs.push(invalid(childPath(path, 'generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, childPath(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, childPath(path, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, childPath(path, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, childPath(path, 'finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, childPath(path, 'managedFields')));
  return errs;
}

/**
 * Validates metadata on update against the stored metadata: no new finalizers
 * while deleting, resourceVersion set, generation not decremented, name,
 * namespace, uid, creationTimestamp, deletionTimestamp and
 * deletionGracePeriodSeconds unchanged (`field is immutable`), then labels,
 * annotations, ownerReferences and managedFields as on create.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    errs.push(...validateNoNewFinalizers(newMeta.finalizers ?? [], oldMeta.finalizers ?? [], childPath(path, 'finalizers')));
  }
  if ((newMeta.resourceVersion ?? '') === '') errs.push(invalid(childPath(path, 'resourceVersion'), '', 'must be specified for an update'));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) errs.push(invalid(childPath(path, 'generation'), newMeta.generation, 'must not be decremented'));
  const immutable: Array<[keyof ObjectMeta, unknown]> = [
    ['name', ''],
    ['namespace', ''],
    ['uid', ''],
    ['creationTimestamp', null],
    ['deletionTimestamp', null],
    ['deletionGracePeriodSeconds', null],
  ];
  for (const [field, zero] of immutable) {
    const n = newMeta[field] ?? zero;
    if (!deepEqualJSON(n, oldMeta[field] ?? zero)) errs.push(invalid(childPath(path, field), n, FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...validateLabels(newMeta.labels, childPath(path, 'labels')));
  errs.push(...validateAnnotations(newMeta.annotations, childPath(path, 'annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, childPath(path, 'ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, childPath(path, 'managedFields')));
  return errs;
}

/** ValidateNoNewFinalizers: finalizers may only be removed once deletion has started. */
export function validateNoNewFinalizers(newFinalizers: readonly string[], oldFinalizers: readonly string[], path: string): FieldError[] {
  const old = new Set(oldFinalizers);
  const extra = [...new Set(newFinalizers.filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  const goList = `[]string{${extra.map(quote).join(', ')}}`;
  return [{ type: 'FieldValueForbidden', field: path, detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}` }];
}

/** ValidateLabels: keys are qualified names, values valid label values. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(path, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names (case-insensitively); keys and values total ≤ 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
    size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(String(v), 'utf8');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push({ type: 'FieldValueTooLong', field: path, detail: `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_B} bytes` });
  return errs;
}

/**
 * ValidateOwnerReferences (validateOwnerReference for each): the version of apiVersion
 * (schema.FromAPIVersionAndKind: none when it does not parse), kind, name and uid must be set, an
 * Event may not own, and at most one reference is the controller. Paths have no index, as kube's.
 */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const gv = parseGroupVersion(ref.apiVersion ?? '');
    if (gv.version === '') errs.push(invalid(childPath(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if ((ref.kind ?? '') === '') errs.push(invalid(childPath(path, 'kind'), ref.kind ?? '', 'kind must not be empty'));
    if ((ref.name ?? '') === '') errs.push(invalid(childPath(path, 'name'), ref.name ?? '', 'name must not be empty'));
    if ((ref.uid ?? '') === '') errs.push(invalid(childPath(path, 'uid'), ref.uid ?? '', 'uid must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') errs.push(invalid(path, new GoValue(goOwnerReference(ref)), '/v1, Kind=Event is disallowed from being an owner'));
    if (ref.controller === true) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController === '') firstController = current;
      else {
        const all = new GoValue(`[]v1.OwnerReference{${(refs ?? []).map(goOwnerReference).join(', ')}}`);
        errs.push(invalid(path, all, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      }
    }
  }
  return errs;
}

/**
 * schema.ParseGroupVersion, with a string it refuses (more than one `/`) as the empty
 * GroupVersion FromAPIVersionAndKind falls back to.
 */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return { group: '', version: '' };
}

/**
 * A v1.OwnerReference as %#v prints it. Its *bool fields print as Go prints a pointer: nil, or an
 * address (kube's differs from run to run; this one stands in for it).
 */
function goOwnerReference(ref: OwnerReference): string {
  const ptr = (b: boolean | undefined): string => (b === undefined || b === null ? '(*bool)(nil)' : `(*bool)(0xc000${b ? '0a8f18' : '0a8f19'})`);
  return `v1.OwnerReference{APIVersion:${quote(ref.apiVersion ?? '')}, Kind:${quote(ref.kind ?? '')}, Name:${quote(ref.name ?? '')}, UID:${quote(ref.uid ?? '')}, Controller:${ptr(ref.controller)}, BlockOwnerDeletion:${ptr(ref.blockOwnerDeletion)}}`;
}

/** ValidateFinalizers: qualified names; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) for (const msg of isQualifiedName(f)) errs.push(invalid(path, f, msg));
  if (finalizers?.includes(FINALIZER_ORPHAN_DEPENDENTS) && finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errs.push(invalid(path, new GoValue(`[]string{${finalizers.map(quote).join(', ')}}`), `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`));
  }
  return errs;
}

/** ValidateManagedFields: operation Apply|Update, fieldsType FieldsV1, manager and subresource well-formed. */
export function validateManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const p = childPath(path, i);
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') errs.push(invalid(childPath(p, 'operation'), entry.operation ?? '', 'must be `Apply` or `Update`'));
    if ((entry.fieldsType ?? '') !== '' && entry.fieldsType !== 'FieldsV1') errs.push(invalid(childPath(p, 'fieldsType'), entry.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(entry.manager ?? '', childPath(p, 'manager')));
    if (Buffer.byteLength(entry.subresource ?? '', 'utf8') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push({ type: 'FieldValueTooLong', field: childPath(p, 'subresource'), detail: `may not be more than ${MAX_SUBRESOURCE_NAME_LENGTH} bytes` });
    }
  });
  return errs;
}

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) {
    errs.push({ type: 'FieldValueTooLong', field: path, detail: `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  let offset = 0;
  for (const ch of manager) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      const code = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(invalid(path, manager, `invalid character ${code} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

function invalid(field: string, badValue: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue, detail };
}
