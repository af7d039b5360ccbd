import type { PluginFactory } from '../admission/types.js';
import type { Interface as StorageInterface } from '../storage/index.js';
import type { NetworkAllocators } from './allocator/types.js';
import type { KubeObject, RequestContext, ResourceStorage, ValidateObjectFunc, WriteOptions } from './rest.js';
import type { ResourceRegistry } from './resources.js';
import type { TTLFunc } from './generic/store.js';
import type { OpenAPIComponentsDocument, ResourceDefinition } from '../apimachinery/definition/resource.js';
import type { GoTypeNames } from '../apimachinery/schema/typeddecode.js';
import type { ProtobufPackage } from '../apimachinery/serializer/protobuf/descriptor.js';
import type { Authorizer, PolicyRuleResolver, RuleResolver } from '../apimachinery/request/authorizer.js';
import type { ServiceAccountTokenIssuer, TokenAuthenticator } from '../apimachinery/request/authenticator.js';

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
  /** What the group declares beyond its types (apis/<group>/group.ts); absent: nothing more. */
  readonly declaration?: APIGroupDeclaration;
}

/**
 * Everything group-specific a server needs beyond the types, declared by the group in
 * apis/<group>/group.ts (export `group`) and carried to the runtime by generated/registry:
 * every server that installs the group applies it the same way, built-in groups included.
 * Kube's counterparts: the admission plugins a server registers, the group's
 * RESTStorageProvider, and the server of the delegation chain the group is installed on.
 */
export interface APIGroupDeclaration {
  /** Default `kube-apiserver`. */
  readonly server?: GroupServer;
  /**
   * Admission plugins the group brings: every server installing the group runs them, after its
   * own (NamespaceLifecycle), in the order of the installed groups and of this list. They see
   * every write the server admits, as kube's plugins do, so they check the group and kind.
   */
  readonly admissionPlugins?: readonly PluginFactory[];
  /** Per kind: the REST storage served instead of the generic store's (kube's per-resource NewREST). */
  readonly rest?: Readonly<Record<string, RESTOverride>>;
  /**
   * Per kind: the objects live in another group's resource, which must be installed first (kube's
   * cohabitating resources: events.k8s.io's Events are core Events). Both resources read, list,
   * watch and write the storing resource's keys (each through its own storage, cached or not as it
   * declares), so an object written through either is served by both, with one sequence of
   * resourceVersions and the storing resource's time to live.
   */
  readonly storedAs?: Readonly<Record<string, CohabitatingStorage>>;
  /**
   * Per kind: the time to live each write gives an object (kube's Store.TTLFunc), from the
   * server's storage flags; absent or undefined: the objects live until deleted. A kind stored as
   * another resource's objects lives as long as that resource's.
   */
  readonly ttl?: Readonly<Record<string, (flags: StorageFlags) => TTLFunc | undefined>>;
  /**
   * Per kind: false when the resource is served without a watch cache, its reads, lists and
   * watches going to storage (kube's DefaultWatchCacheSizes, size 0: Events); absent or true: with
   * one, when the server has watch caches on. A --watch-cache-sizes entry for the resource
   * (`resource[.group]#size`) overrides it either way. Each resource decides for itself, a
   * cohabitating one too, as kube builds each REST resource's storage with its own decorator.
   */
  readonly watchCache?: Readonly<Record<string, boolean>>;
  /**
   * Versions the group's scheme still decodes without serving them, each with its kinds (list
   * kinds included), as kube's install packages keep registering a group's retired versions
   * (rbac.authorization.k8s.io/v1beta1). A body in one of them is decoded and then refused by the
   * handler's version check (400 `the API version in the data … does not match the expected API
   * version …`); a body in a version the group never had fails in the decoder (400 `… cannot be
   * handled as a …: no kind "…" is registered for version …`).
   */
  readonly unservedSchemeVersions?: Readonly<Record<string, readonly string[]>>;
}

/** The server's flags that shape a kind's storage (kube-apiserver's --event-ttl). */
export interface StorageFlags {
  /** --event-ttl in whole seconds; 0: none. */
  readonly eventTTLSeconds: number;
}

/**
 * Where a kind's objects are stored when another resource holds them, and how they cross: the
 * storing resource's group ('' for core) and plural, and conversions between this group's
 * storage version and the storing resource's storage version. Objects are encoded at rest as the
 * storing resource encodes its own, so its clients and its watch cache read them unchanged.
 */
export interface CohabitatingStorage {
  readonly group: string;
  readonly resource: string;
  /**
   * The storing resource's storage version and kind: what the objects are encoded as at rest, so
   * also what discovery's storageVersionHash of this kind names (kube hashes the storage's
   * encoding kind: both views of one storage share a hash).
   */
  readonly version: string;
  readonly kind: string;
  readonly codec: StorageCodec;
}

