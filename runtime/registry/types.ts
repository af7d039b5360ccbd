import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import type { Conversion, Defaulter } from '../apimachinery/scheme/conversion.js';
import type { RESTStrategy } from '../apimachinery/definition/strategy.js';

/**
 * REST storage definitions: what generated/registry/<group>.ts declares for
 * each group from apis/, and what the core server mounts. Plain data plus the
 * hand-written hooks imported from apis/; no behaviour of its own.
 */
export interface APIGroupDefinition {
  readonly name: string;
  /** Served versions in priority order; the first is the preferred version. */
  readonly versions: readonly APIVersionDefinition[];
  /** The version whose types are the hub of conversions. */
  readonly hubVersion: string;
  /** The version objects are encoded in at rest. */
  readonly storageVersion: string;
}

export interface APIVersionDefinition {
  readonly name: string;
  /** Set when the version is deprecated: clients get `warning` as a Warning header. */
  readonly deprecation?: { readonly warning: string };
  /**
   * The version's generated OpenAPI 3 document (components only): the runtime adds the
   * paths of the routes it serves, with the same builder it uses for CRDs.
   */
  readonly openapi: OpenAPIComponentsDocument;
  readonly resources: readonly ResourceDefinition[];
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
  /** Name of the kind's component in the version's OpenAPI document. */
  readonly openapiDefinition: string;
  /** Version ↔ hub conversion; absent where the version's shape equals the hub's. */
  readonly conversion?: Conversion<unknown, unknown>;
  /** Hand-written defaulting of objects in this version. */
  readonly defaults?: Defaulter<never>;
  /** Strategy hooks; set on the hub version's resource. */
  readonly strategy?: RESTStrategy<never>;
}
