import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { FieldError, FieldErrorType } from '../validation/field.js';
import { CELValidator, type CELValidateOptions } from './validator.js';

export { CELValidator, type CELValidateOptions } from './validator.js';
export { compileRule, type RuleProblem } from './compile.js';
export { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';

/** One validator for the process: compiled rules are cached per schema object. */
export const celValidator = new CELValidator();

/** Schema errors after which rules are not run (hasBlockingErr). */
const BLOCKING: ReadonlySet<FieldErrorType> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * The CEL step of a kind's Validate (old undefined) or ValidateUpdate: the rules' errors, or,
 * when the schema errors already found would make rules meaningless, kube's single notice
 * (`<nil>: Invalid value: "null": some validation rules were not checked…`).
 */
export function validateCELRules(schema: JSONSchemaProps, obj: unknown, old: unknown, schemaErrors: readonly FieldError[], options?: CELValidateOptions): FieldError[] {
  if (!celValidator.hasRules(schema, options?.isResourceRoot ?? true)) return [];
  if (schemaErrors.some((e) => BLOCKING.has(e.type))) {
    return [
      {
        type: 'FieldValueInvalid',
        field: '<nil>',
        badValue: null,
        detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      },
    ];
  }
  return celValidator.validate(schema, obj, old, options);
}
