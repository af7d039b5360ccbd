import { formatGoFloat, formatGoNumber, type FieldError } from '../apimachinery/validation/field.js';
import { hasField, ownField } from '../apimachinery/serializer/jsonvalue.js';
import { isQualifiedName } from '../apimachinery/validation/names.js';
import { isFloatLiteral, unstructuredGoType } from '../apimachinery/validation/gofloat.js';
import type { KubeObject } from '../registry/rest.js';
import type { RESTStrategy } from '../apimachinery/definition/strategy.js';
import type { ResourceDefinition } from '../apimachinery/definition/resource.js';

type ScalePaths = NonNullable<ResourceDefinition['subresources']['scale']>;

const MAX_INT32 = 2147483647;
const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/**
 * The strategy of a custom resource (apiextensions' customResourceStrategy) beyond what the
 * generic store and the request pipeline already do (status reset, generation, schema, CEL, also
 * for what /scale writes): the replica counts the scale subresource reads must be non-negative
 * int32s; finalizer names that are not domain-qualified draw warnings. Each served version has
 * its own (`scale` is that version's), run by the store of requests through that version, which
 * validates objects converted to that version (its VersionView), as kube validates them in the
 * request version. Without a scale subresource there is nothing to validate, and the store
 * converts nothing for it.
 */
export function customResourceStrategy(scale: ScalePaths | undefined): RESTStrategy<KubeObject> {
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
    validateUpdate: (obj) => [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)],
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
    const got = nested(obj, selectorPath);
    if (got.error !== undefined) errs.push({ type: 'FieldValueInvalid', field: selectorPath, badValue: '', detail: got.error });
    else if (got.found && typeof got.value !== 'string') {
      errs.push({ type: 'FieldValueInvalid', field: selectorPath, badValue: '', detail: accessorError(selectorPath, got.value, 'string', got.float) });
    }
  }
  return errs;
}

/** unstructured.NestedInt64 at a `.a.b` path, then the range kube allows for replicas. */
function validateReplicas(obj: KubeObject, path: string): FieldError[] {
  const got = nested(obj, path);
  if (got.error !== undefined) return [{ type: 'FieldValueInvalid', field: path, badValue: 0, detail: got.error }];
  const { value, found } = got;
  if (!found) return [];
  if (unstructuredGoType(value, got.float) !== 'int64') {
    return [{ type: 'FieldValueInvalid', field: path, badValue: 0, detail: accessorError(path, value, 'int64', got.float) }];
  }
  const n = value as number;
  if (n < 0) return [{ type: 'FieldValueInvalid', field: path, badValue: n, detail: 'should be a non-negative integer' }];
  if (n > MAX_INT32) return [{ type: 'FieldValueInvalid', field: path, badValue: n, detail: `should be less than or equal to ${MAX_INT32}` }];
  return [];
}

interface Nested {
  value: unknown;
  found: boolean;
  /** The value was decoded as a float64 (see FLOAT_LITERAL_KEYS). */
  float: boolean;
  /** NestedFieldNoCopy's accessor error: a step of the path is not an object. */
  error?: string;
}

/** unstructured.NestedFieldNoCopy at a `.a.b` path: a null on the way is "not found", a non-object an error. */
function nested(obj: unknown, path: string): Nested {
  const fields = path.replace(/^\./, '').split('.');
  let cur: unknown = obj;
  let float = false;
  for (let i = 0; i < fields.length; i++) {
    const seg = fields[i] ?? '';
    if (cur === null || cur === undefined) return { value: undefined, found: false, float: false };
    if (typeof cur !== 'object' || Array.isArray(cur)) {
      return {
        value: undefined,
        found: false,
        float: false,
        error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goV(cur, false)} is of the type ${unstructuredGoType(cur, false)}, expected map[string]interface{}`,
      };
    }
    if (!hasField(cur, seg)) return { value: undefined, found: false, float: false };
    float = isFloatLiteral(cur, seg);
    cur = ownField(cur, seg);
  }
  return { value: cur, found: true, float };
}

function jsonPath(fields: readonly string[]): string {
  return `.${fields.join('.')}`;
}

/** The accessor error of unstructured.Nested*, with Go's %v of the value and its %T. */
function accessorError(path: string, value: unknown, expected: string, float = false): string {
  return `${path.startsWith('.') ? path : `.${path}`} accessor error: ${goV(value, float)} is of the type ${unstructuredGoType(value, float)}, expected ${expected}`;
}

/** %v of a value of unstructured content: `<nil>`, raw strings, `[a b]`, `map[k:v]` (sorted keys). */
function goV(v: unknown, float: boolean): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return float ? formatGoFloat(v) : formatGoNumber(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map((x) => goV(x, false)).join(' ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `map[${keys.map((k) => `${k}:${goV((v as Record<string, unknown>)[k], false)}`).join(' ')}]`;
  }
  return String(v);
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
