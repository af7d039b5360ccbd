import type { CustomResourceDefinition, JSONSchemaProps } from '../../../apis/apiextensions/v1/types.js';
import { coreGroup } from '../../../generated/registry/core.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { buildGroupVersionOpenAPI, CUSTOM_RESOURCE_PATCH_TYPES, openAPIResource, type OpenAPIResource, type OpenAPIV3Document } from '../../server/openapi/index.js';
import { crdGroupDefinition } from '../definition.js';
import { isConditionTrue, NON_STRUCTURAL_SCHEMA } from './conditions.js';
import { pruneDefaults, toStructuralOpenAPIV2 } from './openapi-v2.js';

const GVK_EXTENSION = 'x-kubernetes-group-version-kind';
const OBJECT_META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** kube's TypeMeta and object-metadata descriptions, which `kubectl explain` prints. */
const API_VERSION = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};
const KIND = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};
const METADATA = {
  description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  allOf: [{ $ref: OBJECT_META_REF }],
};

/** ObjectMeta, ListMeta and what they reference: taken from the core group's generated document. */
const META_REFERENCE: Readonly<Record<string, unknown>> = coreGroup.versions[0]!.openapi.components.schemas;

/**
 * The OpenAPI 3.0 document of one CRD group version (kube's openapi builder, merged over the
 * CRDs of the group as the openapiv3 controller does): the routes of every CRD serving the
 * version, built by the same builder as the built-in groups' documents, from the CRDs' group
 * definitions, so names and subresources are those served. Each kind's schema is the CRD's
 * (unfolded as kube does: int-or-string as anyOf, embedded resources with their type and object
 * metadata) with apiVersion, kind and metadata added, or an open object when the schema is not
 * structural. PATCH accepts JSON, merge and apply patches (never strategic merge), with the
 * operation-level fieldValidation parameter kubectl looks for. Undefined when no CRD serves the
 * version. CRDs are taken in name order, so equal inputs give byte-equal documents.
 */
export function crdGroupVersionOpenAPI(group: string, version: string, crds: readonly CustomResourceDefinition[]): OpenAPIV3Document | undefined {
  const schemas: Record<string, unknown> = {};
  const resources: OpenAPIResource[] = [];
  for (const crd of [...crds].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1))) {
    const r = servedResource(crd, version);
    if (r === undefined || crd.spec.group !== group) continue;
    schemas[r.openapiDefinition] = isConditionTrue(crd, NON_STRUCTURAL_SCHEMA) ? { type: 'object' } : kindSchema(r.schema);
    resources.push(openAPIResource(r));
  }
  if (resources.length === 0) return undefined;
  return buildGroupVersionOpenAPI({ group, version, resources, schemas, patchTypes: CUSTOM_RESOURCE_PATCH_TYPES, referenceSchemas: META_REFERENCE });
}

/** The resource a CRD serves at `version`, or undefined (not served, or no storage version). */
function servedResource(crd: CustomResourceDefinition, version: string): ResourceDefinition | undefined {
  if (crd.spec.versions.find((v) => v.name === version)?.served !== true) return undefined;
  if (!crd.spec.versions.some((v) => v.storage)) return undefined;
  return crdGroupDefinition(crd).versions.find((v) => v.name === version)?.resources[0];
}

function kindSchema(schema: JSONSchemaProps): Record<string, unknown> {
  const s = withEmbeddedProperties(unfold(schema), false) as Record<string, unknown> & JSONSchemaProps;
  s.type ??= 'object';
  s.properties = { ...s.properties, apiVersion: API_VERSION, kind: KIND, metadata: METADATA } as JSONSchemaProps['properties'];
  return s;
}

/**
 * The Swagger 2.0 schemas (in OpenAPI 3 form, by definition name) of the kinds a group version of
 * CRDs serves, as kube's CRD v2 builder publishes them so that kubectl's client-side validation
 * from /openapi/v2 accepts every object the server accepts: a kind whose root (or whose CRD)
 * preserves unknown fields is an open object with nothing else; otherwise the schema unfolded,
 * cut down by toStructuralOpenAPIV2, with TypeMeta/ObjectMeta added, embedded resources
 * completed except under preserved unknown fields, and defaults pruned (as kube prunes them before
 * merging into the static spec). Keys are the same definitions crdGroupVersionOpenAPI names.
 */
export function crdSwaggerV2Schemas(group: string, version: string, crds: readonly CustomResourceDefinition[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const crd of crds) {
    const r = servedResource(crd, version);
    if (r === undefined || crd.spec.group !== group) continue;
    const gvk = { [GVK_EXTENSION]: [{ group, kind: r.kind, version }] };
    const preserved = crd.spec.preserveUnknownFields === true || r.schema['x-kubernetes-preserve-unknown-fields'] === true;
    const open = isConditionTrue(crd, NON_STRUCTURAL_SCHEMA) || preserved;
    out.set(r.openapiDefinition, open ? { type: 'object', ...gvk } : { ...kindSchemaV2(r.schema), ...gvk });
  }
  return out;
}

function kindSchemaV2(schema: JSONSchemaProps): Record<string, unknown> {
  const s = toStructuralOpenAPIV2(unfold(schema) as Record<string, unknown>) as Record<string, unknown> & JSONSchemaProps;
  s.properties = { ...s.properties, apiVersion: API_VERSION, kind: KIND, metadata: METADATA } as JSONSchemaProps['properties'];
  return pruneDefaults(withEmbeddedProperties(s, true) as Record<string, unknown>);
}

/** A copy of `schema` with kube's Unfold applied at every node: int-or-string as anyOf integer/string. */
function unfold(schema: JSONSchemaProps): JSONSchemaProps {
  const s = mapChildren(schema, unfold);
  if (s['x-kubernetes-int-or-string'] === true && s.anyOf === undefined && s.allOf === undefined) {
    s.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  return s;
}

/**
 * A copy of `schema` whose embedded resources carry apiVersion, kind and metadata (required kind
 * and apiVersion), as kube's addEmbeddedProperties; for v2 not where unknown fields are preserved,
 * since kubectl would then reject every other field there.
 */
function withEmbeddedProperties(schema: JSONSchemaProps, v2: boolean): JSONSchemaProps {
  const s = mapChildren(schema, (c) => withEmbeddedProperties(c, v2));
  if (v2 && s['x-kubernetes-preserve-unknown-fields'] === true) return s;
  if (s['x-kubernetes-embedded-resource'] === true) {
    s.properties = { ...s.properties, apiVersion: API_VERSION, kind: KIND, metadata: METADATA } as JSONSchemaProps['properties'];
    const required = new Set(s.required ?? []);
    s.required = [...(s.required ?? []), ...['kind', 'apiVersion'].filter((r) => !required.has(r))];
  }
  return s;
}

/** A shallow copy of `schema` with `f` applied to its properties, items and additionalProperties schemas. */
function mapChildren(schema: JSONSchemaProps, f: (child: JSONSchemaProps) => JSONSchemaProps): JSONSchemaProps {
  const s: JSONSchemaProps = { ...schema };
  if (s.properties !== undefined) s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, f(v)]));
  if (s.items !== undefined && !Array.isArray(s.items)) s.items = f(s.items as JSONSchemaProps);
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) s.additionalProperties = f(s.additionalProperties as JSONSchemaProps);
  return s;
}
