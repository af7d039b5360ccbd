import type { JSONSchemaProps } from '../../apis/apiextensions/v1/types.js';
import type { FieldError } from '../apimachinery/validation/field.js';
import { deepEqualJSON, hasField, ownField } from '../apimachinery/serializer/jsonvalue.js';
import { propertySchema } from '../apimachinery/schema/property.js';
import { isQualifiedName } from '../apimachinery/validation/names.js';
import { SchemaValidator } from '../apimachinery/validation/schema-validator.js';
import type { KubeObject } from '../registry/rest.js';
import type { RESTStrategy } from '../apimachinery/definition/strategy.js';
import type { ResourceDefinition } from '../apimachinery/definition/resource.js';

type ScalePaths = NonNullable<ResourceDefinition['subresources']['scale']>;

const MAX_INT32 = 2147483647;
const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/** Compiles the schemas of replica fields once each. */
const validator = new SchemaValidator();

/**
 * The strategy of a custom resource (apiextensions' customResourceStrategy) beyond what the
 * generic store and the request pipeline already do (status reset, generation, schema, CEL):
 * the replica counts the scale subresource reads must be non-negative int32s, and what the
 * scale subresource writes (spec replicas, past the request pipeline) must satisfy the
 * schema; finalizer names that are not domain-qualified draw warnings. Each served version has
 * its own (`scale` and `schema` are that version's), run by the store of requests through that
 * version, which validates objects converted to that version (its VersionView), as kube
 * validates them in the request version. Without a scale subresource there is nothing to
 * validate, and the store converts nothing for it.
 */
export function customResourceStrategy(scale: ScalePaths | undefined, schema: JSONSchemaProps): RESTStrategy<KubeObject> {
  const replicasSchema = scale === undefined ? undefined : schemaAt(schema, scale.specReplicasPath);
  // Ratcheted as kube ratchets it: a replica count the update did not change is not checked again.
  const validateReplicasSchema = (obj: KubeObject, old: KubeObject): FieldError[] => {
    if (scale === undefined || replicasSchema === undefined) return [];
    const { value, found } = nested(obj, scale.specReplicasPath);
    const before = nested(old, scale.specReplicasPath);
    if (!found || (before.found && deepEqualJSON(value, before.value))) return [];
    return validator.validate(replicasSchema, value).map((e) => at(e, scale.specReplicasPath.replace(/^\./, '')));
  };
  const common: RESTStrategy<KubeObject> = {
    // kube's customResourceStrategy: a PUT without metadata.resourceVersion is 422, never a blind overwrite.
    allowUnconditionalUpdate: false,
    // Custom resources are printed by the column convertor (tableconvertor.New), `Age` when the
    // version declares no additionalPrinterColumns.
    tablePrinter: { kind: 'columns' },
    warningsOnCreate: (obj) => finalizerWarnings(obj, undefined),
    warningsOnUpdate: (obj, old) => finalizerWarnings(obj, old),
  };
  if (scale === undefined) return common;
  return {
    ...common,
    validate: (obj) => [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)],
    validateUpdate: (obj, old) => [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale), ...validateReplicasSchema(obj, old)],
    status: {
      validateUpdate: (obj) => validateScaleStatus(obj, scale),
    },
  };
}

function validateScaleSpec(obj: KubeObject, scale: ScalePaths | undefined): FieldError[] {
  return scale === undefined ? [] : validateReplicas(obj, scale.specReplicasPath);
}

function validateScaleStatus(obj: KubeObject, scale: ScalePaths | undefined): FieldError[] {
  if (scale === undefined) return [];
  const errs = validateReplicas(obj, scale.statusReplicasPath);
  const selectorPath = scale.labelSelectorPath;
  if (selectorPath !== undefined && selectorPath !== '') {
    const { value, found } = nested(obj, selectorPath);
    if (found && typeof value !== 'string') {
      errs.push({ type: 'FieldValueInvalid', field: selectorPath, badValue: '', detail: accessorError(selectorPath, value, 'string') });
    }
  }
  return errs;
}

/** unstructured.NestedInt64 at a `.a.b` path, then the range kube allows for replicas. */
function validateReplicas(obj: KubeObject, path: string): FieldError[] {
  const { value, found } = nested(obj, path);
  if (!found) return [];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return [{ type: 'FieldValueInvalid', field: path, badValue: 0, detail: accessorError(path, value, 'int64') }];
  }
  if (value < 0) return [{ type: 'FieldValueInvalid', field: path, badValue: value, detail: 'should be a non-negative integer' }];
  if (value > MAX_INT32) return [{ type: 'FieldValueInvalid', field: path, badValue: value, detail: `should be less than or equal to ${MAX_INT32}` }];
  return [];
}

/** The schema of the field a `.a.b` path names; undefined where the schema does not describe it. */
function schemaAt(schema: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  let cur: JSONSchemaProps | undefined = schema;
  for (const seg of path.replace(/^\./, '').split('.')) cur = propertySchema(cur, seg);
  return cur;
}

/** A field error of a value validated alone, as if found at `path`. */
function at(e: FieldError, path: string): FieldError {
  const field = e.field === '' ? path : `${path}.${e.field}`;
  return { ...e, field, detail: e.detail.replace(`${e.field === '' ? '<root>' : e.field} in body`, `${field} in body`) };
}

function nested(obj: unknown, path: string): { value: unknown; found: boolean } {
  let cur: unknown = obj;
  for (const seg of path.replace(/^\./, '').split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !hasField(cur, seg)) return { value: undefined, found: false };
    cur = ownField(cur, seg);
  }
  return { value: cur, found: true };
}

/** The accessor error of unstructured.Nested*, with Go's name of the value's type. */
function accessorError(path: string, value: unknown, expected: string): string {
  return `${path.startsWith('.') ? path : `.${path}`} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected ${expected}`;
}

function goType(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return 'map[string]interface {}';
  }
}

function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** validateKubeFinalizerName as warnings, for the finalizers an update adds, in sorted order. */
function finalizerWarnings(obj: KubeObject, old: KubeObject | undefined): string[] {
  const before = new Set(finalizersOf(old));
  const added = [...new Set(finalizersOf(obj).filter((f) => !before.has(f)))].sort();
  const path = 'metadata.finalizers';
  const warnings: string[] = [];
  for (const f of added) {
    for (const msg of isQualifiedName(f)) warnings.push(`${path}: ${JSON.stringify(f)}: ${msg}`);
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      warnings.push(
        f.includes('.')
          ? `${path}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `${path}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      );
    }
  }
  return warnings;
}

function finalizersOf(obj: KubeObject | undefined): string[] {
  const f = obj?.metadata?.['finalizers'];
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}
