import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { newPathNotFound } from '../../apimachinery/errors/index.js';
import type { GVKSchema } from '../../apimachinery/managedfields/typeconverter.js';
import { kindSchemas } from '../../apimachinery/managedfields/gvk-schemas.js';
import type { JSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import type { APIGroupDefinition } from '../../registry/types.js';
import type { ResourceDescriptor } from '../types.js';

/** The verbs a resource serves, as discovery lists them. */
export type FakeVerb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/**
 * What the fake needs to serve a resource as the API server would: its
 * descriptor (from the generated clientset), the verbs and subresources the
 * server registers, the fields a field selector may use, and the structural
 * schema strategic merge patch reads list strategies from.
 */
export interface FakeResource {
  readonly descriptor: ResourceDescriptor;
  /** Default: every verb. */
  readonly verbs?: readonly FakeVerb[];
  readonly subresources?: {
    readonly status?: boolean;
    readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
  };
  /** JSON paths (`.spec.referenceType`) selectable besides metadata.name and metadata.namespace. */
  readonly selectableFields?: readonly string[];
  /**
   * What a field selector does (default `applied`: metadata.name, metadata.namespace and
   * `selectableFields` filter lists and watches, any other field is kube's 400, as the server).
   * `ignored`: the kind is selected as client-go's fake selects every kind: a field selector is
   * parsed and never applied, a label selector filters lists only (its typed fakes filter a
   * list by labels), and a watch sees every object of its namespace (its tracker's watch takes
   * no selectors); a selector that does not parse still fails. The Kubernetes fake clientset's
   * kinds, whose field sets are kube's code, not part of the schemas they are generated from.
   */
  readonly fieldSelectors?: 'applied' | 'ignored';
  /** Without it, strategic merge patch replaces lists as a JSON merge patch does. */
  readonly schema?: JSONSchemaProps;
  /** False for custom resources (CRDs): the server answers 415 to strategic merge patches. Default true. */
  readonly strategicMergePatch?: boolean;
  /**
   * The types managedFields are computed with, as the server types the kind (its published
   * OpenAPI definition: list keys the validation schema leaves out, such as a Service port's
   * protocol). Default: `schema`.
   */
  readonly managedFieldsTypes?: GVKSchema;
  /** The kind's zero object (the live object of a create and of an apply that creates), as the server's. Default: none. */
  readonly zeroValue?: JSONObject;
}

/**
 * The FakeResource of a kind the server itself registers: its verbs, subresources, selectable
 * fields and schema read from the same generated definition the server installs, so the fake
 * cannot drift from the server.
 */
export function registeredFakeResource(descriptor: ResourceDescriptor, group: APIGroupDefinition): FakeResource {
  const def = group.versions.find((v) => v.name === descriptor.version)?.resources.find((r) => r.plural === descriptor.resource);
  if (def === undefined) throw new Error(`${group.name}/${descriptor.version} registers no resource ${descriptor.resource}`);
  const managedFieldsTypes = kindSchemas(group, def.kind).find((s) => s.apiVersion === apiVersionOf(descriptor));
  return {
    descriptor,
    verbs: def.verbs,
    subresources: { status: def.subresources.status, ...(def.subresources.scale !== undefined ? { scale: def.subresources.scale } : {}) },
    selectableFields: def.selectableFields,
    schema: def.schema,
    ...(managedFieldsTypes !== undefined ? { managedFieldsTypes } : {}),
    ...(def.zeroValue !== undefined ? { zeroValue: def.zeroValue } : {}),
  };
}

export const ALL_VERBS: readonly FakeVerb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function gvrString(r: GroupVersionResource): string {
  return r.group === '' ? `${r.version}/${r.resource}` : `${r.group}/${r.version}/${r.resource}`;
}

export function apiVersionOf(d: { readonly group: string; readonly version: string }): string {
  return d.group === '' ? d.version : `${d.group}/${d.version}`;
}

/** The resources a tracker serves, found by resource or by kind. */
export class ResourceTable {
  readonly #byResource = new Map<string, FakeResource>();
  readonly #byKind = new Map<string, FakeResource>();

  constructor(resources: readonly FakeResource[]) {
    for (const r of resources) {
      const key = gvrString(r.descriptor);
      if (this.#byResource.has(key)) throw new Error(`fake: resource ${key} declared twice`);
      this.#byResource.set(key, r);
      this.#byKind.set(`${apiVersionOf(r.descriptor)}/${r.descriptor.kind}`, r);
    }
  }

  all(): readonly FakeResource[] {
    return [...this.#byResource.values()];
  }

  /** Undefined for a resource the fake does not serve. */
  find(gvr: GroupVersionResource): FakeResource | undefined {
    return this.#byResource.get(gvrString(gvr));
  }

  /** The resource or kube's 404 for a path no server serves. */
  get(gvr: GroupVersionResource): FakeResource {
    const r = this.find(gvr);
    if (r === undefined) throw newPathNotFound();
    return r;
  }

  byKind(apiVersion: string, kind: string): FakeResource | undefined {
    return this.#byKind.get(`${apiVersion}/${kind}`);
  }
}

export function servesVerb(r: FakeResource, verb: FakeVerb): boolean {
  return (r.verbs ?? ALL_VERBS).includes(verb);
}
