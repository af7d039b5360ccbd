import type { LabelSelector, LabelSelectorRequirement } from '../../../apis/meta/v1/types.js';
import { childPath, type FieldError } from './field.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { validateLabels } from './objectmeta.js';

/**
 * metav1/validation.ValidateLabelSelector: the structured selector of API objects (matchLabels
 * and matchExpressions) checked field by field, with kube's paths and messages.
 */

export interface LabelSelectorValidationOptions {
  /** Skip the label-value check of expression values (kube's AllowInvalidLabelValueInSelector). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

/** ValidateLabelSelector: matchLabels as labels, then each expression. */
export function validateLabelSelector(ls: LabelSelector | undefined | null, opts: LabelSelectorValidationOptions, path: string): FieldError[] {
  if (ls === undefined || ls === null) return [];
  const errs = validateLabels(ls.matchLabels, childPath(path, 'matchLabels'));
  const expressions = childPath(path, 'matchExpressions');
  (ls.matchExpressions ?? []).forEach((expr, i) => errs.push(...validateLabelSelectorRequirement(expr, opts, childPath(expressions, i))));
  return errs;
}

/** ValidateLabelSelectorRequirement: the operator's arity, the key, and (unless allowed) the values. */
export function validateLabelSelectorRequirement(sr: LabelSelectorRequirement, opts: LabelSelectorValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = sr.values ?? [];
  const valuesPath = childPath(path, 'values');
  switch (sr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push({ type: 'FieldValueRequired', field: valuesPath, detail: "must be specified when `operator` is 'In' or 'NotIn'" });
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push({ type: 'FieldValueForbidden', field: valuesPath, detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
      break;
    default:
      errs.push({ type: 'FieldValueInvalid', field: childPath(path, 'operator'), badValue: sr.operator, detail: 'not a valid selector operator' });
  }
  for (const msg of isQualifiedName(sr.key)) errs.push({ type: 'FieldValueInvalid', field: childPath(path, 'key'), badValue: sr.key, detail: msg });
  if (opts.allowInvalidLabelValueInSelector !== true) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push({ type: 'FieldValueInvalid', field: childPath(valuesPath, i), badValue: v, detail: msg });
    });
  }
  return errs;
}
