/** The OpenAPI 3.0 document of one group version, as served at /openapi/v3/<key>. */
export interface OpenAPIV3Document {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: { readonly schemas: Readonly<Record<string, unknown>> };
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly description: string;
  readonly required?: boolean;
  readonly schema: { readonly type: 'string' | 'boolean' | 'integer'; readonly uniqueItems?: boolean };
}

export type MediaTypes = Readonly<Record<string, { readonly schema: unknown }>>;

export interface Operation {
  readonly tags: readonly string[];
  readonly description: string;
  readonly operationId: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: MediaTypes; readonly required: boolean };
  readonly responses: Readonly<Record<string, { readonly description: string; readonly content?: MediaTypes }>>;
  readonly 'x-kubernetes-action': KubernetesAction;
  readonly 'x-kubernetes-group-version-kind': GroupVersionKindRef;
}

export type HTTPMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export type PathItem = Partial<Record<HTTPMethod, Operation>> & { readonly parameters?: readonly Parameter[] };

export type KubernetesAction = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

/** Keys in the order kube-openapi prints them (sorted). */
export interface GroupVersionKindRef {
  readonly group: string;
  readonly kind: string;
  readonly version: string;
}

export type PatchType = 'application/apply-patch+yaml' | 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json';

/** What custom resources accept: no strategic merge patch. */
export const CUSTOM_RESOURCE_PATCH_TYPES: readonly PatchType[] = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];

/** What the groups defined in apis/ accept. */
export const BUILTIN_PATCH_TYPES: readonly PatchType[] = [...CUSTOM_RESOURCE_PATCH_TYPES, 'application/strategic-merge-patch+json'];

/** One resource of the group version, as the paths builder needs it. */
export interface OpenAPIResource {
  /** Plural resource name (URL segment). */
  readonly name: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  /** Which routes exist: get, list (with watch as a query parameter), create, update, patch, delete, deletecollection. */
  readonly verbs: readonly string[];
  /** Name of the kind's schema in `schemas`. */
  readonly definition: string;
  /** Name of the list kind's schema; synthesized when `schemas` lacks it. Default: `definition` with the kind replaced by listKind. */
  readonly listDefinition?: string;
  readonly subresources?: { readonly status?: boolean; readonly scale?: boolean };
  /** Subresources created through with a kind of their own (`serviceaccounts/{name}/token`): a POST route each. */
  readonly createSubresources?: readonly CreateSubresourceRoute[];
}

/** A POST-only subresource whose body and answer are `definition`, a kind of another group version. */
export interface CreateSubresourceRoute {
  /** The path segment: `token`. */
  readonly name: string;
  readonly gvk: GroupVersionKindRef;
  /** Name of the kind's schema in `schemas`. */
  readonly definition: string;
  /** Components holding the kind's schema and what it references; added where the version's own lack them. */
  readonly schemas: Readonly<Record<string, unknown>>;
}

export interface GroupVersionOpenAPIInput {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly OpenAPIResource[];
  /** components.schemas of the version: the generated document's, or the caller's for CRDs. Not mutated. */
  readonly schemas: Readonly<Record<string, unknown>>;
  /** PATCH request body media types offered; strategic merge patch only where supported. */
  readonly patchTypes: readonly PatchType[];
  /**
   * Schemas to take referenced-but-missing components from (for CRDs: ObjectMeta and the
   * apimachinery types it references). The few meta types the paths reference (Status,
   * DeleteOptions, Patch, WatchEvent, autoscaling/v1 Scale) are built in.
   */
  readonly referenceSchemas?: Readonly<Record<string, unknown>>;
}
