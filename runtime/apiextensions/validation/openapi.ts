import type { JSONSchemaProps, ValidationRule } from '../../../apis/apiextensions/v1/types.js';
import { compileRule } from '../../apimachinery/cel/index.js';
import { compileRules } from '../../apimachinery/cel/compile.js';
import { declTypeOf } from '../../apimachinery/cel/model.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { child, forbidden, index, invalid, invalidGo, key, notSupported, required } from './errors.js';
import { validFieldPath } from './fieldpath.js';
import { propertySchema } from '../../apimachinery/schema/property.js';

/** What the spec validator carries down the schema (specStandardValidatorV3). */
interface Context {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
  /** The first ancestor below which old and new values cannot be correlated (oldSelf is meaningless). */
  readonly uncorrelatable: string | undefined;
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS: ReadonlySet<string> = new Set(['metadata', 'kind', 'apiVersion']);
const RULE_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** Errors of one subtree: CEL errors are only computed where the schema itself has none. */
interface Result {
  readonly schema: FieldError[];
  readonly cel: FieldError[];
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema: what a CRD's openAPIV3Schema may contain
 * (no $ref, definitions, patternProperties…; properties xor additionalProperties; list and
 * map types consistent; no defaults in metadata) and whether its x-kubernetes-validations
 * compile (`compiled` false skips CEL, as kube does while the schema is not structural).
 */
export function validateOpenAPISchema(schema: JSONSchemaProps, path: string, compileCEL: boolean): FieldError[] {
  const r = validateNode(schema, path, { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false, uncorrelatable: undefined }, true, compileCEL);
  return [...r.schema, ...r.cel];
}

function validateNode(s: JSONSchemaProps | undefined, path: string, ctx: Context, isRoot: boolean, cel: boolean): Result {
  const out: Result = { schema: [], cel: [] };
  if (s === undefined) return out;
  const add = (r: Result): void => {
    out.schema.push(...r.schema);
    out.cel.push(...r.cel);
  };
  out.schema.push(...specStandard(s, path, ctx));
  if (s.uniqueItems === true) out.schema.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));

  const props = s.properties ?? {};
  const hasProps = Object.keys(props).length > 0;
  if (s.additionalProperties !== undefined) {
    if (hasProps && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      out.schema.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    if (typeof s.additionalProperties === 'object') {
      const sub = ctx.insideResourceMeta ? withForbiddenDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
      add(validateNode(s.additionalProperties, child(path, 'additionalProperties'), sub, false, cel));
    }
  }
  for (const [name, p] of Object.entries(props)) {
    let sub = ctx;
    const mapType = s['x-kubernetes-map-type'];
    if (mapType !== undefined && mapType !== 'granular') sub = withForbidOldSelf(sub, path);
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
    }
    add(validateNode(p, key(child(path, 'properties'), name), sub, false, cel));
  }
  if (s.not !== undefined) add(validateNode(s.not, child(path, 'not'), ctx, false, false));
  (s.allOf ?? []).forEach((n, i) => add(validateNode(n, index(child(path, 'allOf'), i), ctx, false, false)));
  (s.oneOf ?? []).forEach((n, i) => add(validateNode(n, index(child(path, 'oneOf'), i), ctx, false, false)));
  (s.anyOf ?? []).forEach((n, i) => add(validateNode(n, index(child(path, 'anyOf'), i), ctx, false, false)));
  for (const [name, d] of Object.entries(s.definitions ?? {})) add(validateNode(d, key(child(path, 'definitions'), name), ctx, false, false));
  if (s.items !== undefined) {
    const sub = s['x-kubernetes-list-type'] === 'map' ? ctx : withForbidOldSelf(ctx, path);
    if (Array.isArray(s.items)) s.items.forEach((n, i) => add(validateNode(n, index(child(path, 'items'), i), sub, false, cel)));
    else add(validateNode(s.items, child(path, 'items'), sub, false, cel));
  }
  for (const [name, d] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(d)) add(validateNode(d, key(child(path, 'dependencies'), name), ctx, false, false));
  }
  out.schema.push(...extensions(s, path));
  out.schema.push(...listMapKeysMapSet(s, path));
  if ((s['x-kubernetes-validations'] ?? []).length > 0) {
    out.schema.push(...ruleShapes(s, path));
    // Rules are compiled only where the schema below is sound: errors of an unsound schema say nothing useful.
    if (out.schema.length === 0 && cel) out.cel.push(...compileValidations(s, path, ctx, isRoot));
  }
  return out;
}

function withForbiddenDefaults(ctx: Context, reason: string): Context {
  return { ...ctx, allowDefaults: false, disallowDefaultsReason: reason };
}

function withForbidOldSelf(ctx: Context, path: string): Context {
  return ctx.uncorrelatable !== undefined ? ctx : { ...ctx, uncorrelatable: path };
}

