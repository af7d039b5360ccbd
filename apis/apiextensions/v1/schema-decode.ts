import type { JSONSchemaProps } from './schema.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Fields holding one schema, a list of schemas, or a map of schemas. */
const ONE_SCHEMA = new Set(['not']);
const SCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
/** JSONSchemaPropsOrArray, JSONSchemaPropsOrBool: a schema, or a list of schemas, or a bool. */
const SCHEMA_OR_OTHER = new Set(['items', 'additionalProperties', 'additionalItems']);
const STRING_LISTS = new Set(['required', 'x-kubernetes-list-map-keys']);

/**
 * What Go's decoding of a JSONSchemaProps (an openAPIV3Schema) makes of nulls, in place: a null
 * field is the field's zero, which every field of JSONSchemaProps omits (a nil pointer, "", false,
 * a nil slice or map); a null schema in a list or a map of schemas is the zero schema `{}`; a null
 * string in `required` or the list-map keys is ""; a null validation rule is the zero rule (its
 * `rule` ""). `enum` and `default` values are JSON and stay as sent. The CRD's validation then
 * reads the schema as kube's does, whatever a client wrote into it.
 */
export function decodeSchemaAsGo(schema: JSONSchemaProps | null | undefined): void {
  const work: unknown[] = [schema];
  for (let s = work.pop(); s !== undefined || work.length > 0; s = work.pop()) {
    if (!isObject(s)) continue;
    for (const [k, v] of Object.entries(s)) {
      if (v === null) {
        delete s[k];
      } else if (ONE_SCHEMA.has(k) || SCHEMA_OR_OTHER.has(k)) {
        if (Array.isArray(v)) zeroNullItems(v, () => ({}), work);
        else work.push(v);
      } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) {
        zeroNullItems(v, () => ({}), work);
      } else if (SCHEMA_MAPS.has(k) && isObject(v)) {
        for (const [name, sub] of Object.entries(v)) {
          if (sub === null) Object.defineProperty(v, name, { value: {}, enumerable: true, writable: true, configurable: true });
          else work.push(sub);
        }
      } else if (STRING_LISTS.has(k) && Array.isArray(v)) {
        zeroNullItems(v, () => '', []);
      } else if (k === 'x-kubernetes-validations' && Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          if (v[i] === null) v[i] = { rule: '' };
          else if (isObject(v[i])) for (const [f, x] of Object.entries(v[i] as Record<string, unknown>)) if (x === null) zeroRuleField(v[i] as Record<string, unknown>, f);
        }
      }
    }
  }
}

/** ValidationRule's `rule` is a string without omitempty; its other fields are omitted when zero. */
function zeroRuleField(rule: Record<string, unknown>, field: string): void {
  if (field === 'rule') rule[field] = '';
  else delete rule[field];
}

function zeroNullItems(list: unknown[], zero: () => unknown, work: unknown[]): void {
  for (let i = 0; i < list.length; i++) {
    if (list[i] === null) list[i] = zero();
    else work.push(list[i]);
  }
}
