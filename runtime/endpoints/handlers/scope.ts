import type { GroupKind, GroupResource } from '../../apimachinery/errors/index.js';
import type { FieldManager } from '../../apimachinery/managedfields/fieldmanager.js';
import { ConversionCache, type KindScheme } from '../../apimachinery/scheme/scheme.js';
import type { SchemaValidator } from '../../apimachinery/validation/schema-validator.js';
import type { AdmissionChain } from '../../admission/types.js';
import type { Getter, KubeObject, ResourceStorage, StandardStorage, Updater } from '../../registry/rest.js';
import type { NamedCreater } from '../../registry/types.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { OpenAPIComponentsDocument, ResourceDefinition } from '../../apimachinery/definition/resource.js';
import type { GoTypeNames } from '../../apimachinery/schema/typeddecode.js';
import type { EndpointRestrictions } from '../negotiation/negotiate.js';
import type { TableConvertor } from '../table/convertor.js';

/**
 * Everything a verb handler knows about the resource it serves (handlers.RequestScope): one per
 * resource (and subresource) of an installed group-version, built once at installation.
 */
export interface RequestScope {
  /** '' for the core group. */
  readonly group: string;
  /** The request version (the URL's). */
  readonly version: string;
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly resource: string;
  /** '' for the main resource; `status` or `scale`. */
  readonly subresource: string;
  /** {group, plural}: NotFound, Conflict, MethodNotAllowed. */
  readonly groupResource: GroupResource;
  /** {group, Kind}: Invalid. */
  readonly groupKind: GroupKind;
  readonly namespaced: boolean;
  /** The resource's definition in the request version (schema, printer columns, selectable fields). */
  readonly definition: ResourceDefinition;
  readonly admission: AdmissionChain;
  readonly restrictions: EndpointRestrictions;
  /** Set when the endpoint can answer `as=Table`. */
  readonly tableConvertor: TableConvertor | undefined;
  /** PATCH Content-Types accepted, in the order the 415 lists them. */
  readonly patchTypes: readonly string[];
  readonly validator: SchemaValidator;
  /** Watches without timeoutSeconds last this long times (1 + rand). */
  readonly minRequestTimeoutSeconds: number;
  /** How objects of this endpoint move between the request version and the hub. */
  readonly codec: ObjectCodec;
  /**
   * CRDValidationRatcheting: updates are not failed for invalid values they leave unchanged
   * (custom resources, as apiextensions validates them); unset for the kinds of apis/.
   */
  readonly validationRatcheting?: boolean;
  /**
   * Objects are decoded as unstructured, as kube decodes custom resources: a body of another
   * kind decodes all the same and validation refuses it (422 on `kind`), where a typed decoder
   * cannot decode it (400). Unset for the kinds of apis/.
   */
  readonly unstructured?: boolean;
  /**
   * The kinds the group's versions register (their kinds and lists), by apiVersion: what a typed
   * decoder of this group knows, for its errors on a body of another kind or version.
   */
  readonly schemeKinds?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The name of that decoder's scheme, as its "no kind is registered" errors print it. */
  readonly schemeName?: string;
  /**
   * For objects decoded as unstructured: the kind's schema in each version of its group, by
   * apiVersion, which the custom resource decoder prunes a body with (the body's version's, before
   * the handler compares it with the URL's).
   */
  readonly versionSchemas?: ReadonlyMap<string, JSONSchemaProps>;
  /**
   * The request version's OpenAPI definitions, for kinds decoded as typed objects (those of
   * apis/): a body's JSON types are checked against the kind's definition as Go's decoder would.
   */
  readonly openapi?: OpenAPIComponentsDocument;
  /** The Go type names of `openapi`'s fields that are named types, for the typed decoder's errors. */
  readonly goTypes?: GoTypeNames;
  /**
   * For those kinds too: every served version's OpenAPI definitions (with their Go type names),
   * by apiVersion. A patch may move the object to another version of its group, which the typed
   * decoder then reads as that version's struct (patch.ts decodingScope).
   */
  readonly versionOpenAPI?: ReadonlyMap<string, { readonly openapi: OpenAPIComponentsDocument; readonly goTypes?: GoTypeNames }>;
  /**
   * A subresource whose objects are a kind of their own (the autoscaling/v1 Scale of /scale): the
   * OpenAPI definition a body decodes into as a typed Go struct, with its document.
   * `typerScheme` is set when the scope's typer does not know that Go type, as in kube's custom
   * resource handler, whose scale scope keeps the resource's typer (the CRD's parameter scheme):
   * there every body that fails to decode is answered with the typer's own error,
   * `no kind is registered for the type v1.Scale in scheme "<typerScheme>"`.
   */
  readonly subresourceBody?: { readonly openapi: OpenAPIComponentsDocument; readonly definition: string; readonly typerScheme?: string };
  /**
   * The main resource's scope, for a subresource whose requests carry another kind but write the
   * resource (/scale): the object it writes is validated as a write of the resource would be.
   */
  readonly resourceScope?: RequestScope;
  /**
   * Tracks managedFields of writes through this endpoint and serves apply patches (the
   * RequestScope's FieldManager); unset for endpoints whose objects have none (named creates).
   */
  readonly fieldManager?: FieldManager;
}