/** Conversions between one kind's storage form and another's. Neither mutates its input; the output may share nested values with it. */
export interface StorageCodec {
  /** This group's storage-version object → the storing resource's object as written. */
  toStorage(obj: KubeObject): KubeObject;
  /** A stored object of the storing resource → this group's storage-version object. */
  fromStorage(stored: KubeObject): KubeObject;
}

/**
 * Which server serves a group. In a control plane: one of the servers of the delegation chain
 * (kube-aggregator → kube-apiserver → apiextensions-apiserver), or `aggregated`: not served in
 * process at all but by a standalone aggregated API server that an APIService points the
 * aggregator at (what a standalone server serves by default).
 */
export type GroupServer = 'kube-apiserver' | 'apiextensions-apiserver' | 'kube-aggregator' | 'aggregated';

/** What a kind's REST override is built from. */
export interface RESTOverrideContext {
  readonly group: string;
  readonly kind: string;
  /** The generic store's storages of the kind, to wrap or to delegate to. */
  readonly storages: ResourceStorage;
  /** The storage.Interface under them. */
  readonly storage: StorageInterface;
  /** The control plane's cluster IP and node port allocators; absent on a standalone aggregated server. */
  readonly serviceAllocators?: NetworkAllocators;
  /** The server's authentication and authorization, for storages that answer with them; absent on a standalone aggregated server. */
  readonly auth?: RESTAuthContext;
  /** Every resource the server serves, for storages that read other kinds (a TokenRequest's bound object). */
  readonly resources?: ResourceRegistry;
}

/**
 * What kube hands the RESTStorageProviders of authentication.k8s.io, authorization.k8s.io,
 * rbac.authorization.k8s.io and the ServiceAccount token subresource: the server's authorizer
 * and rule resolvers, its token authenticator and the service-account token issuer.
 */
export interface RESTAuthContext {
  /** The server's authorizer (every mode of --authorization-mode, in order). */
  readonly authorizer: Authorizer;
  /** Lists a user's rules (SelfSubjectRulesReview). */
  readonly ruleResolver: RuleResolver;
  /** RBAC's own rule resolver (escalation checks of roles and bindings). */
  readonly policyRuleResolver: PolicyRuleResolver;
  /** Bearer-token authentication (TokenReview). */
  readonly tokenAuthenticator: TokenAuthenticator;
  /** Issues service-account tokens (TokenRequest); absent when no signing key is configured. */
  readonly serviceAccountTokens?: ServiceAccountTokenIssuer;
}

/**
 * A kind's REST storage, built once when the group is installed. The returned object is kept
 * with the installed resource, so the server's own controllers can reach what it offers beyond
 * `storages` (a namespace's finalize, a Service's allocations).
 */
export type RESTOverride = (ctx: RESTOverrideContext) => RESTStorageOverride | Promise<RESTStorageOverride>;

export interface RESTStorageOverride {
  /** What is served for the kind. */
  readonly storages: ResourceStorage;
  /**
   * Subresources beyond status and scale, by path segment, each created through with a kind of its
   * own (kube's NamedCreater that is a GroupVersionKindProvider: `serviceaccounts/token` takes and
   * answers authentication.k8s.io/v1 TokenRequest). Installed with their discovery and OpenAPI.
   */
  readonly subresources?: Readonly<Record<string, CreateSubresource>>;
}

/** rest.NamedCreater: a create addressed to an object by name (`POST …/<resource>/<name>/<subresource>`). */
export interface NamedCreater {
  /** `obj` is the decoded, defaulted and validated request body; the answer is written with 201. */
  create(ctx: RequestContext, name: string, obj: KubeObject, validate: ValidateObjectFunc, opts: WriteOptions): Promise<KubeObject>;
}

/** A POST-only subresource whose request and response are a kind of another group version. */
export interface CreateSubresource {
  /** The kind's group ('' for core) and version. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Structural schema of the kind: defaulting, pruning and validation of request bodies. */
  readonly schema: ResourceDefinition['schema'];
  /** OpenAPI components holding the kind's definition and everything it references. */
  readonly openapi: OpenAPIComponentsDocument;
  /** The kind's component in `openapi`. */
  readonly openapiDefinition: string;
  /** The Go type names of `openapi`'s fields that are named types (typed decoding's errors print them). */
  readonly goTypes?: GoTypeNames;
  readonly storage: NamedCreater;
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
  /**
   * The Go type names of the document's fields that are named types (`v1.ServiceType` where the
   * schema says string), which kube's typed decoder prints in its errors; generated from the
   * type aliases of apis/.
   */
  readonly goTypes?: GoTypeNames;
  readonly resources: readonly ResourceDefinition[];
  /** The version's protobuf messages (generated/protobuf, from `@protobuf` numbers); absent: JSON and YAML only. */
  readonly protobuf?: ProtobufPackage;
}
