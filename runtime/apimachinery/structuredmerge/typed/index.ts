export { Comparison } from './compare.js';
export { ValidationErrors, validationErrorString } from './errors.js';
export type { ValidationError } from './errors.js';
export { DEDUCED_SCHEMA_YAML, deducedParseableType, ParseableType, Parser } from './parser.js';
export { TypedValue } from './typed.js';
export type { ExtractItemsOptions } from './typed.js';
export type { ValidationOptions } from './validate.js';
export { reconcileFieldSetWithSchema } from './reconcile-schema.js';
