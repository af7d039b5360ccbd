import type {
  FieldSelectorAttributes,
  LabelSelectorAttributes,
  LocalSubjectAccessReview,
  ResourceAttributes,
  SelfSubjectAccessReview,
  SelfSubjectAccessReviewSpec,
  SubjectAccessReview,
  SubjectAccessReviewSpec,
} from '../../../apis/authorization/v1/types.js';
import type { ObjectMeta } from '../../../apis/meta/v1/types.js';
import { childPath, type FieldError } from '../../apimachinery/validation/field.js';
import { validateFieldSelectorRequirement, validateLabelSelectorRequirement } from './selector-validation.js';

/**
 * pkg/apis/authorization/validation (kube 1.32): what makes an access review invalid (422), with
 * kube's field paths and wording. A review asks one question (resource or non-resource
 * attributes), about a user or groups, and carries no metadata of its own.
 */

export function validateSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec, path: string): FieldError[] {
  const errs = validateOneQuestion(spec, path);
  if ((spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push({ type: 'FieldValueInvalid', field: childPath(path, 'user'), badValue: spec.user ?? '', detail: 'at least one of user or group must be specified' });
  }
  errs.push(...validateResourceAttributes(spec.resourceAttributes, 'spec.resourceAttributes'));
  return errs;
}

export function validateSelfSubjectAccessReviewSpec(spec: SelfSubjectAccessReviewSpec, path: string): FieldError[] {
  return [...validateOneQuestion(spec, path), ...validateResourceAttributes(spec.resourceAttributes, 'spec.resourceAttributes')];
}

export function validateSubjectAccessReview(sar: SubjectAccessReview): FieldError[] {
  return [...validateSubjectAccessReviewSpec(sar.spec ?? {}, 'spec'), ...validateEmptyMetadata(sar.metadata, [], 'must be empty')];
}

export function validateSelfSubjectAccessReview(sar: SelfSubjectAccessReview): FieldError[] {
  return [...validateSelfSubjectAccessReviewSpec(sar.spec ?? {}, 'spec'), ...validateEmptyMetadata(sar.metadata, [], 'must be empty')];
}

/** A local review is the namespace's own question: its spec names that namespace and no non-resource URL. */
export function validateLocalSubjectAccessReview(sar: LocalSubjectAccessReview): FieldError[] {
  const spec = sar.spec ?? {};
  const errs = [...validateSubjectAccessReviewSpec(spec, 'spec'), ...validateEmptyMetadata(sar.metadata, ['namespace'], 'must be empty except for namespace')];
  const namespace = spec.resourceAttributes?.namespace ?? '';
  if (spec.resourceAttributes !== undefined && namespace !== (sar.metadata?.namespace ?? '')) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', badValue: namespace, detail: 'must match metadata.namespace' });
  }
  if (spec.nonResourceAttributes !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', badValue: spec.nonResourceAttributes, detail: 'disallowed on this kind of request' });
  }
  return errs;
}

function validateOneQuestion(spec: SelfSubjectAccessReviewSpec, path: string): FieldError[] {
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    return [{ type: 'FieldValueInvalid', field: childPath(path, 'nonResourceAttributes'), badValue: spec.nonResourceAttributes, detail: 'cannot be specified in combination with resourceAttributes' }];
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    return [{ type: 'FieldValueInvalid', field: childPath(path, 'resourceAttributes'), badValue: null, detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' }];
  }
  return [];
}

/**
 * Whether metadata is the zero ObjectMeta apart from managedFields and `allowed` (kube compares
 * semantically: null, '', 0, false and empty lists or maps are all unset). The server wiped the
 * system fields (uid, creationTimestamp, …) before, as kube's create handler does.
 */
function validateEmptyMetadata(meta: ObjectMeta | undefined, allowed: readonly string[], detail: string): FieldError[] {
  if (meta === undefined || meta === null) return [];
  const set = Object.entries(meta).filter(([k, v]) => k !== 'managedFields' && !allowed.includes(k) && !isZero(v));
  return set.length === 0 ? [] : [{ type: 'FieldValueInvalid', field: 'metadata', badValue: meta, detail }];
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function validateResourceAttributes(ra: ResourceAttributes | undefined, path: string): FieldError[] {
  if (ra === undefined) return [];
  return [...validateFieldSelectorAttributes(ra.fieldSelector, childPath(path, 'fieldSelector')), ...validateLabelSelectorAttributes(ra.labelSelector, childPath(path, 'labelSelector'))];
}

/** Either a raw selector or requirements, never both and never neither. */
function validateSelectorShape(selector: FieldSelectorAttributes | LabelSelectorAttributes, path: string): FieldError[] {
  const raw = selector.rawSelector ?? '';
  const reqs = selector.requirements ?? [];
  if (raw !== '' && reqs.length > 0) return [{ type: 'FieldValueInvalid', field: childPath(path, 'rawSelector'), badValue: raw, detail: 'may not specified at the same time as requirements' }];
  if (raw === '' && reqs.length === 0) return [{ type: 'FieldValueRequired', field: childPath(path, 'requirements'), detail: `when ${path} is specified, requirements or rawSelector is required` }];
  return [];
}

function validateFieldSelectorAttributes(selector: FieldSelectorAttributes | undefined, path: string): FieldError[] {
  if (selector === undefined) return [];
  const errs = validateSelectorShape(selector, path);
  (selector.requirements ?? []).forEach((r, i) => errs.push(...validateFieldSelectorRequirement(r, childPath(childPath(path, 'requirements'), i))));
  return errs;
}

function validateLabelSelectorAttributes(selector: LabelSelectorAttributes | undefined, path: string): FieldError[] {
  if (selector === undefined) return [];
  const errs = validateSelectorShape(selector, path);
  (selector.requirements ?? []).forEach((r, i) => errs.push(...validateLabelSelectorRequirement(r, childPath(childPath(path, 'requirements'), i))));
  return errs;
}
