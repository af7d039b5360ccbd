import { OPENAPI_INFO } from './builder.js';
import type { SwaggerV2Document } from './swagger-v2-merge.js';
import type { HTTPMethod, MediaTypes, Operation, Parameter, PathItem, OpenAPIV3Document } from './types.js';

/**
 * One Swagger 2.0 document merged from the group versions' OpenAPI 3 documents (the shape of
 * kube-apiserver's /openapi/v2, for clients' strategic-merge-patch and validation fallbacks):
 * components.schemas become definitions with `#/definitions/` references and no
 * OpenAPI-3-only keywords; request bodies become `body` parameters with `consumes`; response
 * content becomes `schema` with `produces`. x-kubernetes-* extensions are kept as they are.
 * A definition named in `v2Schemas` is converted from that schema instead of the document's
 * (a CRD kind as kube's v2 builder publishes it).
 */
export function toSwaggerV2(documents: readonly OpenAPIV3Document[], v2Schemas: ReadonlyMap<string, unknown> = new Map()): SwaggerV2Document {
  const paths: Record<string, unknown> = {};
  const definitions: Record<string, unknown> = {};
  for (const doc of documents) {
    for (const [path, item] of Object.entries(doc.paths)) paths[path] = convertPathItem(item);
    for (const [name, schema] of Object.entries(doc.components.schemas)) definitions[name] = convertSchema(v2Schemas.has(name) ? v2Schemas.get(name) : schema);
  }
  return { swagger: '2.0', info: { ...OPENAPI_INFO }, paths: sorted(paths), definitions: sorted(definitions) };
}

const METHODS: readonly HTTPMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

function convertPathItem(item: PathItem): unknown {
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const op = item[method];
    if (op !== undefined) out[method] = convertOperation(op);
  }
  if (item.parameters !== undefined) out['parameters'] = item.parameters.map(convertParameter);
  return out;
}

function convertOperation(op: Operation): unknown {
  const { requestBody, responses, parameters, ...rest } = op;
  const out: Record<string, unknown> = { ...rest };
  const params: unknown[] = (parameters ?? []).map(convertParameter);
  if (requestBody !== undefined) {
    const types = Object.keys(requestBody.content);
    out['consumes'] = types;
    const first = types[0] === undefined ? undefined : requestBody.content[types[0]];
    params.unshift({ name: 'body', in: 'body', required: requestBody.required, schema: convertSchema(first?.schema ?? { type: 'object' }) });
  }
  if (params.length > 0) out['parameters'] = params;
  const produces = new Set<string>();
  const v2Responses: Record<string, unknown> = {};
  for (const [code, response] of Object.entries(responses)) {
    const content: MediaTypes = response.content ?? {};
    for (const t of Object.keys(content)) produces.add(t);
    const schema = Object.values(content)[0]?.schema;
    v2Responses[code] = schema === undefined ? { description: response.description } : { description: response.description, schema: convertSchema(schema) };
  }
  if (produces.size > 0) out['produces'] = [...produces];
  out['responses'] = v2Responses;
  return out;
}

function convertParameter(p: Parameter): unknown {
  const { schema, ...rest } = p;
  return { ...rest, ...schema };
}

const V3_ONLY = new Set(['nullable', 'anyOf', 'oneOf', 'not']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties']);

/**
 * A schema in Swagger 2.0 form; only schema positions are rewritten (property names are left alone).
 *
 * OpenAPI 3 wraps a reference in `allOf: [{$ref}]` to carry a description beside it; Swagger 2.0
 * readers (kubectl 1.27/1.28's, kube-openapi's proto.Models) follow only a schema's own `$ref` and
 * treat an `allOf` one as a field of unknown type, which turns three-way apply into a plain merge
 * that never deletes. So the reference moves up beside the description, as kube-openapi writes
 * built-in kinds in v2, and any other `allOf` (value validations of a CRD schema) is dropped, as
 * kube's CRD v2 builder does: v2 keeps structure, not junctors.
 */
function convertSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  const lifted = schemaRefOf(schema as Record<string, unknown>);
  if (lifted !== undefined) out['$ref'] = toDefinitionsRef(lifted);
  for (const [k, v] of Object.entries(schema)) {
    if (V3_ONLY.has(k) || k === 'allOf' || k === '$ref') continue;
    if (SCHEMA_MAPS.has(k) && typeof v === 'object' && v !== null) out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, convertSchema(s)]));
    else if (SCHEMA_VALUES.has(k)) out[k] = convertSchema(v);
    else out[k] = v;
  }
  return out;
}

/** The schema's own `$ref`, else the `$ref` of an `allOf` member that is nothing but a reference. */
function schemaRefOf(schema: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof schema['$ref'] === 'string') return schema['$ref'];
  const allOf = schema['allOf'];
  if (!Array.isArray(allOf)) return undefined;
  for (const member of allOf) {
    if (typeof member !== 'object' || member === null) continue;
    const keys = Object.keys(member);
    const ref = (member as Record<string, unknown>)['$ref'];
    if (keys.length === 1 && typeof ref === 'string') return ref;
  }
  return undefined;
}

function toDefinitionsRef(ref: string): string {
  return ref.replace('#/components/schemas/', '#/definitions/');
}

function sorted(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
