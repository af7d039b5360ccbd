import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { ObjectMeta } from '../../../apis/meta/v1/types.js';
import { isJSONObject } from '../serializer/jsonvalue.js';
import type { FieldError } from '../validation/field.js';
import { propertySchema } from './property.js';
import { isDNS1035Label, validatePathSegmentName } from '../validation/names.js';
import { validateObjectMeta } from '../validation/objectmeta.js';

/**
 * Validation of `x-kubernetes-embedded-resource` values (apiextensions' objectmeta.Validate
 * below the root): apiVersion and kind are required (a parseable group/version, a kind that is
 * a DNS-1035 label but for case), metadata is ObjectMeta with path-segment names (an empty
 * name is fine: embedded objects are often templates). Paths are kube's (`spec.template.kind`,
 * map values as `spec.m[key]`). Pure; follows the schema.
 */
export function validateEmbeddedResources(obj: unknown, schema: JSONSchemaProps | undefined, path = ''): FieldError[] {
  if (schema === undefined) return [];
  if (Array.isArray(obj)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    return items === undefined ? [] : obj.flatMap((v, i) => validateEmbeddedResources(v, items, `${path}[${i}]`));
  }
  if (!isJSONObject(obj)) return [];
  const errs: FieldError[] = path !== '' && schema['x-kubernetes-embedded-resource'] === true ? validateEmbedded(obj, path) : [];
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [k, v] of Object.entries(obj)) {
    const prop = propertySchema(schema, k);
    if (prop !== undefined) errs.push(...validateEmbeddedResources(v, prop, path === '' ? k : `${path}.${k}`));
    else if (additional !== undefined) errs.push(...validateEmbeddedResources(v, additional, `${path}[${k}]`));
  }
  return errs;
}

function validateEmbedded(x: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const at = (f: string): string => `${path}.${f}`;
  if (!('apiVersion' in x)) errs.push({ type: 'FieldValueRequired', field: at('apiVersion'), detail: '' });
  if (!('kind' in x)) errs.push({ type: 'FieldValueRequired', field: at('kind'), detail: '' });
  if ('apiVersion' in x) {
    const v = x['apiVersion'];
    if (typeof v !== 'string') errs.push({ type: 'FieldValueInvalid', field: at('apiVersion'), badValue: v, detail: 'must be a string' });
    else if (v === '') errs.push({ type: 'FieldValueInvalid', field: at('apiVersion'), badValue: v, detail: 'must not be empty' });
    else if (v.split('/').length > 2) errs.push({ type: 'FieldValueInvalid', field: at('apiVersion'), badValue: v, detail: `unexpected GroupVersion string: ${v}` });
  }
  if ('kind' in x) {
    const k = x['kind'];
    if (typeof k !== 'string') errs.push({ type: 'FieldValueInvalid', field: at('kind'), badValue: k, detail: 'must be a string' });
    else if (k === '') errs.push({ type: 'FieldValueInvalid', field: at('kind'), badValue: k, detail: 'must not be empty' });
    else {
      const problems = isDNS1035Label(k.toLowerCase());
      if (problems.length > 0) errs.push({ type: 'FieldValueInvalid', field: at('kind'), badValue: k, detail: `may have mixed case, but should otherwise match: ${problems.join(',')}` });
    }
  }
  const m = x['metadata'];
  if (m !== undefined) {
    if (!isJSONObject(m)) errs.push({ type: 'FieldValueInvalid', field: at('metadata'), badValue: m, detail: 'must be an object' });
    else {
      const meta = { ...(m as ObjectMeta) };
      // An embedded object may leave its name to whoever instantiates it.
      if ((meta.name ?? '') === '') meta.name = 'fakename';
      errs.push(...validateObjectMeta(meta, { namespaced: (meta.namespace ?? '') !== '', nameValidation: validatePathSegmentName }, at('metadata')));
    }
  }
  return errs;
}
