import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../apimachinery/labels/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { maskTrailingDash } from '../../apimachinery/validation/names.js';
import { validateOwnerReferences } from '../../apimachinery/validation/objectmeta.js';
import type { OwnerReference } from '../../../apis/meta/v1/types.js';
import type { ObjectMeta } from '../../apimachinery/object.js';
import type { OpenAPIComponentsDocument } from '../../apimachinery/definition/resource.js';
import { jsonUnmarshalMessage, typeMismatch, type GoTypeNames } from '../../apimachinery/schema/typeddecode.js';
import { hasField, isJSONObject, jsonTypeName } from '../../apimachinery/serializer/jsonvalue.js';
import { parseRFC3339Error } from '../../apimachinery/util/gotime.js';
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
  errs.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations));
  // ValidateObjectMeta(Accessor) checks them for every kind, built-in or custom.
  errs.push(...validateOwnerReferences(Array.isArray(meta.ownerReferences) ? (meta.ownerReferences as OwnerReference[]) : undefined, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(meta.finalizers));
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

/**
 * ObjectMeta's Go types, as the JSON decoder sees them (k8s.io/apimachinery meta/v1 types.go), in
 * the shape typeMismatch reads: structs are `$ref`s, date-time strings are metav1.Time (its own
 * UnmarshalJSON, judged by timeFieldError), fieldsV1 takes any JSON.
 */
const str = { type: 'string' };
const int64 = { type: 'integer', format: 'int64' };
const time = { type: 'string', format: 'date-time' };
const stringMap = { type: 'object', additionalProperties: str };
const ref = (name: string): object => ({ $ref: `#/components/schemas/v1.${name}` });
const OBJECT_META_TYPES: OpenAPIComponentsDocument = {
  components: {
    schemas: {
      'v1.ObjectMeta': {
        type: 'object',
        properties: {
          name: str,
          generateName: str,
          namespace: str,
          selfLink: str,
          uid: str,
          resourceVersion: str,
          generation: int64,
          creationTimestamp: time,
          deletionTimestamp: time,
          deletionGracePeriodSeconds: int64,
          labels: stringMap,
          annotations: stringMap,
          ownerReferences: { type: 'array', items: ref('OwnerReference') },
          finalizers: { type: 'array', items: str },
          managedFields: { type: 'array', items: ref('ManagedFieldsEntry') },
        },
      },
      'v1.OwnerReference': {
        type: 'object',
        properties: { apiVersion: str, kind: str, name: str, uid: str, controller: { type: 'boolean' }, blockOwnerDeletion: { type: 'boolean' } },
      },
      'v1.ManagedFieldsEntry': {
        type: 'object',
        properties: { manager: str, operation: str, apiVersion: str, time, fieldsType: str, fieldsV1: {}, subresource: str },
      },
    },
  },
};

/** Named string types of ObjectMeta, which Go's errors print by name. */
const UID_FIELD = { uid: { name: 'types.UID' } } as const;
const OBJECT_META_GO_TYPES: GoTypeNames = {
  'v1.ObjectMeta': UID_FIELD,
  'v1.OwnerReference': UID_FIELD,
  'v1.ManagedFieldsEntry': { operation: { name: 'v1.ManagedFieldsOperationType' } },
};

/**
 * Why Go's JSON decoder cannot decode `metadata` into a metav1.ObjectMeta, or undefined when it
 * can. Custom resources' codec does this (apiextensions-apiserver's unstructuredSchemaCoercer,
 * objectmeta.GetObjectMetaWithOptions) on the metadata re-encoded by json.Marshal, so map keys are
 * read in sorted order. A metav1.Time field's error (its UnmarshalJSON: a non-string, or
 * time.Parse(RFC3339)'s) ends the decode and is the one reported; otherwise the first value of
 * the wrong JSON type is: `json: cannot unmarshal string into Go value of type v1.ObjectMeta`,
 * `json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string`.
 * `within` names the typed kind whose `metadata` this is (`Scale`), whose decoder reads the body
 * in document order and names the struct fields from the kind's root.
 */
export function objectMetaDecodeError(metadata: unknown, within?: string): string | undefined {
  if (metadata === undefined) return undefined;
  const prefix = within === undefined ? [] : ['metadata'];
  // Metadata Go decodes (nearly every request) needs no copy in json.Marshal's key order: the
  // order only decides which of several errors is the first.
  if (within === undefined && firstTimeError(metadata, prefix) === undefined && typeMismatch(OBJECT_META_TYPES, 'v1.ObjectMeta', metadata, OBJECT_META_GO_TYPES) === undefined) return undefined;
  const value = within === undefined ? sortedKeys(metadata, 0) : metadata;
  const timeError = firstTimeError(value, prefix);
  if (timeError !== undefined) return timeError;
  const m = typeMismatch(OBJECT_META_TYPES, 'v1.ObjectMeta', value, OBJECT_META_GO_TYPES);
  if (m === undefined) return undefined;
  if (within !== undefined && m.fieldStack.length === 0) return `json: cannot unmarshal ${m.value} into Go struct field ${within}.metadata of type v1.ObjectMeta`;
  return jsonUnmarshalMessage({ ...m, fieldStack: [...prefix, ...m.fieldStack] });
}

/** kube's OpenAPI id of ObjectMeta, as components refer to it. */
export const OBJECT_META_DEFINITION = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * `doc`, holding ObjectMeta's Go types under kube's id when it has no definition of its own: the
 * components of a kind published in another group's document (TokenRequest) only refer to
 * ObjectMeta, and typeMismatch would take what it cannot resolve as any JSON. With the Go type
 * names of its fields joined to `goTypes`.
 */
export function withObjectMetaTypes(doc: OpenAPIComponentsDocument, goTypes: GoTypeNames = {}): { openapi: OpenAPIComponentsDocument; goTypes: GoTypeNames } {
  const schemas = doc.components.schemas;
  if (hasField(schemas, OBJECT_META_DEFINITION)) return { openapi: doc, goTypes };
  const own = OBJECT_META_TYPES.components.schemas;
  return {
    openapi: { components: { schemas: { ...own, ...schemas, [OBJECT_META_DEFINITION]: own['v1.ObjectMeta'] } } },
    goTypes: { ...OBJECT_META_GO_TYPES, ...goTypes, [OBJECT_META_DEFINITION]: UID_FIELD },
  };
}

/** A copy of a JSON value with object keys sorted, as json.Marshal writes a map (null-prototype objects: keys are data). */
function sortedKeys(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null || depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => sortedKeys(x, depth + 1));
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v).sort()) out[k] = sortedKeys((v as Record<string, unknown>)[k], depth + 1);
  return out;
}

/** The first metav1.Time of ObjectMeta (in key order) whose UnmarshalJSON fails, with Go's error. */
function firstTimeError(meta: unknown, prefix: readonly string[]): string | undefined {
  if (!isJSONObject(meta)) return undefined;
  for (const k of Object.keys(meta)) {
    const v = meta[k];
    if (k === 'creationTimestamp' || k === 'deletionTimestamp') {
      const e = timeFieldError(v, 'ObjectMeta', [...prefix, k]);
      if (e !== undefined) return e;
    } else if (k === 'managedFields' && Array.isArray(v)) {
      for (const entry of v) {
        if (!isJSONObject(entry) || !hasField(entry, 'time')) continue;
        const e = timeFieldError(entry['time'], 'ManagedFieldsEntry', [...prefix, 'managedFields', 'time']);
        if (e !== undefined) return e;
      }
    }
  }
  return undefined;
}

/** metav1.Time.UnmarshalJSON's error for `v` at a struct field, or undefined (null is the zero time). */
function timeFieldError(v: unknown, struct: string, stack: readonly string[]): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') return `json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ${struct}.${stack.join('.')} of type string`;
  return parseRFC3339Error(v);
}
