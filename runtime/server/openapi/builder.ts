import type { APIGroupDefinition, CreateSubresource } from '../../registry/types.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { metaSchemas, scaleSchemas, schemaRef } from '../../apimachinery/definition/meta-schemas.js';
import { resourcePaths } from './operations.js';
import { BUILTIN_PATCH_TYPES, type GroupVersionOpenAPIInput, type OpenAPIResource, type OpenAPIV3Document, type PatchType, type PathItem } from './types.js';

export const OPENAPI_INFO = { title: 'Kubernetes', version: 'v1.32.0' } as const;

const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

/**
 * The full OpenAPI 3.0 document of one group version: every route the server serves for each
 * resource, and the components they need (the version's schemas, kinds and list kinds tagged
 * with their GVK array, the meta types of the paths). Paths and schemas are sorted, so equal
 * inputs give byte-equal documents (and hashes). Throws when a $ref cannot be resolved.
 */
export function buildGroupVersionOpenAPI(input: GroupVersionOpenAPIInput): OpenAPIV3Document {
  const schemas: Record<string, unknown> = structuredClone({ ...input.schemas }) as Record<string, unknown>;
  const paths: Record<string, PathItem> = {};
  for (const resource of input.resources) {
    const listDefinition = resource.listDefinition ?? replaceLastSegment(resource.definition, resource.listKind);
    if (schemas[resource.definition] === undefined) throw new Error(`openapi: ${input.group}/${input.version} ${resource.kind}: no schema ${JSON.stringify(resource.definition)}`);
    tagKind(schemas, resource.definition, { group: input.group, kind: resource.kind, version: input.version });
    schemas[listDefinition] ??= listSchema(resource, input.group, input.version);
    tagKind(schemas, listDefinition, { group: input.group, kind: resource.listKind, version: input.version });
    for (const sub of resource.createSubresources ?? []) {
      for (const [name, schema] of Object.entries(sub.schemas)) schemas[name] ??= structuredClone(schema);
      tagKind(schemas, sub.definition, sub.gvk);
    }
    Object.assign(paths, resourcePaths({ group: input.group, version: input.version, resource, listDefinition, patchTypes: input.patchTypes }));
  }
  const withScale = input.resources.some((r) => r.subresources?.scale === true);
  const meta = { ...metaSchemas(input.group, input.version), ...(withScale ? scaleSchemas() : {}) };
  for (const [name, schema] of Object.entries(meta)) schemas[name] ??= schema;
  resolveReferences(schemas, paths, input.referenceSchemas ?? {});
  return { openapi: '3.0.0', info: { ...OPENAPI_INFO }, paths: sortKeys(paths), components: { schemas: sortKeys(schemas) } };
}

export interface GroupVersionOpenAPI {
  readonly group: string;
  readonly version: string;
  readonly document: OpenAPIV3Document;
}

export interface GroupDefinitionOpenAPIOptions {
  /** Default BUILTIN_PATCH_TYPES: the groups of apis/ support strategic merge patch. */
  readonly patchTypes?: readonly PatchType[];
  readonly referenceSchemas?: Readonly<Record<string, unknown>>;
  /** By Kind: the subresources REST overrides contribute (RESTStorageOverride.subresources). */
  readonly subresources?: ReadonlyMap<string, Readonly<Record<string, CreateSubresource>>>;
}

/**
 * One document per served version of a built-in group, from its generated components. Each
 * `document` is built on its first read (and kept), so that a caller handing
 * `() => gv.document` to OpenAPIService.setGroupVersion builds nothing before a client asks.
 */
export function openAPIFromGroupDefinition(def: APIGroupDefinition, options: GroupDefinitionOpenAPIOptions = {}): GroupVersionOpenAPI[] {
  return def.versions.map((v) => {
    let document: OpenAPIV3Document | undefined;
    return {
      group: def.name,
      version: v.name,
      get document(): OpenAPIV3Document {
        return (document ??= buildGroupVersionOpenAPI({
          group: def.name,
          version: v.name,
          schemas: v.openapi.components.schemas,
          patchTypes: options.patchTypes ?? BUILTIN_PATCH_TYPES,
          ...(options.referenceSchemas ? { referenceSchemas: options.referenceSchemas } : {}),
          resources: v.resources.map((r) => openAPIResource(r, options.subresources?.get(r.kind))),
        }));
      },
    };
  });
}

function replaceLastSegment(definition: string, kind: string): string {
  const dot = definition.lastIndexOf('.');
  return dot < 0 ? kind : `${definition.slice(0, dot + 1)}${kind}`;
}

/** Adds the GVK to the schema's x-kubernetes-group-version-kind array unless it is there. */
function tagKind(schemas: Record<string, unknown>, name: string, gvk: { group: string; kind: string; version: string }): void {
  const schema = schemas[name];
  if (!isObject(schema)) return;
  const existing = Array.isArray(schema[GVK_EXTENSION]) ? (schema[GVK_EXTENSION] as unknown[]) : [];
  const present = existing.some((e) => isObject(e) && e['group'] === gvk.group && e['kind'] === gvk.kind && e['version'] === gvk.version);
  if (!present) schema[GVK_EXTENSION] = [...existing, gvk];
}

function listSchema(resource: OpenAPIResource, group: string, version: string): unknown {
  return {
    description: `${resource.listKind} is a list of ${resource.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: 'The versioned schema of this representation of an object.' },
      items: { type: 'array', description: `List of ${resource.name}.`, items: schemaRef(resource.definition) },
      kind: { type: 'string', description: 'The REST resource this object represents.' },
      metadata: { description: 'Standard list metadata.', allOf: [schemaRef('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta')] },
    },
    [GVK_EXTENSION]: [{ group, kind: resource.listKind, version }],
  };
}

const REF_PREFIX = '#/components/schemas/';

/** Copies referenced-but-missing schemas from `reference`, transitively; throws on a dangling $ref. */
function resolveReferences(schemas: Record<string, unknown>, paths: unknown, reference: Readonly<Record<string, unknown>>): void {
  const pending = [...collectRefs(paths), ...collectRefs(schemas)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (schemas[name] !== undefined) continue;
    const found = reference[name];
    if (found === undefined) throw new Error(`openapi: unresolved reference ${REF_PREFIX}${name}`);
    schemas[name] = structuredClone(found);
    pending.push(...collectRefs(found));
  }
}

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF_PREFIX)) out.push(v.slice(REF_PREFIX.length));
      else collectRefs(v, out);
    }
  }
  return out;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the OpenAPI builder needs of a served resource's definition. */
export function openAPIResource(r: ResourceDefinition, subresources: Readonly<Record<string, CreateSubresource>> = {}): OpenAPIResource {
  const createSubresources = Object.entries(subresources).map(([name, sub]) => ({
    name,
    gvk: { group: sub.group, kind: sub.kind, version: sub.version },
    definition: sub.openapiDefinition,
    schemas: sub.openapi.components.schemas,
  }));
  return {
    ...(createSubresources.length > 0 ? { createSubresources } : {}),
    name: r.plural,
    kind: r.kind,
    listKind: r.listKind,
    namespaced: r.namespaced,
    verbs: r.verbs,
    definition: r.openapiDefinition,
    subresources: { status: r.subresources.status, scale: r.subresources.scale !== undefined },
  };
}
