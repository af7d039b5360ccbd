import { newInvalid } from '../../apimachinery/errors/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { queryBool, queryString, queryStrings } from './queryparams.js';
import { quote } from '../../apimachinery/util/strconv.js';

/**
 * CreateOptions, UpdateOptions and PatchOptions from the query, validated as
 * k8s.io/apimachinery/pkg/apis/meta/v1/validation does (422 Invalid on the meta.k8s.io kind).
 */

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

export interface WriteRequestOptions {
  readonly dryRun: boolean;
  readonly fieldManager: string;
  /** Default Warn. */
  readonly fieldValidation: FieldValidationDirective;
  /** The options as sent, for admission attributes. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export const FIELD_MANAGER_MAX_LENGTH = 128;

export function parseCreateOptions(query: URLSearchParams): WriteRequestOptions {
  return parseWriteOptions(query, 'CreateOptions', validateCommon);
}

export function parseUpdateOptions(query: URLSearchParams): WriteRequestOptions {
  return parseWriteOptions(query, 'UpdateOptions', validateCommon);
}

/** PatchOptions: `force` only for apply patches, `fieldManager` required for them. */
export function parsePatchOptions(query: URLSearchParams, isApply: boolean): WriteRequestOptions & { readonly force: boolean | undefined } {
  const force = queryBool(query, 'force');
  const opts = parseWriteOptions(query, 'PatchOptions', (o) => {
    const errs: FieldError[] = [];
    if (!isApply) {
      if (force !== undefined) errs.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
    } else if (o.fieldManager === '') {
      errs.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
    }
    return [...errs, ...validateCommon(o)];
  });
  return { ...opts, force, raw: { ...opts.raw, ...(force !== undefined ? { force } : {}) } };
}

interface RawWriteOptions {
  readonly dryRun: readonly string[];
  readonly fieldManager: string;
  readonly fieldValidation: string;
}

function parseWriteOptions(query: URLSearchParams, kind: string, validate: (o: RawWriteOptions) => FieldError[]): WriteRequestOptions {
  const raw: RawWriteOptions = { dryRun: queryStrings(query, 'dryRun'), fieldManager: queryString(query, 'fieldManager'), fieldValidation: queryString(query, 'fieldValidation') };
  const errs = validate(raw);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
  return {
    dryRun: raw.dryRun.length > 0,
    fieldManager: raw.fieldManager,
    fieldValidation: raw.fieldValidation === '' ? 'Warn' : (raw.fieldValidation as FieldValidationDirective),
    raw: {
      kind,
      apiVersion: 'meta.k8s.io/v1',
      ...(raw.dryRun.length > 0 ? { dryRun: [...raw.dryRun] } : {}),
      ...(raw.fieldManager !== '' ? { fieldManager: raw.fieldManager } : {}),
      ...(raw.fieldValidation !== '' ? { fieldValidation: raw.fieldValidation } : {}),
    },
  };
}

function validateCommon(o: RawWriteOptions): FieldError[] {
  return [...validateFieldManager(o.fieldManager), ...validateDryRun(o.dryRun), ...validateFieldValidation(o.fieldValidation)];
}

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) {
    errs.push({ type: 'FieldValueTooLong', field: 'fieldManager', badValue: fieldManager, detail: `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  let position = 0;
  for (const ch of fieldManager) {
    if (!isPrint(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push({ type: 'FieldValueInvalid', field: 'fieldManager', badValue: fieldManager, detail: `invalid character U+${code} (at position ${position})` });
    }
    position += Buffer.byteLength(ch);
  }
  return errs;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** ValidateDryRun: only `All`. The value is shown as Go prints a []string (`[]string{"x"}`). */
export function validateDryRun(dryRun: readonly string[]): FieldError[] {
  if (dryRun.every((v) => v === 'All')) return [];
  const shown = `[]string{${dryRun.map(quote).join(', ')}}`;
  return [{ type: 'FieldValueNotSupported', field: 'dryRun', detail: `${shown}: supported values: "All"` }];
}

const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn'];

export function validateFieldValidation(value: string): FieldError[] {
  if (FIELD_VALIDATION_VALUES.includes(value)) return [];
  return [{ type: 'FieldValueNotSupported', field: 'fieldValidation', badValue: value, detail: `supported values: ${FIELD_VALIDATION_VALUES.map(quote).join(', ')}` }];
}
