import type { OpenAPIComponentsDocument, ResourceDefinition } from '../apimachinery/definition/resource.js';

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
