import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { Conversion, Defaulter } from '../scheme/conversion.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { RESTStrategy } from './strategy.js';

/**
 * What a group declares of one kind in one version: the vocabulary shared by codegen (which
 * emits it into generated/registry), the scheme (conversions, defaulting) and the server (REST
 * routes, discovery, OpenAPI, tables). Plain data plus the hand-written hooks from apis/; no
 * behaviour of its own, so every layer may read it.
 */
export interface ResourceDefinition {
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly namespaced: boolean;
  readonly verbs: readonly Verb[];
  readonly subresources: {
    readonly status: boolean;
    readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
  };
  readonly printerColumns: readonly PrinterColumnDefinition[];
  readonly selectableFields: readonly string[];
  /** Structural schema of this version, for validation, pruning and defaulting. */
  readonly schema: JSONSchemaProps;
  /**
   * The kind's zero value in this version as Go's encoding/json writes it (scope.Creater.New):
   * `metadata: {creationTimestamp: null}`, every non-pointer struct field as its own zero, every
   * field without omitempty as "" / 0 / false / null; no apiVersion or kind. The live object of a
   * create and of an apply that creates, so managedFields record no `.` for parents Go always
   * writes. Absent for custom resources (unstructured: their zero object is {apiVersion, kind}).
   * Shared by every request: never mutate it, copy it.
   */
  readonly zeroValue?: JSONObject;
  /** Name of the kind's component in the version's OpenAPI document. */
  readonly openapiDefinition: string;
  /** Version ↔ hub conversion; absent where the version's shape equals the hub's. */
  readonly conversion?: Conversion<unknown, unknown>;
  /** Hand-written defaulting of objects in this version. */
  readonly defaults?: Defaulter<never>;
  /** Strategy hooks; set on the hub version's resource. */
  readonly strategy?: RESTStrategy<never>;
}

/** What the registry needs of a generated OpenAPI document: its named schemas. */
export interface OpenAPIComponentsDocument {
  readonly components: { readonly schemas: Readonly<Record<string, unknown>> };
}

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface PrinterColumnDefinition {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  readonly priority: number;
}
