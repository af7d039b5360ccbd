import type { FieldSelectorRequirement } from '../../../apis/authorization/v1/types.js';
import type { LabelSelectorRequirement } from '../../../apis/meta/v1/types.js';
import { childPath, type FieldError } from '../../apimachinery/validation/field.js';
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/names.js';

/**
 * metav1/validation's ValidateLabelSelectorRequirement and ValidateFieldSelectorRequirement as
 * access reviews call them: with AllowUnknownOperatorInRequirement, so a review from a newer
 * client whose operator this server does not know still passes (the requirement is dropped when
 * the selector is parsed, which only broadens the question).
 */

const IN_NOT_IN = "must be specified when `operator` is 'In' or 'NotIn'";
const EXISTS = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";

/** The values an operator needs (In, NotIn: some; Exists, DoesNotExist: none); unknown operators pass. */
function validateValuesForOperator(operator: string, values: readonly string[], path: string): FieldError[] {
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) return [{ type: 'FieldValueRequired', field: childPath(path, 'values'), detail: IN_NOT_IN }];
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) return [{ type: 'FieldValueForbidden', field: childPath(path, 'values'), detail: EXISTS }];
  return [];
}

/** The operator's values, the key as a label name, and each value as a label value. */
export function validateLabelSelectorRequirement(sr: LabelSelectorRequirement, path: string): FieldError[] {
  const values = sr.values ?? [];
  const errs = validateValuesForOperator(String(sr.operator ?? ''), values, path);
  for (const msg of isQualifiedName(sr.key ?? '')) errs.push({ type: 'FieldValueInvalid', field: childPath(path, 'key'), badValue: sr.key ?? '', detail: msg });
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(v)) errs.push({ type: 'FieldValueInvalid', field: childPath(childPath(path, 'values'), i), badValue: v, detail: msg });
  });
  return errs;
}

/** A key, and the operator's values. */
export function validateFieldSelectorRequirement(r: FieldSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = (r.key ?? '') === '' ? [{ type: 'FieldValueRequired', field: childPath(path, 'key'), detail: 'must be specified' }] : [];
  return [...errs, ...validateValuesForOperator(r.operator ?? '', r.values ?? [], path)];
}
