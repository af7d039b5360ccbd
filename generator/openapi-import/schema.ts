import type { JSONSchemaProps } from '../model/schema.js';
import { pointer, type Problems } from './problems.js';

/** Where a document's definitions are: `#/components/schemas/<name>`. */
const COMPONENTS = '#/components/schemas/';

export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const FIELDS_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1';

/** Keywords kept as they are: what the types, clients and apply read, and the rest of kube's extensions. */
const KEPT = new Set([
  'description',
  'type',
  'format',
  'required',
  'default',
  'enum',
  'nullable',
  'x-kubernetes-group-version-kind',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-unions',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
]);

const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A document's definitions in the model's form: a reference is `$ref:
 * <definition name>` (kube writes `allOf: [{$ref: '#/components/schemas/…'}]`
 * to put a description or default beside it), and the scalars kube
 * publishes as `oneOf` or as a bare object are what the generator makes of
 * the same Go types in apis/ (apis/meta/v1/scalars.ts): IntOrString and
 * Quantity int-or-string, RawExtension and FieldsV1 any JSON object. Any
 * keyword outside what a structural schema and kube's extensions hold is a
 * problem at its JSON pointer: nothing is dropped to make a schema fit.
 */
export function normalizeDefinitions(document: unknown, file: string, problems: Problems): Map<string, JSONSchemaProps> {
  const out = new Map<string, JSONSchemaProps>();
  const components = isNode(document) && isNode(document['components']) ? document['components'] : undefined;
  const schemas = components !== undefined && isNode(components['schemas']) ? components['schemas'] : undefined;
  if (schemas === undefined) {
    problems.add(file, pointer('components', 'schemas'), 'the document has no definitions');
    return out;
  }
  for (const name of Object.keys(schemas).sort()) {
    const at = pointer('components', 'schemas', name);
    const raw = schemas[name];
    if (!isNode(raw)) {
      problems.add(file, at, 'a definition must be a JSON object');
      continue;
    }
    const special = scalarDefinition(name, raw, file, at, problems);
    out.set(name, special ?? normalize(raw, file, at, problems));
  }
  return out;
}

/** The definitions the generator types by name, checked to be what kube publishes for them. */
function scalarDefinition(name: string, raw: Node, file: string, at: string, problems: Problems): JSONSchemaProps | undefined {
  const description = typeof raw['description'] === 'string' ? { description: raw['description'] } : {};
  if (name === INT_OR_STRING || name === QUANTITY) {
    const branches = Array.isArray(raw['oneOf']) ? raw['oneOf'].map((b) => (isNode(b) ? b['type'] : undefined)).sort() : [];
    const expected = name === INT_OR_STRING ? ['integer', 'string'] : ['number', 'string'];
    if (JSON.stringify(branches) !== JSON.stringify(expected)) {
      problems.add(file, at, `${name} is expected to be oneOf ${expected.join(' or ')}, as kube publishes it`);
      return undefined;
    }
    return { ...description, anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
  }
  if (name === RAW_EXTENSION || name === FIELDS_V1) {
    if (raw['type'] !== 'object' || raw['properties'] !== undefined) {
      problems.add(file, at, `${name} is expected to be a bare object, as kube publishes it`);
      return undefined;
    }
    return { ...description, type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
  return undefined;
}

function normalize(raw: Node, file: string, at: string, problems: Problems): JSONSchemaProps {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const here = `${at}${pointer(key)}`;
    if (KEPT.has(key)) {
      if (key === 'type' && (typeof value !== 'string' || !TYPES.has(value))) problems.add(file, here, `unsupported type ${JSON.stringify(value)}`);
      out[key] = value;
    } else if (key === '$ref') {
      const name = refName(value, file, here, problems);
      if (name !== undefined) out['$ref'] = name;
    } else if (key === 'allOf') {
      // kube's only use of allOf: one reference with keywords beside it.
      const only = Array.isArray(value) && value.length === 1 && isNode(value[0]) && Object.keys(value[0]).length === 1 ? value[0]['$ref'] : undefined;
      const name = only === undefined ? undefined : refName(only, file, `${here}/0/$ref`, problems);
      if (only === undefined) problems.add(file, here, 'allOf is only supported around a single $ref');
      if (name !== undefined) out['$ref'] = name;
    } else if (key === 'properties' && isNode(value)) {
      const props: Record<string, JSONSchemaProps> = {};
      for (const [p, s] of Object.entries(value)) {
        // The model's inline expansion (generator/model/inline.ts) assigns properties by name, which
        // would turn this one into a prototype: refused rather than lost.
        if (p === '__proto__') problems.add(file, `${here}${pointer(p)}`, 'a property named __proto__ cannot be represented');
        else if (isNode(s)) props[p] = normalize(s, file, `${here}${pointer(p)}`, problems);
        else problems.add(file, `${here}${pointer(p)}`, 'a property schema must be a JSON object');
      }
      out['properties'] = props;
    } else if (key === 'items' && isNode(value)) {
      out['items'] = normalize(value, file, here, problems);
    } else if (key === 'additionalProperties' && (isNode(value) || typeof value === 'boolean')) {
      out['additionalProperties'] = isNode(value) ? normalize(value, file, here, problems) : value;
    } else {
      problems.add(file, here, `unsupported keyword ${JSON.stringify(key)} (a tuple, a junctor outside kube's scalars, or an unknown extension)`);
    }
  }
  if (out['$ref'] !== undefined && out['type'] !== undefined) problems.add(file, at, '$ref with a type beside it');
  return out as JSONSchemaProps;
}

function refName(value: unknown, file: string, at: string, problems: Problems): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(COMPONENTS) || value.length === COMPONENTS.length) {
    problems.add(file, at, `$ref ${JSON.stringify(value)} does not name a definition of the document (${COMPONENTS}…)`);
    return undefined;
  }
  return value.slice(COMPONENTS.length);
}

/** The definitions `schema` refers to, directly. */
export function refsOf(schema: JSONSchemaProps): string[] {
  const out: string[] = [];
  const visit = (s: JSONSchemaProps): void => {
    if (s.$ref !== undefined) out.push(s.$ref);
    for (const p of Object.values(s.properties ?? {})) visit(p);
    if (s.items !== undefined && !Array.isArray(s.items)) visit(s.items);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
  };
  visit(schema);
  return out;
}
