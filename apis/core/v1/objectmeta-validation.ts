import { childPath, type FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isQualifiedName } from '../../../runtime/apimachinery/validation/names.js';
import type { ObjectMeta } from '../../meta/v1/types.js';

/**
 * What kube's pkg/apis/core/validation adds to apimachinery's ObjectMeta checks: its
 * ValidateObjectMeta and ValidateObjectMetaUpdate, which the validation of the core kinds and of
 * the groups built on them (RBAC) call, refuse a finalizer that is neither domain-qualified nor
 * one of the standard ones. (Custom resources only draw a warning for it; kube-aggregator's,
 * apiextensions' and sample-apiserver's kinds use apimachinery's checks alone.)
 */

/** helper.IsStandardFinalizerName: the namespace controller's and the garbage collector's. */
const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** validateKubeFinalizerName of each metadata.finalizers[i]: the errors core's ValidateObjectMeta(Update) appends. */
export function validateKubeFinalizerNames(meta: ObjectMeta | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (meta?.finalizers ?? []).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, childPath('metadata.finalizers', i))));
  return errs;
}

/** validateFinalizerName (a Namespace's spec.finalizers): a qualified name, then validateKubeFinalizerName, at `path`. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = isQualifiedName(name).map((detail) => ({ type: 'FieldValueInvalid', field: path, badValue: name, detail }));
  return [...errs, ...validateKubeFinalizerName(name, path)];
}

function validateKubeFinalizerName(name: string, path: string): FieldError[] {
  if (name.includes('/') || STANDARD_FINALIZERS.has(name)) return [];
  return [{ type: 'FieldValueInvalid', field: path, badValue: name, detail: 'name is neither a standard finalizer name nor is it fully qualified' }];
}