/** A value, or its promise where producing it waits for I/O (a conversion webhook). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * The objects an endpoint reads and writes: the kind itself (main resource and status), through
 * its scheme; or an autoscaling/v1 Scale (scale subresource), which needs no conversion.
 * Conversions of the kinds from apis/ answer synchronously; those of custom resources with a
 * conversion webhook answer with promises (handlers await them; a failed conversion rejects
 * with the error to answer). Inputs are never mutated.
 */
export interface ObjectCodec {
  /** What the body's apiVersion and kind must be. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The kind's scheme when objects are the kind (conversion, defaulting, schema); undefined for Scale. */
  readonly scheme: KindScheme | undefined;
  toHub(obj: KubeObject): MaybePromise<KubeObject>;
  fromHub(obj: KubeObject): MaybePromise<KubeObject>;
  /**
   * fromHub for answers only (get, list, watch): a frozen hub object, as the watch cache hands
   * out, is converted once and the frozen result shared by every reader. Never mutate it.
   */
  fromHubShared(obj: KubeObject): MaybePromise<KubeObject>;
  /** fromHubShared of every item of a list, in order: one call for the whole list (one ConversionReview). */
  fromHubSharedList(objs: readonly KubeObject[]): MaybePromise<KubeObject[]>;
}

/** The storage a handler calls: the main resource's, a subresource's get/update, or a subresource's named create. */
export type EndpointStorage =
  { readonly kind: 'main'; readonly storage: StandardStorage } | { readonly kind: 'sub'; readonly storage: Getter & Updater } | { readonly kind: 'named'; readonly storage: NamedCreater };

export function endpointStorage(storages: ResourceStorage, subresource: string): EndpointStorage | undefined {
  if (subresource === '') return { kind: 'main', storage: storages.main };
  if (subresource === 'status' && storages.status) return { kind: 'sub', storage: storages.status };
  if (subresource === 'scale' && storages.scale) return { kind: 'sub', storage: storages.scale };
  return undefined;
}

export function kindCodec(scheme: KindScheme, version: string): ObjectCodec {
  const shared = new ConversionCache(scheme);
  return {
    apiVersion: scheme.apiVersion(version),
    kind: scheme.kind,
    scheme,
    toHub: (obj) => scheme.convert(obj, scheme.hubVersion),
    fromHub: (obj) => scheme.convert(obj, version),
    fromHubShared: (obj) => shared.convert(obj, version),
    fromHubSharedList: (objs) => objs.map((o) => shared.convert(o, version)),
  };
}

export const SCALE_CODEC: ObjectCodec = {
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  scheme: undefined,
  toHub: (obj) => obj,
  fromHub: (obj) => ({ ...obj, apiVersion: 'autoscaling/v1', kind: 'Scale' }),
  fromHubShared: (obj) => SCALE_CODEC.fromHub(obj),
  fromHubSharedList: (objs) => objs.map((o) => SCALE_CODEC.fromHub(o) as KubeObject),
};
