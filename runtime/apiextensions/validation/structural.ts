import { isDeepStrictEqual } from 'node:util';
import { RE2JS } from 're2js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/types.js';
import { formatFieldError, type FieldError } from '../../apimachinery/validation/field.js';
import { child, forbidden, index, invalid, key, required } from './errors.js';
import { propertySchema } from '../../apimachinery/schema/property.js';

/**
 * Whether a schema is structural (apiextensions' schema.ValidateStructural): every node has a
 * type (or is int-or-string or preserves unknown fields), arrays have items, the value
 * validations (allOf, anyOf, oneOf, not) only restrict values and only fields specified outside
 * them, metadata at the root only restricts name and generateName. Errors are sorted by their
 * text, as kube sorts them.
 */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, path, path)];
  return errs
    .map((e) => ({ e, text: formatFieldError(e) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map((x) => x.e);
}

type Level = 'root' | 'item' | 'field';

const INT_OR_STRING_ANY_OF: readonly JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];

function invariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (s.type === 'array' && items === undefined) errs.push(required(child(path, 'items'), 'must be specified'));
  if (items !== undefined) errs.push(...invariants(items, 'item', child(path, 'items')));
  for (const [k, v] of Object.entries(s.properties ?? {})) errs.push(...invariants(v, 'field', key(child(path, 'properties'), k)));
  if (s.additionalProperties !== undefined) {
    if (level === 'root') errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') errs.push(...invariants(s.additionalProperties, 'field', child(path, 'additionalProperties')));
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));

  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), level, path));

  const type = s.type ?? '';
  if (embedded && type !== 'object') {
    errs.push(
      type === ''
        ? required(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true')
        : invalid(child(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'),
    );
  } else if (type === '' && !intOrString && !preserve) {
    const detail = { root: 'must not be empty at the root', item: 'must not be empty for specified array items', field: 'must not be empty for specified object fields' }[level];
    errs.push(required(child(path, 'type'), detail));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && type !== '' && type !== 'object') errs.push(invalid(child(path, 'type'), type, 'must be object at the root'));

  const checkMetadata = level === 'root' || embedded;
  const props = s.properties ?? {};
  for (const name of ['kind', 'apiVersion'] as const) {
    const p = props[name];
    if (p !== undefined && checkMetadata && p.type !== 'string') errs.push(invalid(key(child(path, 'properties'), name) + '.type', p.type ?? '', 'must be string'));
  }
  const metadata = props['metadata'];
  if (metadata !== undefined) errs.push(...metadataInvariants(metadata, checkMetadata, level, key(child(path, 'properties'), 'metadata')));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Metadata at the root may only restrict name and generateName (and be an object). */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(child(path, 'type'), s.type ?? '', 'must be object'));
  if (level === 'root') {
    const { type: _type, default: _default, properties, ...rest } = s;
    const names = Object.keys(properties ?? {});
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    if (!onlyNames || Object.keys(rest).length > 0) {
      errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function isIntOrStringAnyOf(anyOf: readonly JSONSchemaProps[] | undefined): boolean {
  return anyOf !== undefined && isDeepStrictEqual(anyOf, INT_OR_STRING_ANY_OF);
}

/** The value validations of a node: what they nest must stay structural; patterns must compile. */
function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((n, i) => errs.push(...nested(n, false, false, level, index(child(path, 'anyOf'), i))));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nested(n, skipFirstAllOfAnyOf && i === 0, false, level, index(child(path, 'allOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nested(n, false, false, level, index(child(path, 'oneOf'), i))));
  if (v.not !== undefined) errs.push(...nested(v.not, false, false, level, child(path, 'not')));
  if (v.pattern !== undefined && v.pattern !== '') {
    try {
      RE2JS.compile(v.pattern);
    } catch (err) {
      errs.push(invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errs;
}

/** A schema inside allOf/anyOf/oneOf/not: only value restrictions, no structure of its own. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, skipAllOfAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, skipAllOfAnyOf, level, path);
  if (v.items !== undefined && !Array.isArray(v.items)) errs.push(...nested(v.items, false, false, level, child(path, 'items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, false, 'field', key(child(path, 'properties'), k)));
  const rule = (field: string, set: boolean, detail: string): void => {
    if (set) errs.push(forbidden(child(path, field), detail));
  };
  rule('type', (v.type ?? '') !== '', 'must be empty to be structural');
  rule('additionalProperties', v.additionalProperties !== undefined, 'must be undefined to be structural');
  rule('default', v.default !== undefined && v.default !== null, 'must be undefined to be structural');
  rule('title', (v.title ?? '') !== '', 'must be empty to be structural');
  rule('description', (v.description ?? '') !== '', 'must be empty to be structural');
  rule('nullable', v.nullable === true, 'must be false to be structural');
  rule('externalDocs', v.externalDocumentation !== undefined, 'must be undefined to be structural');
  rule('x-kubernetes-preserve-unknown-fields', v['x-kubernetes-preserve-unknown-fields'] === true, 'must be false to be structural');
  rule('x-kubernetes-embedded-resource', v['x-kubernetes-embedded-resource'] === true, 'must be false to be structural');
  rule('x-kubernetes-int-or-string', v['x-kubernetes-int-or-string'] === true, 'must be false to be structural');
  rule('x-kubernetes-list-map-keys', (v['x-kubernetes-list-map-keys'] ?? []).length > 0, 'must be empty to be structural');
  rule('x-kubernetes-list-type', v['x-kubernetes-list-type'] !== undefined, 'must be undefined to be structural');
  rule('x-kubernetes-map-type', v['x-kubernetes-map-type'] !== undefined, 'must be undefined to be structural');
  rule('x-kubernetes-validations', (v['x-kubernetes-validations'] ?? []).length > 0, 'must be empty to be structural');
  if (v.properties?.['metadata'] !== undefined) errs.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** Fields and items the root's value validations restrict must be specified structurally too. */
function completeness(s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  return valueValidationCompleteness(s, s, sPath, vPath);
}

function valueValidationCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (v.not !== undefined) errs.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'allOf'), i))));
  (v.anyOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'anyOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, 'oneOf'), i))));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = valueValidationCompleteness(v, s, sPath, vPath);
  if (v.items !== undefined && !Array.isArray(v.items)) {
    const sItems = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    errs.push(...nestedCompleteness(v.items, sItems, child(sPath, 'items'), child(vPath, 'items')));
  }
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const sp = propertySchema(s, k);
    const sChild = key(child(sPath, 'properties'), k);
    const vChild = key(child(vPath, 'properties'), k);
    if (sp === undefined) errs.push(required(sChild, `because it is defined in ${vChild}`));
    else errs.push(...nestedCompleteness(p, sp, sChild, vChild));
  }
  return errs;
}
