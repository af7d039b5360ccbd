import { KindScheme } from '../apimachinery/scheme/scheme.js';
import type { SchemaValidator } from '../apimachinery/validation/schema-validator.js';
import type { ResourceDefinition } from '../apimachinery/definition/resource.js';
import { withObjectMetaTypes } from '../registry/generic/objectMeta.js';
import type { CreateSubresource } from '../registry/types.js';
import { kindCodec, type RequestScope } from './handlers/scope.js';
import { resourceEndpointRestrictions } from './negotiation/negotiate.js';

/** What a subresource's scope shares with its resource's (the installer's `base`). */
type ResourceScopeBase = Omit<RequestScope, 'subresource' | 'restrictions' | 'tableConvertor' | 'codec' | 'openapi' | 'goTypes' | 'unstructured'>;

/**
 * The scope of a subresource that is created through with a kind of its own (kube installs a
 * NamedCreater that is a GroupVersionKindProvider with that kind as the route's reads and writes:
 * `POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token` decodes, defaults and validates an
 * authentication.k8s.io/v1 TokenRequest and answers one). The resource (groupResource, namespace,
 * NotFound wording) stays the parent's; the kind (decoding, Invalid, the answer) is the subresource's.
 */
export function createSubresourceScope(base: ResourceScopeBase, name: string, sub: CreateSubresource, validator: SchemaValidator): RequestScope {
  const definition = kindDefinition(sub, base.namespaced);
  const scheme = new KindScheme({ name: sub.group, hubVersion: sub.version, storageVersion: sub.version, versions: [{ name: sub.version, resources: [definition] }] }, sub.kind);
  return {
    ...base,
    version: sub.version,
    apiVersion: scheme.apiVersion(sub.version),
    kind: sub.kind,
    groupKind: { group: sub.group, kind: sub.kind },
    definition,
    subresource: name,
    validator,
    tableConvertor: undefined,
    restrictions: resourceEndpointRestrictions({ tableConvertor: false }),
    codec: kindCodec(scheme, sub.version),
    // Decoded as a typed kind: its metadata against ObjectMeta's Go types, wherever its components are published.
    ...withObjectMetaTypes(sub.openapi, sub.goTypes),
    schemeKinds: new Map([[scheme.apiVersion(sub.version), new Set([sub.kind])]]),
  };
}

/** The subresource's kind as the request pipeline reads a kind (schema, OpenAPI name); it is no resource of its own. */
function kindDefinition(sub: CreateSubresource, namespaced: boolean): ResourceDefinition {
  return {
    kind: sub.kind,
    listKind: `${sub.kind}List`,
    plural: '',
    singular: '',
    shortNames: [],
    categories: [],
    namespaced,
    verbs: ['create'],
    subresources: { status: false },
    printerColumns: [],
    selectableFields: [],
    schema: sub.schema,
    openapiDefinition: sub.openapiDefinition,
  };
}
