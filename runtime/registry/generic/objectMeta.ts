import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../apimachinery/labels/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { maskTrailingDash } from '../../apimachinery/validation/names.js';
import type { ObjectMeta } from '../../apimachinery/object.js';
import type { KubeObject } from '../rest.js';

/**
 * ObjectMeta validation (k8s.io/apimachinery/pkg/api/validation/objectmeta.go): the checks every
 * resource gets on create and update, with kube's paths and wording.
 */

export type NameValidator = (name: string) => readonly string[];

const totalAnnotationSizeLimitBytes = 256 * 1024;
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The metadata block of obj, created when absent. */
export function metaOf(obj: KubeObject): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata;
}

export function finalizersOf(obj: KubeObject): readonly string[] {
  const f = obj.metadata?.finalizers;
  return Array.isArray(f) ? (f as string[]) : [];
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * ValidateObjectMetaAccessor: what a new object's metadata must satisfy, after name generation.
 * A generateName is checked whether or not a name was given (kube reports it first), as a
 * prefix: with its trailing `-` masked, the name rule's prefix form for every DNS-style rule.
 */
export function validateObjectMetaCreate(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = stringOf(meta.generateName);
  if (generateName !== '') {
    for (const msg of validateName(maskTrailingDash(generateName))) errs.push({ type: 'FieldValueInvalid', field: 'metadata.generateName', badValue: generateName, detail: msg });
  }
  const name = stringOf(meta.name);
  if (name === '') errs.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
  else for (const msg of validateName(name)) errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', badValue: name, detail: msg });
  return [...errs, ...validateObjectMetaCommon(meta, namespaced)];
}

function validateObjectMetaCommon(meta: ObjectMeta, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ns = stringOf(meta.namespace);
  if (namespaced) {
    if (ns === '') errs.push({ type: 'FieldValueRequired', field: 'metadata.namespace', detail: '' });
    else for (const msg of validateNamespaceName(ns)) errs.push({ type: 'FieldValueInvalid', field: 'metadata.namespace', badValue: ns, detail: msg });
  } else if (ns !== '') {
    errs.push({ type: 'FieldValueForbidden', field: 'metadata.namespace', detail: 'not allowed on this type' });
  }
  errs.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations), ...validateFinalizers(meta.finalizers));
  return errs;
}

/** ValidateObjectMetaAccessorUpdate plus the common checks: what an update may not change. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== undefined) {
    const oldSet = new Set(Array.isArray(old.finalizers) ? (old.finalizers as string[]) : []);
    const added = [...new Set(Array.isArray(meta.finalizers) ? (meta.finalizers as string[]) : [])].filter((f) => !oldSet.has(f)).sort();
    if (added.length > 0) {
      const goList = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push({ type: 'FieldValueForbidden', field: 'metadata.finalizers', detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}` });
    }
  }
  for (const field of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
    if (JSON.stringify(meta[field]) !== JSON.stringify(old[field])) {
      errs.push({ type: 'FieldValueInvalid', field: `metadata.${field}`, badValue: meta[field] ?? null, detail: 'field is immutable' });
    }
  }
  return [...errs, ...validateObjectMetaCommon(meta, namespaced)];
}

function validateNamespaceName(ns: string): string[] {
  const errs: string[] = [];
  if (ns.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(ns)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

function validateLabels(labels: unknown): FieldError[] {
  if (labels === undefined || labels === null || typeof labels !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const msg of isQualifiedName(k)) errs.push({ type: 'FieldValueInvalid', field: 'metadata.labels', badValue: k, detail: msg });
    for (const msg of isValidLabelValue(stringOf(v))) errs.push({ type: 'FieldValueInvalid', field: 'metadata.labels', badValue: v, detail: msg });
  }
  return errs;
}

function validateAnnotations(annotations: unknown): FieldError[] {
  if (annotations === undefined || annotations === null || typeof annotations !== 'object') return [];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push({ type: 'FieldValueInvalid', field: 'metadata.annotations', badValue: k, detail: msg });
    total += Buffer.byteLength(k) + Buffer.byteLength(stringOf(v));
  }
  if (total > totalAnnotationSizeLimitBytes) {
    errs.push({ type: 'FieldValueTooLong', field: 'metadata.annotations', detail: `may not be more than ${totalAnnotationSizeLimitBytes} bytes` });
  }
  return errs;
}

function validateFinalizers(finalizers: unknown): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  for (const f of finalizers) {
    for (const msg of isQualifiedName(stringOf(f))) errs.push({ type: 'FieldValueInvalid', field: 'metadata.finalizers', badValue: f, detail: msg });
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.finalizers', badValue: finalizers, detail: 'finalizer orphan and foregroundDeletion cannot be both set' });
  }
  return errs;
}

/** NameIsDNSSubdomain: the default name rule (custom resources use it too). */
export const dnsSubdomainName: NameValidator = (name) => isDNS1123Subdomain(name);
