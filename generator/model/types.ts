/**
 * The API model: the one validated intermediate representation that every
 * artefact under generated/ is emitted from. It is plain data (no ts-morph
 * nodes, no functions) so emitters stay pure and the model can be built
 * either from TypeScript sources (generator/parse) or from CRD manifests
 * (generator/crd-import).
 *
 * Arrays in the model are always sorted (groups by name, versions by
 * Kubernetes version priority, kinds by name): emitters may rely on the order
 * and never sort again.
 */
import type { PrinterColumnDefinition, Verb } from '../../runtime/apimachinery/definition/resource.js';
import type { GoTypeName } from '../../runtime/apimachinery/schema/typeddecode.js';
import type { ProtoMessage } from './protobuf.js';
import type { JSONSchemaProps } from './schema.js';

export type { Verb };

export interface ApiModel {
  readonly groups: readonly GroupModel[];
  /**
   * Named schemas of every type in apis/ keyed by OpenAPI definition name
   * (`com.example.wardle.v1alpha1.FlunderSpec`); they reference each other
   * with `$ref: <name>`. Sorted by name.
   */
  readonly definitions: Readonly<Record<string, JSONSchemaProps>>;
  /**
   * The Go type names of the definitions' fields that are named types (a field of type alias
   * `ServiceType` is Go's `v1.ServiceType` where its schema says string), by definition name and
   * JSON field name, for typed decoding's errors. Absent when the model comes from manifests or
   * published OpenAPI, which do not name Go types.
   */
  readonly goTypes?: Readonly<Record<string, Readonly<Record<string, GoTypeName>>>>;
}

export interface GroupModel {
  /** API group name; `""` is the legacy core group served under /api. */
  readonly name: string;
  /** Directory under apis/ (relative, forward slashes), or undefined for imported CRDs. */
  readonly dir: string | undefined;
  /** camelCase accessor stem used by clients: `wardle`, `core`, `apiextensions`. */
  readonly clientName: string;
  /** Versions sorted by Kubernetes version priority, preferred version first. */
  readonly versions: readonly VersionModel[];
  /** Where the group's types came from: TypeScript sources or an imported CRD manifest. */
  readonly origin: 'source' | 'crd';
  /**
   * `group` from apis/<group>/group.ts: what the group declares beyond its types (admission
   * plugins, REST overrides, the server that serves it), put on its registry definition.
   */
  readonly declaration?: TypeRef;
}

export interface VersionModel {
  readonly name: string;
  /** Directory of the version relative to the project root, for imports; undefined for imported CRDs. */
  readonly dir: string | undefined;
  /** Whether this version is the group's storage version. Exactly one per group. */
  readonly storage: boolean;
  /** Whether this version holds the hub types that conversions go through. */
  readonly hub: boolean;
  /** Deprecation: clients receive `warning` as a Warning header when they use this version. */
  readonly deprecation: { readonly warning: string | undefined } | undefined;
  /** Prefix of the OpenAPI definition names of this version's types. */
  readonly openapiPackage: string;
  readonly kinds: readonly KindModel[];
  /** The version's types that carry `@protobuf` field numbers, sorted by name; empty for imported CRDs. */
  readonly protobuf: readonly ProtoMessage[];
}

export type Scope = 'Namespaced' | 'Cluster';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface KindModel {
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly scope: Scope;
  /** The REST verbs served (and offered by the typed client), sorted. */
  readonly verbs: readonly Verb[];
  readonly subresources: Subresources;
  readonly printerColumns: readonly PrinterColumn[];
  readonly selectableFields: readonly string[];
  /** Name of the kind's entry in ApiModel.definitions. */
  readonly definition: string;
  /** Structural schema of the whole object, inline (no $ref), as a CRD's openAPIV3Schema. */
  readonly schema: JSONSchemaProps;
  readonly description: string;
  /** The TypeScript type the generated code imports for this kind. */
  readonly typeRef: TypeRef;
  /** Hand-written companions found beside the types; undefined when absent. */
  readonly hooks: KindHooks;
  /** Where the kind was declared, for error messages. */
  readonly source: SourceLocation | undefined;
}

export interface Subresources {
  readonly status: boolean;
  readonly scale: ScaleSubresource | undefined;
}

export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath: string | undefined;
}

export type PrinterColumnType = PrinterColumnDefinition['type'];

export interface PrinterColumn {
  readonly name: string;
  readonly type: PrinterColumnType;
  readonly jsonPath: string;
  readonly description: string | undefined;
  readonly format: string | undefined;
  readonly priority: number;
}

/** Reference to an exported TypeScript symbol: `import { name } from module`. */
export interface TypeRef {
  /** Module path relative to the project root without extension (`apis/wardle/v1alpha1/types`). */
  readonly module: string;
  readonly name: string;
}

export interface KindHooks {
  /** `<Kind>Conversion` from conversion.ts in a non-hub version: toHub/fromHub. */
  readonly conversion: TypeRef | undefined;
  /** `set<Kind>Defaults` from defaults.ts: hand-written defaulting after schema defaults. */
  readonly defaults: TypeRef | undefined;
  /** `<Kind>Strategy` from strategy.ts in the hub version: validation and preparation. */
  readonly strategy: TypeRef | undefined;
}

export interface SourceLocation {
  /** Project-relative path with forward slashes. */
  readonly file: string;
  readonly line: number;
  /** 1-based column, when known: errors then read `file:line:col: message`. */
  readonly column?: number;
}