/** specStandardValidatorV3.validate: keywords a CRD schema may not use. */
function specStandard(s: JSONSchemaProps, path: string, ctx: Context): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type !== undefined && s.type !== '' && !OPENAPI_V3_TYPES.includes(s.type)) errs.push(notSupported(child(path, 'type'), s.type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && s.default !== null && !ctx.allowDefaults) {
    errs.push(forbidden(child(path, 'default'), ctx.disallowDefaultsReason === '' ? 'must not be set' : `must not be set ${ctx.disallowDefaultsReason}`));
  }
  if ((s.id ?? '') !== '') errs.push(forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0) errs.push(forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0) errs.push(forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(child(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

/** The x-kubernetes-preserve-unknown-fields, map-type, list-type and list-map-keys rules. */
function extensions(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && type !== 'object') {
    errs.push(
      type === '' ? required(child(path, 'type'), 'must be object if x-kubernetes-map-type is specified') : invalid(child(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified'),
    );
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const listType = s['x-kubernetes-list-type'];
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (listType !== undefined && type !== 'array') {
    errs.push(
      type === '' ? required(child(path, 'type'), 'must be array if x-kubernetes-list-type is specified') : invalid(child(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified'),
    );
  } else if (listType === 'set' && items !== undefined) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(invalid(child(path, 'items', 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(invalid(child(path, 'items', 'x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') errs.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items)) errs.push(invalid(child(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object') errs.push(invalid(child(path, 'items', 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = propertySchema(items, k);
        if (p === undefined) errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        else if (p.type === 'array' || p.type === 'object') {
          errs.push(invalid(child(key(child(path, 'items', 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        }
        if (seen.has(k)) errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted, never nullable. */
function listMapKeysMapSet(s: JSONSchemaProps, path: string): FieldError[] {
  const listType = s['x-kubernetes-list-type'];
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) errs.push(forbidden(child(path, 'items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const requiredKeys = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = propertySchema(items, k);
      if (p === undefined) continue;
      const at = key(child(path, 'items', 'properties'), k);
      if (!requiredKeys.has(k) && (p.default === undefined || p.default === null)) {
        errs.push(required(child(at, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (p.nullable === true) errs.push(forbidden(child(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

/** The shape of each rule: rule present, message and fieldPath sane, reason known. */
function ruleShapes(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (trimmedRule === '') errs.push(required(child(at, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg === '') errs.push(invalid(child(at, 'message'), message, 'must be non-empty if specified'));
    else if (/[\n\r]/.test(trimmedMsg)) errs.push(invalid(child(at, 'message'), message, 'must not contain line breaks'));
    else if (/[\n\r]/.test(trimmedRule) && trimmedMsg === '') errs.push(required(child(at, 'message'), 'message must be specified if rule contains line breaks'));
    if ((rule.messageExpression ?? '').length > 0 && (rule.messageExpression ?? '').trim() === '') {
      errs.push(required(child(at, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !RULE_REASONS.includes(rule.reason)) errs.push(notSupported(child(at, 'reason'), rule.reason, RULE_REASONS));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(invalid(child(at, 'fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (/[\n\r]/.test(fieldPath)) errs.push(invalid(child(at, 'fieldPath'), fieldPath, 'must not contain line breaks'));
    if (fieldPath.length > 0 && validFieldPath(fieldPath, s, true).error !== undefined) errs.push(invalid(child(at, 'fieldPath'), fieldPath, 'must be a valid path'));
  });
  return errs;
}

/** Compiles each rule against the node (cel.Compile): compile errors reject the CRD. */
function compileValidations(s: JSONSchemaProps, path: string, ctx: Context, isRoot: boolean): FieldError[] {
  const rules = s['x-kubernetes-validations'] ?? [];
  const errs: FieldError[] = [];
  const decl = declTypeOf(s, isRoot || s['x-kubernetes-embedded-resource'] === true);
  if (decl === undefined) {
    return [{ type: 'InternalError', field: child(path, 'x-kubernetes-validations'), detail: 'internal error: failed to retrieve type information for x-kubernetes-validations' }];
  }
  const compiled = compileRules(rules, s, decl);
  rules.forEach((rule, i) => {
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const result = compiled[i];
    if (result?.error !== undefined) errs.push(invalidGo(child(at, 'rule'), goRule(rule), result.error));
    for (const p of compileRule(rule, s, { isResourceRoot: isRoot })) {
      if (p.field !== 'messageExpression') continue;
      const detail = p.message.startsWith('must evaluate') ? 'messageExpression must evaluate to a string' : `messageExpression compilation failed: ${p.message}`;
      errs.push(invalidGo(child(at, 'messageExpression'), goRule(rule), detail));
    }
    if (result?.usesOldSelf === true) {
      if (ctx.uncorrelatable !== undefined) {
        errs.push(invalid(child(at, 'rule'), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable}`));
      }
    } else if (result?.error === undefined && rule.optionalOldSelf !== undefined) {
      errs.push(invalid(child(at, 'optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}

/** A ValidationRule as kube prints it (%#v of the internal type). */
function goRule(r: ValidationRule): string {
  const ptr = (type: string, v: unknown): string => (v === undefined ? `(*${type})(nil)` : `(*${type})(${JSON.stringify(v)})`);
  return `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule ?? '')}, Message:${JSON.stringify(r.message ?? '')}, MessageExpression:${JSON.stringify(r.messageExpression ?? '')}, Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason)}, FieldPath:${JSON.stringify(r.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf)}}`;
}
